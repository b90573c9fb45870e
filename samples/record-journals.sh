#!/usr/bin/env bash
# Regenerates the shipped journals in samples/journals/ from the scripted sessions beside them.
# Usage: samples/record-journals.sh [--check]
#   --check: record into a temporary directory and verify each journal opens, without
#            replacing the shipped ones (what the tests and CI run).
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
    "$bin/sample-$sample" --journal "$out/$sample.jsonl" --keyframe-interval 64 \
        < "samples/journals/$sample.commands" > /dev/null
    transactions=$("$bin/atoms-inspect" stats "$out/$sample.jsonl" --json | sed -n 's/.*"transactions" : \([0-9]*\).*/\1/p')
    echo "$sample: $transactions transactions -> $out/$sample.jsonl"
done
