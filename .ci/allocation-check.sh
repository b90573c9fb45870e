#!/usr/bin/env bash
# The recorder's threads allocate nothing per transaction in steady state, for values recorded
# through `@JournalRecordable`: counted by malloc-interposer on a release build of
# journal-allocations (a debug build allocates for its own reasons), keyframes held off (a
# keyframe writes the whole state and allocates; they come every few hundred transactions).
set -euo pipefail
cd "$(dirname "$0")/.."

swift build -c release --product journal-allocations 2>&1 | grep -v "the use of \`mktemp' is dangerous" | tail -1
bin="$(swift build -c release --show-bin-path)"
counts=$(LD_PRELOAD="$bin/libMallocInterposerSwift.so" "$bin/journal-allocations" 20000)
echo "journal-allocations: $counts"
python3 - "$counts" <<'PY'
import json, sys
counts = json.loads(sys.argv[1])
lines = counts["recordable-lines"]["on"]["others"]
app = counts["recordable"]["on"]["app"] - counts["recordable"]["off"]["app"]
print(f"recorder's threads: {lines:.4f} allocations per transaction line (target 0); app thread added {app:.4f}")
if lines >= 0.01 or app >= 0.01:
    sys.exit("allocation check failed: recording a @JournalRecordable value allocates per transaction")
PY
