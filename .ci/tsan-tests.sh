#!/usr/bin/env bash
# Runs the tests under ThreadSanitizer, with a time limit.
#
# A crash inside the sanitizer's runtime can deadlock its crash reporter, and the test bundle
# then sleeps forever: the limit turns that into a failure with a message, well inside CI's
# own limit. (Such crashes came from our fresh-stack switching until it kept the sanitizer's
# shadow call stack balanced; `DeepChainTests.thousandsOfFreshStacksInARow` guards that.)
set -uo pipefail
cd "$(dirname "$0")/.."

# The limit covers the sanitized build too (swift-syntax included, for @JournalRecordable's
# tests): about 14 minutes in all on this machine kind when it is idle; at a load of 5-6 the
# tests alone took over 25 minutes (and one at a time they take longer than in parallel), so
# the limit leaves room above the idle figure.
limit_seconds=${TSAN_TEST_LIMIT_SECONDS:-2700}
# The model test's 20 seeds run in the plain `swift test`; under the sanitizer 5 cover races.
export ATOMS_MODEL_SEEDS=${ATOMS_MODEL_SEEDS:-5}

# A sanitized build cannot import an executable's module: the samples' replay tests
# (Tests/AtomsTestingTests/Generated) are left out by this condition, and only here.
#
# Two test processes, one after the other. Many tests wait on the main actor with wall-clock
# timeouts (an async atom's update, a debounce, an in-process program answering `jump`), while
# others block a thread for as long as the binary, browser or terminal they run takes. Under the
# sanitizer, run in parallel, such a wait starved for 300 s (an async atom's update, CI of stop
# 47) and for 240 s (a control endpoint's `jump`, at load 5). The runtime's own suites, which
# block nothing, run in parallel in a process of their own; the others run one at a time.
runtime_suites='^(AtomsTests|AtomsTestingTests|AtomsJournalMacrosTests)\.'
deadline=$((SECONDS + limit_seconds))
sanitized_tests() {
    local left=$((deadline - SECONDS))
    if [ "$left" -le 0 ]; then return 124; fi
    timeout --kill-after=30 "$left" swift test --sanitize=thread --scratch-path .build-tsan \
        -Xswiftc -DATOMS_SANITIZER_BUILD "$@"
}
sanitized_tests --filter "$runtime_suites"
status=$?
if [ "$status" -eq 0 ]; then
    sanitized_tests --skip "$runtime_suites" --no-parallel
    status=$?
fi
# `swift test` runs the test bundle in a process group of its own, which `timeout` does not
# reach: stop a bundle left behind, hung or not.
pkill -KILL -f "$PWD/.build-tsan/.*PackageTests.xctest" || true
if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
    echo "ci: the ThreadSanitizer run took over ${limit_seconds} s (hung?); failing" >&2
fi
exit "$status"
