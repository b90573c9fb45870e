"""Compares two folders of command outputs (Benchmarks/OutputDifferential/run.sh): each
command's output, after taking out what marks an equal write, must be the same, or differ only
in the damaged line named, the new one no later in the file than the old one (or, for a listing
that read to the end before, the line the old build's other commands named).

`stats` counted an atom's writes, equal values included, as its changes, and now shows both
counts: the new "writes" must be the old "changes" (read in either order, since the ranking is
by changes now). A build from before that still shows one count compares as it is.

`replay-test` left out asynchronous atoms and what derives from them, each with a comment, and
now drives and checks them: a difference where every line taken out is such a comment, and
every line put in drives, checks or leaves out an atom, is the replay's own."""
import difflib
import json
import os
import re
import sys


def sections(text):
    """The output of each command, by command."""
    parts = re.split(r'^=== (.*)$', text, flags=re.M)
    return {parts[i]: parts[i + 1] for i in range(1, len(parts), 2)}


def without_equal_in_json(value):
    """A JSON listing with an entry's "equal" atoms put back among its "changed" ones."""
    if isinstance(value, dict):
        result = {key: without_equal_in_json(item) for key, item in value.items() if key != 'equal'}
        if isinstance(value.get('changed'), list):
            result['changed'] = sorted(value['changed'] + value.get('equal', []))
        return result
    if isinstance(value, list):
        return [without_equal_in_json(item) for item in value]
    return value


def without_equal_in_text(text):
    """A text listing with `Name=` read as `Name`, each step's names in one order."""
    lines = []
    for line in text.split('\n'):
        match = re.match(r'^(\s*(?:step )?\d+\s+(?:\S+\s+)?\S+\s+)(.*?)(\s+@ .*)?$', line)
        if match and ('@' in line or re.match(r'^\s*\d+\s+\d', line)):
            names = sorted(name.strip().rstrip('=') for name in match.group(2).split(','))
            line = match.group(1) + ', '.join(names) + (match.group(3) or '')
        lines.append(line)
    return '\n'.join(lines)


def writes_as_changes_in_json(value):
    """A `stats --json` summary with each atom's writes as its changes, in the atoms' order."""
    if isinstance(value, dict):
        result = {key: writes_as_changes_in_json(item) for key, item in value.items() if key != 'writes'}
        if 'writes' in value:
            result['changes'] = value['writes']
        return result
    if isinstance(value, list):
        items = [writes_as_changes_in_json(item) for item in value]
        if all(isinstance(item, dict) and 'atom' in item for item in items):
            items.sort(key=lambda item: (item['atom'], item.get('changes', 0)))
        return items
    return value


def writes_as_changes_in_text(text):
    """A `stats` summary's "most changed" list with each atom's writes as its count, in the
    atoms' order."""
    lines, block = [], []
    inside = False
    for line in text.split('\n') + ['']:
        if line.startswith('most changed'):
            lines.append('most changed')
            inside = True
            continue
        match = re.match(r'^\s+(\d+)  (.+?)(?:  \((\d+) writes\))?$', line) if inside else None
        if match:
            block.append(f'{int(match.group(3) or match.group(1)):>9}  {match.group(2)}')
            continue
        if inside:
            lines.extend(sorted(block, key=lambda entry: entry.split(None, 1)[1]))
            block, inside = [], False
        lines.append(line)
    return '\n'.join(lines[:-1])


def normalized(command, output):
    body, _, status = output.rpartition('exit')
    if command.startswith('stats'):
        try:
            return json.dumps(writes_as_changes_in_json(json.loads(body)), sort_keys=True, indent=1) + 'exit' + status
        except ValueError:
            # Entries before an error: each count of writes taken as the changes.
            body = re.sub(r'"changes" : \d+,\n\s*"writes" : (\d+)', r'"changes" : \1', body)
            return writes_as_changes_in_text(body) + 'exit' + status
    if '--json' in command:
        try:
            return json.dumps(without_equal_in_json(json.loads(body)), sort_keys=True, indent=1) + 'exit' + status
        except ValueError:
            # Entries before an error: each empty or listed "equal" taken out.
            body = re.sub(r'\n\s*"equal" : \[[^\]]*\],?', '', body)
    return without_equal_in_text(body) + 'exit' + status


def named_lines(lines):
    return [int(number) for line in lines for number in re.findall(r'\.jsonl:(\d+):', line)]


def main(old, new):
    compared = verdicts = 0
    others = []
    for name in sorted(os.listdir(old)):
        before = sections(open(os.path.join(old, name), encoding='utf-8', errors='replace').read())
        after = sections(open(os.path.join(new, name), encoding='utf-8', errors='replace').read())
        for command, output in before.items():
            compared += 1
            one, two = normalized(command, output), normalized(command, after.get(command, ''))
            if one == two:
                continue
            changes = [line for line in difflib.unified_diff(one.split('\n'), two.split('\n'), lineterm='', n=0)
                       if line[:1] in '+-' and line[:3] not in ('+++', '---')]
            removed = [line for line in changes if line.startswith('-')]
            added = [line for line in changes if line.startswith('+')]
            # Only the error line (and what follows it: the exit status, a blank) differs, and
            # it names a line no later than before.
            only_verdict = all('error:' in line or line[1:].strip() == '' or line[1:].startswith('exit') for line in changes)
            if only_verdict and named_lines(removed) and named_lines(added) and max(named_lines(added)) <= min(named_lines(removed)):
                verdicts += 1
                continue
            # A listing cut short earlier: the damaged line named is an earlier one (an atom no
            # line declares, which `log` now checks as applying the transaction does), and what
            # was listed before it is what was listed before, up to there.
            def listed(text):
                return [line for line in text.split('\n') if 'error:' not in line and not line.startswith('exit') and line.strip()]
            errors = lambda text: named_lines([line for line in text.split('\n') if 'error:' in line])
            before_errors, after_errors = errors(one), errors(two)
            if before_errors and after_errors and max(after_errors) <= min(before_errors):
                kept, was = listed(two), listed(one)
                if kept == was[:len(kept)]:
                    verdicts += 1
                    continue
            # A listing that read to the end now stops at the line the other commands already
            # named in the old build (one verdict for every command): what it lists before the
            # error is what it listed before, up to there.
            named_before = set(named_lines([line for other, text in before.items() if other != command
                                            for line in text.split('\n') if 'error:' in line]))
            if not before_errors and after_errors and set(after_errors) <= named_before:
                kept, was = listed(two), listed(one)
                if kept == was[:len(kept)]:
                    verdicts += 1
                    continue
            # The replay drives and checks what it left out before.
            if command == 'replay-test' and all(line[1:].strip().startswith('//') for line in removed) \
                    and all(re.match(r'^\+\s*(replay\.(drive|check)\(|//)', line) for line in added):
                continue
            # A JSON listing cut short by an error: names moved from "changed" to an "equal" list.
            if '--json' in command and all(re.match(r'^[-+]\s*("[^"]*",?)?$', line) for line in changes):
                names = lambda lines: {re.sub(r'[",\s]', '', line[1:]) for line in lines} - {''}
                equal_lists = ''.join(re.findall(r'"equal" : \[[^\]]*\]', after[command]))
                if all(f'"{moved}"' in equal_lists for moved in names(removed) - names(added)):
                    continue
            others.append((name, command, changes[:8]))
    print(f'{compared} outputs compared; {verdicts} name an earlier damaged line; {len(others)} differ otherwise')
    for name, command, changes in others:
        print(f'  {name}: {command}')
        for line in changes:
            print(f'      {line[:200]}')
    return 1 if others else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1], sys.argv[2]))
