#!/bin/bash
# Every command's output on the shipped and fuzzed journals, from two builds of atoms-inspect,
# compared: what may differ is only what the reading engine changed on purpose — an atom written an equal
# value is marked (`Name=` in text, an "equal" list in JSON), and a damaged journal is named
# by the first damaged line a command reads (never a later one than before). Prints each
# other difference and exits 1 when there is one.
#
#   Benchmarks/OutputDifferential/run.sh OLD_ATOMS_INSPECT [NEW_ATOMS_INSPECT]
#
# The old build is any earlier commit's `swift build -c release --product atoms-inspect`
# (built in a clone); the new one defaults to .build/release/atoms-inspect.
set -euo pipefail
cd "$(dirname "$0")/../.."
old=${1:?usage: $0 OLD_ATOMS_INSPECT [NEW_ATOMS_INSPECT]}
new=${2:-.build/release/atoms-inspect}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
commands=("log" "log --json" "profile" "profile --json" "replay-test" "show" "show --json" "stats" "stats --json" "graph" "diff JOURNAL 0 last" "diff JOURNAL -3 last --json" "blame JOURNAL *" "blame JOURNAL * --history" "find JOURNAL --where true")
outputs() {
    local inspect=$1 out=$2
    mkdir -p "$out"
    for journal in samples/journals/*.jsonl Fuzz/corpus/journal-reader/* Fuzz/corpus/journal-summary/* Fuzz/regressions/journal-reader/* Fuzz/regressions/journal-summary/*; do
        [ -f "$journal" ] || continue
        for command in "${commands[@]}"; do
            echo "=== $command"
            set -f
            if [[ "$command" == *JOURNAL* ]]; then arguments=(${command/JOURNAL/$journal}); else arguments=($command "$journal"); fi
            set +f
            status=0
            timeout 20 "$inspect" "${arguments[@]}" 2>&1 || status=$?
            echo "exit $status"
        done > "$out/$(tr '/' '_' <<< "$journal").txt"
    done
}
outputs "$old" "$work/old"
outputs "$new" "$work/new"
python3 Benchmarks/OutputDifferential/compare.py "$work/old" "$work/new"
