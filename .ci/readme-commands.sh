#!/usr/bin/env bash
# Runs every command in README.md's ```sh blocks, as written, from the repository root, and
# fails on the first that fails. `swift test` is left to .ci/run. PNG output needs Graphviz.
set -euo pipefail
cd "$(dirname "$0")/.."

commands=$(awk '/^```sh$/ { inside = 1; next } /^```$/ { inside = 0 } inside' README.md | sed 's/[[:space:]]*#.*$//' | grep -v '^[[:space:]]*$' | grep -v '^swift test$')
count=0
while IFS= read -r command; do
    count=$((count + 1))
    echo "README\$ $command"
    if ! bash -o pipefail -c "$command" > /tmp/readme-command.out 2>&1; then
        cat /tmp/readme-command.out
        echo "README command failed: $command" >&2
        exit 1
    fi
done <<< "$commands"
echo "ran $count README commands"
