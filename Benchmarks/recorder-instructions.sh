#!/bin/bash
# Instructions per transaction on each thread, counted by callgrind: the slope between two
# session lengths, so start-up and the journal's opening cancel out. Release build of
# atoms-bench first (`swift build -c release --product atoms-bench`); needs valgrind.
#
#   Benchmarks/recorder-instructions.sh small   # R2's small Codable value, journal off and on
#   Benchmarks/recorder-instructions.sh todos   # R2b's 500 todos, per toggle, off and on
#   Benchmarks/recorder-instructions.sh todos-recordable   # the same todos, @JournalRecordable
#   Benchmarks/recorder-instructions.sh timed   # R2's small value recorded without timing and with it
#
# BENCH=path/to/atoms-bench counts another build (an older one, to compare) instead of
# .build/release/atoms-bench.
#
# Thread 01 is the app's (main) thread; with the journal on, the recorder's thread is the one
# with most instructions besides it (the file writer's thread has almost none).
set -euo pipefail
cd "$(dirname "$0")/.."
case "${1:-small}" in
    small) mode=--recording-once; short=10000; long=30000 ;;
    timed) mode=--recording-once; short=10000; long=30000; journals="untimed timed" ;;
    todos) mode=--large-once; short=1000; long=3000 ;;
    todos-recordable) mode=--large-once; short=1000; long=3000; variant=recordable ;;
    *) echo "usage: $0 small|todos|todos-recordable|timed" >&2; exit 64 ;;
esac
command -v valgrind >/dev/null || { echo "$0: valgrind is not installed (apt-get install -y valgrind)" >&2; exit 69; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Valgrind cannot read the debug information newer compilers write: count a stripped copy.
cp "${BENCH:-.build/release/atoms-bench}" "$work/atoms-bench"
strip --strip-debug "$work/atoms-bench"
for journal in ${journals:-off untimed}; do
    declare -A totals=()
    for n in $short $long; do
        rm -f "$work"/cg.out*
        valgrind --tool=callgrind --separate-threads=yes --callgrind-out-file="$work/cg.out" \
            "$work/atoms-bench" $mode $journal $n ${variant:-} >/dev/null 2>&1
        for file in "$work"/cg.out-*; do
            thread=${file##*-}
            totals[$n,$thread]=$(awk '/^totals:/ { print $2 }' "$file")
        done
    done
    for thread in 01 02 03 04; do
        [ -n "${totals[$short,$thread]:-}" ] || continue
        echo "journal $journal, thread $thread: $(( (${totals[$long,$thread]:-0} - ${totals[$short,$thread]}) / (long - short) )) instructions per transaction"
    done
    unset totals
done
