#!/usr/bin/env bash
# Regenerates the shipped journals in samples/journals/ from the scripted sessions beside them.
# Usage: samples/record-journals.sh [--check]
#   --check: record into a temporary directory, verify each journal opens and that it
#            matches the shipped one (`atoms-inspect compare`: same transactions, write sites,
#            values and graph; time and timing lines ignored, as they vary run to run),
#            without replacing the shipped ones (what CI runs).
set -euo pipefail
cd "$(dirname "$0")/.."

check=false
[ "${1:-}" = "--check" ] && check=true

swift build --product atoms-inspect >/dev/null
for sample in counter todo numpad movies; do
    swift build --product "sample-$sample" >/dev/null
done
bin="$(swift build --show-bin-path)"

out=samples/journals
if $check; then
    out="$(mktemp -d)"
    trap 'rm -rf "$out"' EXIT
fi

for sample in counter todo numpad movies; do
    # Every shipped journal records its costs too, so `atoms-inspect profile` opens any of them.
    "$bin/sample-$sample" --journal "$out/$sample.jsonl" --timing --keyframe-interval 64 \
        < "samples/journals/$sample.commands" > /dev/null
    transactions=$("$bin/atoms-inspect" stats "$out/$sample.jsonl" --json | sed -n 's/.*"transactions" : \([0-9]*\).*/\1/p')
    echo "$sample: $transactions transactions -> $out/$sample.jsonl"
    if $check; then
        # The golden-journal check: a sample whose behaviour or write sites changed diverges
        # here; run this script without --check to re-record the shipped journals.
        "$bin/atoms-inspect" compare "samples/journals/$sample.jsonl" "$out/$sample.jsonl"
    fi
done
