#!/usr/bin/env bash
# Runs every test suite under ThreadSanitizer, in parallel as `swift test` runs them, in two
# processes (the runtime's suites, then the rest), each with a time limit.
#
# No test holds a thread while it waits (TestSupport's waits suspend), so the suites share the
# cooperative threads without starving one another, sanitized or not. The main actor is one
# queue: the long suites that need it yield between stretches of work, and those that only
# read journals leave it.
# A crash inside the sanitizer's runtime can deadlock its crash reporter, and the test bundle
# then sleeps forever: the limit turns that into a failure with a message, well inside CI's
# own limit. (Such crashes came from our fresh-stack switching until it kept the sanitizer's
# shadow call stack balanced; `DeepChainTests.thousandsOfFreshStacksInARow` guards that.)
set -uo pipefail
cd "$(dirname "$0")/.."

# The limit covers the sanitized build too (swift-syntax included, for @JournalRecordable).
limit_seconds=${TSAN_TEST_LIMIT_SECONDS:-1800}
# Every test's waits and time limits are four times their usual length here (TestSupport's
# `Patience`): the sanitizer slows every instruction, and on a slow or loaded two-core machine
# the tests share the cores with chromium and the sanitized programs they start. A limit only
# turns a hang into a failure, so a longer one costs nothing when the tests pass.
export ATOMS_TEST_PATIENCE=${ATOMS_TEST_PATIENCE:-4}
# The model test's 20 seeds run in the plain `swift test`; under the sanitizer 5 cover races (and the
# flight recorder's million transactions are a hundred thousand: FlightRecorderTests).
export ATOMS_MODEL_SEEDS=${ATOMS_MODEL_SEEDS:-5}

# The runtime's own suites (async atoms, refresh, cancellation, publishers) run first, in a
# process of their own: every update they wait for crosses the main actor several times, and
# in one process with the journal and inspector suites each crossing queues behind their
# main-actor work, which the sanitizer makes minutes long. The rest run after, in parallel.
run() {
    timeout --kill-after=30 "$limit_seconds" swift test --sanitize=thread --scratch-path .build-tsan "$@"
    local status=$?
    # `swift test` runs the test bundle in a process group of its own, which `timeout` does
    # not reach: stop a bundle left behind, hung or not.
    pkill -KILL -f "$PWD/.build-tsan/.*PackageTests.xctest" || true
    if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
        echo "ci: the ThreadSanitizer run took over ${limit_seconds} s (hung?); failing" >&2
    fi
    return "$status"
}

run --filter '^AtomsTests\.' "$@" || exit $?
run --skip '^AtomsTests\.' "$@"
