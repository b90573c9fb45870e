#!/usr/bin/env bash
# The attach flow, many times: `sample-todo --control` with three todos, `atoms-inspect dap`
# attached; step back twice, then continue to the present. Every stop's values are compared
# with the state the program prints, and the present with the program's last step
# (DebugAdapterPresentTests). Prints how many runs were wrong; exits 1 when any was.
#
#   Benchmarks/attach-present-stress.sh        # 200 runs
#   Benchmarks/attach-present-stress.sh 1000   # more
#
# The runs follow one another (the point is the race between the program's recorder and the
# inspector, not load); 200 take a few minutes.
set -uo pipefail
cd "$(dirname "$0")/.."
runs=${1:-200}
export ATOMS_ATTACH_FLOW_RUNS=$runs
output=$(swift test --filter 'DebugAdapterPresentTests/everyStopOfTheAttachFlowIsTheProgramsState' 2>&1)
status=$?
grep -E 'run [0-9]+:' <<<"$output" | sed 's/^/  /'
summary=$(grep -o 'attach flow .*runs wrong' <<<"$output" | tail -n 1)
if [ -z "$summary" ]; then
    tail -n 30 <<<"$output" >&2
    echo "$0: the flow did not run — see the output above" >&2
    exit 69
fi
echo "$summary"
exit $((status == 0 ? 0 : 1))
