#!/usr/bin/env python3
"""Arranges the page argument-parser's generate-manual writes into man-pages(7) sections.

The generator puts the root command's whole discussion under DESCRIPTION and leaves EXIT STATUS
empty. This script moves each labelled paragraph of that discussion to a section of its own
(EXIT STATUS as a list of codes, RULES FILE, SHELL COMPLETION), puts the root's options under
OPTIONS and the subcommands (each with its arguments and options) under COMMANDS, and appends
the hand-written sections in man/sections.mdoc (ENVIRONMENT, FILES, EXAMPLES, SEE ALSO). Every
word of the discussion stays on the page, so the page still says what `--help` says.

Usage: arrange.py GENERATED SECTIONS > PAGE
"""
import re
import sys


def fail(message):
    sys.stderr.write("man/arrange.py: " + message + " — has generate-manual's output changed?\n")
    sys.exit(1)


def main(generated_path, sections_path):
    lines = open(generated_path, encoding="utf-8").read().split("\n")
    sections = open(sections_path, encoding="utf-8").read().rstrip("\n")

    try:
        description = lines.index(".Sh DESCRIPTION")
        exit_status = lines.index('.Sh "EXIT STATUS"')
    except ValueError:
        fail("no DESCRIPTION or EXIT STATUS section")
    paragraphs = []
    index = description + 1
    while index < len(lines) and not lines[index].startswith("."):
        paragraphs.append(lines[index])
        index += 1
    if index >= len(lines) or not lines[index].startswith(".Bl "):
        fail("the discussion is not followed by the options' list")
    options_list = index

    kept, codes, after_codes, labelled = [], None, [], {}
    for paragraph in paragraphs:
        if paragraph.startswith("EXIT STATUS: "):
            codes = paragraph[len("EXIT STATUS: "):]
        elif paragraph.startswith("RULES FILE "):
            labelled["RULES FILE"] = paragraph[len("RULES FILE "):]
        elif paragraph.startswith("SHELL COMPLETION: "):
            labelled["SHELL COMPLETION"] = paragraph[len("SHELL COMPLETION: "):]
        elif codes is not None and "RULES FILE" not in labelled:
            after_codes.append(paragraph)
        else:
            kept.append(paragraph)
    if codes is None:
        fail("the discussion has no EXIT STATUS paragraph")

    # The top-level list: the root's options, then one item per subcommand.
    first_command = next((i for i in range(options_list, exit_status) if lines[i].startswith(".It Em ")), None)
    if first_command is None:
        fail("no subcommand in the options' list")

    out = lines[:description + 1] + kept
    out += [".Sh OPTIONS"] + lines[options_list:first_command] + [".El"]
    out += [".Sh COMMANDS", "Each command's arguments and options follow it.", lines[options_list]]
    out += lines[first_command:exit_status]

    # After the generator's EXIT STATUS heading comes only its generic `.Ex -std` sentence,
    # which the list of codes replaces.
    if [line for line in lines[exit_status + 1:] if line not in ("", ".Ex -std")]:
        fail("the page goes on after EXIT STATUS")
    out.append('.Sh "EXIT STATUS"')
    out.append(".Bl -tag -width 4n")
    # "0 ok; 1 a check failed, …; 64 usage error (…); …": a code starts each item.
    for item in re.split(r"; (?=\d+ )", codes):
        code, _, meaning = item.partition(" ")
        out += [".It " + code, meaning]
    out.append(".El")
    for paragraph in after_codes:
        out += [".Pp", paragraph]
    for title, text in labelled.items():
        out += ['.Sh "%s"' % title, text]
    out.append(sections)
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.stderr.write(__doc__)
        sys.exit(64)
    main(sys.argv[1], sys.argv[2])
