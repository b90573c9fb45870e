#!/bin/bash
# The reader's figures: what reading a journal costs with timing on against off. Records the same
# `sample-counter` session timed and untimed (100,000 steps for instruction counts by callgrind,
# 1,000,000 for times), then for each build given: instructions of `stats`, `find --first` and
# `log` per journal, and, builds alternated over ROUNDS rounds, each ratio within its round.
# Release builds first, one product a command (`swift build` takes only the last `--product`):
# `swift build -c release --product atoms-inspect && swift build -c release --product sample-counter`.
#
#   Benchmarks/reader-figures.sh [ROUNDS] [OTHER_ATOMS_INSPECT…]
#
# With no other build, only .build/release/atoms-inspect is measured.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
shift || true
builds=(.build/release/atoms-inspect "$@")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
awk 'BEGIN { for (i = 0; i < 1000000; i++) print "inc" }' > "$work/incs"
head -100000 "$work/incs" > "$work/incs-100k"
counter=.build/release/sample-counter
$counter --journal "$work/timed.jsonl" < "$work/incs" > /dev/null
$counter --journal "$work/untimed.jsonl" --no-timing < "$work/incs" > /dev/null
$counter --journal "$work/timed-100k.jsonl" < "$work/incs-100k" > /dev/null
$counter --journal "$work/untimed-100k.jsonl" --no-timing < "$work/incs-100k" > /dev/null
timed_bytes=$(wc -c < "$work/timed.jsonl"); untimed_bytes=$(wc -c < "$work/untimed.jsonl")
echo "journals: 1M steps $timed_bytes bytes timed, $untimed_bytes untimed: timing $(( (timed_bytes - untimed_bytes) / 1000000 )).$(( (timed_bytes - untimed_bytes) / 100000 % 10 )) bytes a transaction (goal 24)"

if command -v valgrind > /dev/null; then
    instructions() { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null | awk '/Collected/ { printf "%.1fM", $4 / 1e6 }'; }
    for build in "${builds[@]}"; do
        for journal in timed-100k untimed-100k; do
            j="$work/$journal.jsonl"
            # `profile` reads timing lines: the timed journal only.
            profile=""
            [ "$journal" = timed-100k ] && profile=", profile $(instructions "$build" profile "$j")"
            echo "$build, $journal: instructions wc -l $(instructions wc -l "$j"), stats $(instructions "$build" stats "$j"), find --first $(instructions "$build" find "$j" --where 'CounterAtom == 99990' --first), log $(instructions "$build" log "$j")$profile"
        done
    done
else
    echo "valgrind is not installed: no instruction counts (apt-get install -y valgrind)"
fi

microseconds() { local start end; start=$(date +%s%N); "$@" > /dev/null 2>&1; end=$(date +%s%N); echo $(( (end - start) / 1000 )); }
for round in $(seq "$rounds"); do
    for build in "${builds[@]}"; do
        wc_t=$(microseconds wc -l "$work/timed.jsonl")
        stats_t=$(microseconds "$build" stats "$work/timed.jsonl"); stats_u=$(microseconds "$build" stats "$work/untimed.jsonl")
        find_t=$(microseconds "$build" find "$work/timed.jsonl" --where 'CounterAtom == 999990' --first)
        find_u=$(microseconds "$build" find "$work/untimed.jsonl" --where 'CounterAtom == 999990' --first)
        log_t=$(microseconds "$build" log "$work/timed.jsonl"); log_u=$(microseconds "$build" log "$work/untimed.jsonl")
        awk -v b="$build" -v r="$round" -v wc="$wc_t" -v st="$stats_t" -v su="$stats_u" -v ft="$find_t" -v fu="$find_u" -v lt="$log_t" -v lu="$log_u" 'BEGIN {
            printf "round %d, %s: timed/untimed stats %.2f (goal 1.2), find %.2f (1.2), log %.2f (1.2); timed: find/stats %.2f (2), log/wc %.1f (20), stats/wc %.1f (4)\n", r, b, st / su, ft / fu, lt / lu, ft / st, lt / wc, st / wc }'
    done
done
