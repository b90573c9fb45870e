#!/usr/bin/env bash
# The public surface, as the compiler sees it: every public symbol of the library products'
# modules (Atoms, AtomsJournal and the AtomsJournalReader it re-exports, AtomsJournalMacros,
# AtomsTesting), listed in docs/PUBLIC_API.txt from the symbol graphs `swift package
# dump-symbol-graph` writes. A module that is no product (the inspector's libraries, the fuzz
# targets) must have none: what users do not call is `package` or internal.
#
# With --check, fails when the list differs from docs/PUBLIC_API.txt (a declaration made public
# or no longer public without the list being reviewed); without, writes the list.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"

log=$(mktemp)
listed=$(mktemp)
trap 'rm -f "$log" "$listed"' EXIT
swift package dump-symbol-graph --skip-synthesized-members > "$log" 2>&1 || { cat "$log"; exit 1; }
folder=$(sed -n 's/^Files written to //p' "$log" | tail -1)
if [ -z "$folder" ] || [ ! -d "$folder" ]; then
    cat "$log"
    echo "public-api: swift package dump-symbol-graph said no folder of symbol graphs" >&2
    exit 1
fi
python3 - "$folder" > "$listed" <<'PY'
import glob, json, os, sys

products = {"Atoms", "AtomsJournal", "AtomsJournalReader", "AtomsJournalMacros", "AtomsTesting"}
# Modules of this package that are no library product: none of their symbols may be public.
internal_only = {"AtomsInspector", "AtomsDOT", "AtomsFuzzTargets", "CAtomsStack"}
rows, leaks = set(), []
present = {os.path.basename(path)[: -len(".symbols.json")] for path in glob.glob(os.path.join(sys.argv[1], "*.symbols.json"))}
missing = sorted((products | internal_only) - present)
if missing:
    sys.stderr.write("no symbol graph for " + ", ".join(missing) + ": the check would prove nothing of them\n")
    sys.exit(1)
for path in glob.glob(os.path.join(sys.argv[1], "*.symbols.json")):
    graph = os.path.basename(path)[: -len(".symbols.json")]
    module = graph.split("@")[0]
    if module not in products and module not in internal_only:
        continue
    for symbol in json.load(open(path, encoding="utf-8")).get("symbols", []):
        name = ".".join(symbol["pathComponents"])
        declaration = "".join(fragment["spelling"] for fragment in symbol.get("declarationFragments", []))
        if module in internal_only:
            leaks.append(f"{graph}: {name}")
        else:
            rows.add(f"{graph}\t{name}\t{declaration}")
if leaks:
    sys.stderr.write("public in a module that is no product (make it package or internal):\n  " + "\n  ".join(sorted(leaks)) + "\n")
    sys.exit(1)
print("# The public API of the library products, one symbol a line: module (@ the module it")
print("# extends), name, declaration. Written by .ci/public-api.sh from the compiler's symbol")
print("# graphs; CI fails when the code's public surface differs from this list.")
for row in sorted(rows):
    print(row)
PY
if [ "${1:-}" = "--check" ]; then
    if ! diff docs/PUBLIC_API.txt "$listed"; then
        echo "the public API differs from docs/PUBLIC_API.txt ('<' listed, '>' in the code): make what users do not call package or internal, or review the change and run .ci/public-api.sh" >&2
        exit 1
    fi
    echo "docs/PUBLIC_API.txt lists the public API"
else
    cp "$listed" docs/PUBLIC_API.txt
    echo "wrote docs/PUBLIC_API.txt"
fi
