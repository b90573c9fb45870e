#!/usr/bin/env bash
# Runs every test suite under ThreadSanitizer, in parallel as `swift test` runs them, with a
# time limit.
#
# No test holds a thread while it waits (TestSupport's waits suspend), so the suites share the
# cooperative threads and the main actor without starving one another, sanitized or not.
# A crash inside the sanitizer's runtime can deadlock its crash reporter, and the test bundle
# then sleeps forever: the limit turns that into a failure with a message, well inside CI's
# own limit. (Such crashes came from our fresh-stack switching until it kept the sanitizer's
# shadow call stack balanced; `DeepChainTests.thousandsOfFreshStacksInARow` guards that.)
set -uo pipefail
cd "$(dirname "$0")/.."

# The limit covers the sanitized build too (swift-syntax included, for @JournalRecordable).
limit_seconds=${TSAN_TEST_LIMIT_SECONDS:-1200}
# The model test's 20 seeds run in the plain `swift test`; under the sanitizer 5 cover races (and the
# flight recorder's million transactions are a hundred thousand: FlightRecorderTests).
export ATOMS_MODEL_SEEDS=${ATOMS_MODEL_SEEDS:-5}

timeout --kill-after=30 "$limit_seconds" swift test --sanitize=thread --scratch-path .build-tsan "$@"
status=$?
# `swift test` runs the test bundle in a process group of its own, which `timeout` does not
# reach: stop a bundle left behind, hung or not.
pkill -KILL -f "$PWD/.build-tsan/.*PackageTests.xctest" || true
if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
    echo "ci: the ThreadSanitizer run took over ${limit_seconds} s (hung?); failing" >&2
fi
exit "$status"
