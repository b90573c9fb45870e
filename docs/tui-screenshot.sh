#!/usr/bin/env bash
# Regenerates docs/images/tui.svg, the README's picture of `atoms-inspect step --tui`: the todo
# sample's journal at step 40 in a 100×30 terminal (tmux), captured with its colours
# (capture-pane -e) and drawn as SVG by docs/ansi-to-svg.py (apt-get install tmux python3).
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --product atoms-inspect >/dev/null
inspect="$(swift build --show-bin-path)/atoms-inspect"
socket=$(mktemp -d)/tmux.sock
tmux=(tmux -S "$socket" -f /dev/null)
trap '"${tmux[@]}" kill-server 2>/dev/null || true; rm -r "$(dirname "$socket")"' EXIT
"${tmux[@]}" new-session -d -x 100 -y 30 "'$inspect' step --tui samples/journals/todo.jsonl --at 39"
# Each wait polls with a deadline.
wait_for() {
    for _ in $(seq 100); do
        "${tmux[@]}" capture-pane -p | grep -qF "$1" && return 0
        sleep 0.05
    done
    echo "tui-screenshot: the screen never showed '$1'" >&2
    exit 1
}
wait_for "[39/260]"
"${tmux[@]}" send-keys Right Down Down Down
wait_for "[40/260]"
sleep 0.2
"${tmux[@]}" capture-pane -e -p | docs/ansi-to-svg.py 100 30 > docs/images/tui.svg
echo "wrote docs/images/tui.svg"
