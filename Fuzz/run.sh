#!/usr/bin/env bash
# Builds the fuzz targets with libFuzzer and AddressSanitizer (one executable, atoms-fuzz, for
# all of them) and runs one.
# Usage: Fuzz/run.sh TARGET [SECONDS] [libFuzzer options…]   (Fuzz/run.sh --build: only build)
#   TARGET: journal-reader, journal-summary, rules, step-commands, control-protocol or dap. SECONDS: how long to run
#   (default 60).
# New inputs go to .build-fuzz/corpus/TARGET (kept between runs); a crash is written to
# .build-fuzz/crashes/TARGET/ and the script fails. Inputs on which two readers disagree go to
# .build-fuzz/findings/TARGET/ without stopping the run. See docs/FUZZING.md.
set -euo pipefail
cd "$(dirname "$0")/.."

target=${1:?usage: Fuzz/run.sh TARGET [SECONDS] [libFuzzer options…] (or --build: only build)}
seconds=${2:-60}
shift $(( $# >= 2 ? 2 : 1 ))
[ "$target" = --build ] || [ -d "Fuzz/corpus/$target" ] || { echo "Fuzz/run.sh: no target '$target' (journal-reader, journal-summary, rules, step-commands, control-protocol, dap)" >&2; exit 64; }

# The driver is looked up at run time (FuzzDriver), so the linker must export it. Once built,
# this is a check that finds nothing to do (FUZZ_SKIP_BUILD=1 skips even that: .ci/fuzz.sh).
if [ "${FUZZ_SKIP_BUILD:-0}" != 1 ]; then
    swift build -c release --build-path .build-fuzz \
        -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING \
        -Xlinker --export-dynamic-symbol=LLVMFuzzerRunDriver \
        --product atoms-fuzz 2>&1 | grep -v "Cannot export local symbol" | tail -1
fi
[ "$target" = --build ] && exit 0

# step-commands allocates on every command, journal-summary a few line buffers per reader:
# without a stack kept per allocation and the fill of each new block, AddressSanitizer's
# bookkeeping costs much less (a report then lacks the stacks of the allocation and the free:
# rerun the input with ASAN_OPTIONS=detect_leaks=0).
asan_options=detect_leaks=0
if [ "$target" = step-commands ] || [ "$target" = journal-summary ]; then
    asan_options+=:malloc_context_size=0:max_malloc_fill_size=0
fi

corpus=".build-fuzz/corpus/$target"
crashes=".build-fuzz/crashes/$target"
mkdir -p "$corpus" "$crashes"
# The Swift runtime's own crash reporter would wait on libFuzzer's: let libFuzzer report.
SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=$asan_options \
    .build-fuzz/release/atoms-fuzz "$target" "$corpus" "Fuzz/corpus/$target" "Fuzz/regressions/$target" \
    -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 -detect_leaks=0 \
    -artifact_prefix="$crashes/" -print_final_stats=1 "$@"
