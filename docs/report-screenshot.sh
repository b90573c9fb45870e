#!/usr/bin/env bash
# Regenerates docs/images/report.png, the README's picture of `atoms-inspect report`: the todo
# sample's report at step 40, as headless Chromium draws it (apt-get install chromium).
set -euo pipefail
cd "$(dirname "$0")/.."
page=$(mktemp -d)/todo-report.html
swift run atoms-inspect report samples/journals/todo.jsonl -o "$page"
chromium --headless --no-sandbox --disable-gpu --disable-dev-shm-usage --hide-scrollbars --window-size=1400,1000 \
    --host-resolver-rules='MAP * ~NOTFOUND' --virtual-time-budget=3000 \
    --screenshot=docs/images/report.png "file://$page#step=40" 2>/dev/null
rm -r "$(dirname "$page")"
echo "wrote docs/images/report.png"
