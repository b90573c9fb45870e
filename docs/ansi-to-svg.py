#!/usr/bin/env python3
"""Draws a terminal screen captured with `tmux capture-pane -e -p` (text with SGR colour codes)
as an SVG: one monospace cell per character, colours and reverse video as the terminal showed
them. Used by docs/tui-screenshot.sh. Usage: ansi-to-svg.py COLUMNS ROWS < capture > out.svg"""
import html
import re
import sys

PALETTE = ["#1e1e1e", "#e06c75", "#98c379", "#e5c07b", "#61afef", "#c678dd", "#56b6c2", "#dcdfe4"]
BRIGHT = ["#5c6370", "#ff7b86", "#b5e890", "#ffd68a", "#7cc5ff", "#de9bff", "#7fe0ea", "#ffffff"]
FOREGROUND, BACKGROUND = "#dcdfe4", "#1e1e1e"
CELL_WIDTH, CELL_HEIGHT, FONT_SIZE, PADDING = 8.4, 17, 14, 10


def cells(line):
    """The line's characters, each with its foreground, background, bold and dim."""
    style = {"fg": None, "bg": None, "bold": False, "dim": False, "reverse": False}
    result = []
    for part in re.split(r"(\x1b\[[0-9;]*m)", line):
        if part.startswith("\x1b["):
            codes = [int(code) if code else 0 for code in part[2:-1].split(";")]
            index = 0
            while index < len(codes):
                code = codes[index]
                if code == 0:
                    style = {"fg": None, "bg": None, "bold": False, "dim": False, "reverse": False}
                elif code == 1:
                    style["bold"] = True
                elif code == 2:
                    style["dim"] = True
                elif code == 22:
                    style["bold"] = style["dim"] = False
                elif code == 7:
                    style["reverse"] = True
                elif code == 27:
                    style["reverse"] = False
                elif 30 <= code <= 37:
                    style["fg"] = PALETTE[code - 30]
                elif 90 <= code <= 97:
                    style["fg"] = BRIGHT[code - 90]
                elif code == 39:
                    style["fg"] = None
                elif 40 <= code <= 47:
                    style["bg"] = PALETTE[code - 40]
                elif code == 49:
                    style["bg"] = None
                elif code in (38, 48) and index + 2 < len(codes) and codes[index + 1] == 5:
                    value = codes[index + 2]
                    colour = (PALETTE + BRIGHT)[value] if value < 16 else FOREGROUND
                    style["fg" if code == 38 else "bg"] = colour
                    index += 2
                index += 1
            continue
        for character in part:
            fg, bg = style["fg"] or FOREGROUND, style["bg"] or BACKGROUND
            if style["reverse"]:
                fg, bg = bg, fg
            result.append((character, fg, bg, style["bold"], style["dim"]))
    return result


def main():
    columns, rows = int(sys.argv[1]), int(sys.argv[2])
    lines = sys.stdin.read().split("\n")[:rows]
    width, height = columns * CELL_WIDTH + 2 * PADDING, rows * CELL_HEIGHT + 2 * PADDING
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" viewBox="0 0 {width:.0f} {height:.0f}">',
        f'<rect width="100%" height="100%" rx="6" fill="{BACKGROUND}"/>',
        f'<g font-family="DejaVu Sans Mono, Menlo, Consolas, monospace" font-size="{FONT_SIZE}" xml:space="preserve" style="white-space: pre">',
    ]
    for row, line in enumerate(lines):
        y = PADDING + row * CELL_HEIGHT
        runs = []
        for column, cell in enumerate(cells(line)[:columns]):
            if runs and runs[-1][2:] == list(cell[1:]):
                runs[-1][1] += cell[0]
            else:
                runs.append([column, cell[0], *cell[1:]])
        for column, text, fg, bg, bold, dim in runs:
            x = PADDING + column * CELL_WIDTH
            if bg != BACKGROUND:
                out.append(f'<rect x="{x:.1f}" y="{y}" width="{len(text) * CELL_WIDTH:.1f}" height="{CELL_HEIGHT}" fill="{bg}"/>')
            if text.strip():
                weight = ' font-weight="bold"' if bold else ""
                opacity = ' fill-opacity="0.6"' if dim else ""
                out.append(
                    f'<text xml:space="preserve" x="{x:.1f}" y="{y + CELL_HEIGHT - 4}" fill="{fg}"{weight}{opacity} textLength="{len(text) * CELL_WIDTH:.1f}" lengthAdjust="spacingAndGlyphs">{html.escape(text)}</text>'
                )
    out += ["</g>", "</svg>"]
    sys.stdout.write("\n".join(out) + "\n")


main()
