#!/usr/bin/env bash
# Regenerates man/atoms-inspect.1 from the command tree (argument-parser's generate-manual
# plugin), arranged into man-pages(7)'s sections by man/arrange.py with the hand-written ones
# of man/sections.mdoc. With --check, fails when the committed page differs (ignoring its date
# line).
set -euo pipefail
cd "$(dirname "$0")/.."
swift package --allow-writing-to-package-directory generate-manual >/dev/null
plugin_output=.build/plugins/GenerateManual/outputs/atoms-inspect/atoms-inspect.1
generated=$(mktemp)
trap 'rm -f "$generated"' EXIT
python3 man/arrange.py "$plugin_output" man/sections.mdoc > "$generated"
if [ "${1:-}" = "--check" ]; then
    if ! diff <(grep -v '^\.Dd ' man/atoms-inspect.1) <(grep -v '^\.Dd ' "$generated"); then
        echo "man/atoms-inspect.1 is stale: run man/regenerate.sh" >&2
        exit 1
    fi
    echo "man/atoms-inspect.1 is up to date"
else
    cp "$generated" man/atoms-inspect.1
    echo "wrote man/atoms-inspect.1"
fi
