#!/usr/bin/env bash
# Every fuzz target for its time (FUZZ_SECONDS, 60 by default) from its seed corpus; any crash
# fails (docs/FUZZING.md). One build for all targets, then two targets at a time, one per core:
# each still has a core to itself for its whole minute.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${FUZZ_SECONDS:-60}
targets=(journal-reader journal-summary rules step-commands control-protocol dap)

Fuzz/run.sh --build
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
failed=()
for ((i = 0; i < ${#targets[@]}; i += 2)); do
    pids=()
    for target in "${targets[@]:i:2}"; do
        FUZZ_SKIP_BUILD=1 Fuzz/run.sh "$target" "$seconds" > "$logs/$target.log" 2>&1 &
        pids+=("$!:$target")
    done
    for entry in "${pids[@]}"; do
        target=${entry#*:}
        if wait "${entry%%:*}"; then
            echo "fuzz $target: $(grep -E '^stat::number_of_executed_units' "$logs/$target.log" | awk '{print $2}') inputs in ${seconds} s, no crash"
        else
            echo "fuzz $target: FAILED" >&2
            tail -40 "$logs/$target.log" >&2
            failed+=("$target")
        fi
    done
done
[ ${#failed[@]} -eq 0 ] || { echo "fuzz: ${failed[*]} failed" >&2; exit 1; }
