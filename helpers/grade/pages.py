"""The lessons as static HTML, where a link to a heading opens its section.

    python -m helpers.grade.pages OUT [LESSON ...]   # OUT/NN_name.html per lesson, OUT/index.html

JupyterLab 4 opens a notebook from a URL at its top, whatever heading the URL names, so the
class report's reteach links go to HTML instead: to the sections the report carries in its own
appendix (`render_section`: one section, from its heading to the next heading of the same or a
higher level, self-contained: images inline, nothing loaded), or, with
`--report ... --lesson-url BASE`, to BASE + "NN_name.html#id" of the pages this command writes
with nbconvert's HTML exporter for the teacher to host. Both give a heading the id
helpers.checks.diagnoses.html_id says.
"""

from __future__ import annotations

import argparse
import functools
import html
import re
import sys
from pathlib import Path

import nbformat

from helpers.checks import diagnoses
from helpers.grade.report_i18n import N_

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"
HEADING = re.compile(r"^(#{1,6})\s")
FENCE = re.compile(r"^\s*(```|~~~)")
LESSON_LINK = re.compile(r"^(?:\.\./notebooks/|\./)?(\d\d_[a-z0-9_]+)\.ipynb(#.*)?$")
MAX_OUTPUT = 4000  # characters of one text output kept in a section
HIDDEN_ANSWER = N_("the prediction's answer (hidden in the lesson until the learner opens it)")


def lessons(folder: Path = NOTEBOOKS) -> list[str]:
    return sorted(path.stem for path in Path(folder).glob("[0-9][0-9]_*.ipynb"))


@functools.cache
def _read(path: Path):
    return nbformat.read(path, as_version=4)


def _notebook(lesson: str, folder: Path = NOTEBOOKS):
    path = Path(folder) / f"{lesson}.ipynb"
    if not path.exists():
        raise ValueError(f"no lesson {lesson!r}: expected one of {', '.join(lessons(folder))}")
    return _read(path)


def headings(nb) -> list[tuple[int, int, int, str]]:
    """(cell index, line index, level, text) of every Markdown heading, in order (a line
    starting with # inside a fenced code block is not one)."""
    found = []
    for index, cell in enumerate(nb.cells):
        if cell.cell_type != "markdown":
            continue
        fenced = False
        for number, line in enumerate(cell.source.splitlines()):
            if FENCE.match(line):
                fenced = not fenced
            elif not fenced and HEADING.match(line):
                level = len(line) - len(line.lstrip("#"))
                found.append((index, number, level, line.lstrip("#").strip()))
    return found


def section_cells(nb, heading: str) -> list:
    """The cells of the section under `heading`: from it to the next heading of the same or a
    higher level (a cell that starts or ends the section mid-way is cut there)."""
    marks = headings(nb)
    start = next((i for i, m in enumerate(marks) if m[3] == heading), None)
    if start is None:
        raise ValueError(f"no heading {heading!r} in the lesson; its headings: "
                         + "; ".join(m[3] for m in marks))
    cell, line, level, _ = marks[start]
    end = next((m for m in marks[start + 1:] if m[2] <= level), None)
    stop_cell, stop_line = (end[0], end[1]) if end else (len(nb.cells), 0)
    cells = []
    for index in range(cell, min(stop_cell + 1, len(nb.cells))):
        copy = nbformat.from_dict(dict(nb.cells[index]))
        if copy.cell_type == "markdown":
            lines = copy.source.splitlines()
            first = line if index == cell else 0
            last = stop_line if index == stop_cell else len(lines)
            copy.source = "\n".join(lines[first:last])
        elif index == stop_cell:
            continue
        if copy.cell_type != "markdown" or copy.source.strip():
            cells.append(copy)
    return cells


# --- one section, for the class report's appendix ------------------------------------------


def _markdown(source: str) -> str:
    from nbconvert.filters.markdown_mistune import IPythonRenderer, MarkdownWithMath

    # no ids or ¶ links: the section's wrapper has the one id a report links to
    return MarkdownWithMath(renderer=IPythonRenderer(escape=False, exclude_anchor_links=True)
                            ).render(source)


def _text(text, css: str) -> str:
    text = "".join(text) if isinstance(text, list) else str(text)
    if len(text) > MAX_OUTPUT:
        text = text[:MAX_OUTPUT] + "\n…"
    return f'<pre class="{css}">{html.escape(text)}</pre>'


def _output(output) -> str:
    if output.output_type == "stream":
        return _text(output.get("text", ""), f"output {output.get('name', 'stdout')}")
    if output.output_type == "error":
        return _text(f"{output.get('ename')}: {output.get('evalue')}", "output stderr")
    data = output.get("data", {})
    for mime in ("image/png", "image/jpeg"):
        if mime in data:
            encoded = "".join(data[mime].split())
            return f'<img class="output" alt="" src="data:{mime};base64,{encoded}">'
    if "image/svg+xml" in data:
        import base64

        svg = "".join(data["image/svg+xml"]).encode("utf-8")
        return (f'<img class="output" alt="" src="data:image/svg+xml;base64,'
                f'{base64.b64encode(svg).decode()}">')
    if "text/html" in data and "<script" not in "".join(data["text/html"]).lower():
        return f'<div class="output">{"".join(data["text/html"])}</div>'
    if "text/plain" in data:
        return _text(data["text/plain"], "output")
    return ""


def render_cells(cells, hidden_note: str = HIDDEN_ANSWER) -> str:
    """The cells as HTML; hidden_note: the summary of a cell the lesson hides (in the report's
    language)."""
    parts = []
    for cell in cells:
        if cell.cell_type == "markdown":
            body = _markdown(cell.source)
        elif cell.cell_type == "code":
            body = _text(cell.source, "source") + "".join(_output(o) for o in
                                                          cell.get("outputs", []))
        else:
            continue
        hidden = cell.metadata.get("jupyter", {})
        if hidden.get("source_hidden") or hidden.get("outputs_hidden"):
            note = html.escape(hidden_note, quote=False)
            body = f"<details><summary>{note}</summary>{body}</details>"
        parts.append(f'<div class="cell {cell.cell_type}">{body}</div>')
    return "\n".join(parts)


def _lesson_links(text: str, lesson_url: str) -> str:
    """Links between lessons' files work in the course, not in a report saved elsewhere: to
    the hosted pages with lesson_url, else plain text."""
    def fix(match):
        href, inner = html.unescape(match.group(1)), match.group(2)
        if re.match(r"^(https?:|mailto:|#)", href):
            return match.group(0)
        lesson = LESSON_LINK.match(href)
        if lesson and lesson_url:
            return (f'<a href="{html.escape(lesson_url + lesson.group(1) + ".html")}'
                    f'{html.escape(lesson.group(2) or "")}">{inner}</a>')
        return f'<span class="course-link" title="{html.escape(href)}">{inner}</span>'

    return re.sub(r'<a href="([^"]*)"[^>]*>(.*?)</a>', fix, text, flags=re.S)


@functools.cache
def render_section(lesson: str, heading: str, lesson_url: str = "",
                   folder: Path = NOTEBOOKS, hidden_note: str = HIDDEN_ANSWER) -> str:
    """The HTML of one section of a lesson (heading included), to put inside another page."""
    return _lesson_links(render_cells(section_cells(_notebook(lesson, folder), heading),
                                      hidden_note), lesson_url)


# --- whole lessons, for the teacher to host ------------------------------------------------


def write_pages(out: Path, which: list[str] | None = None, folder: Path = NOTEBOOKS
                ) -> list[Path]:
    """OUT/NN_name.html for each lesson (nbconvert's HTML, as JupyterLab shows it), and
    OUT/index.html linking them."""
    from nbconvert import HTMLExporter

    known = lessons(folder)
    which = list(which or known)
    unknown = [w for w in which if w not in known]
    if unknown:
        raise ValueError(f"no lesson {', '.join(unknown)}: expected one of {', '.join(known)}")
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    exporter = HTMLExporter(template_name="lab")
    written = []
    for lesson in which:
        body, _ = exporter.from_notebook_node(_notebook(lesson, folder))
        target = out / f"{lesson}.html"
        target.write_text(body, encoding="utf-8")
        written.append(target)
    items = "\n".join(f'<li><a href="{lesson}.html">{lesson}</a></li>' for lesson in known
                      if (out / f"{lesson}.html").exists())
    index = out / "index.html"
    index.write_text(f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
                     f"<title>The lessons</title></head><body><h1>The lessons</h1>"
                     f"<ul>\n{items}\n</ul></body></html>\n", encoding="utf-8")
    return [*written, index]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m helpers.grade.pages",
        description="Write the lessons as HTML pages (OUT/NN_name.html), whose heading "
        "anchors the class report links to with --lesson-url.")
    parser.add_argument("out", type=Path, metavar="OUT", help="folder to write the pages to")
    parser.add_argument("lessons", nargs="*", metavar="LESSON",
                        help="lessons to write (default: all), e.g. 04_masks")
    args = parser.parse_args(argv)
    try:
        written = write_pages(args.out, args.lessons)
    except (ValueError, OSError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(f"wrote {len(written) - 1} lesson page{'s' * (len(written) != 2)} and "
          f"{written[-1]}; host {args.out} and give its URL to --lesson-url")
    return 0


def link_id(lesson: str, heading: str) -> str:
    """The id of a section in a report's appendix."""
    return f"reteach-{lesson}-{diagnoses.html_id(heading)}"


if __name__ == "__main__":
    sys.exit(main())
