"""The class report: one self-contained HTML page built from the grader's JSON.

    python -m helpers.grade CLASS --roster roster.csv --report class.html

Rendered with Jinja2 from templates/class_report.html.j2; the charts are matplotlib figures
inlined as SVG (plain matplotlib: importing seaborn alone would cost the report a third of
its time), so the page needs no network and opens from disk. What it shows comes from
helpers.grade.classview.

Each misconception links to the lesson section that teaches it: by default to that section's
copy in the report's appendix (helpers.grade.pages.render_section), so the link works wherever
the file is saved; with lesson_url, to lesson_url + "NN_name.html#id" of the pages
`python -m helpers.grade.pages` writes for the teacher to host.

With language="zh" (`--language zh`) the report is in Simplified Chinese: the template's
sentences, the status names and chart labels here, and the diagnoses' labels where
translations/zh/diagnoses.po has them (helpers.grade.report_i18n says how).
"""

from __future__ import annotations

import datetime as dt
import io
import os

import jinja2

from helpers.checks import diagnoses
from helpers.grade import pages
from helpers.grade.classview import ClassView, Misconception, plural
from helpers.grade.report_i18n import N_, Translation, translation

TEMPLATES = os.path.join(os.path.dirname(__file__), "templates")
STATUS_CLASS = {
    "passed": "passed", "failed": "failed", "not attempted": "unattempted",
    "error": "error", "timeout": "error", "tampered": "tampered", "unreadable": "error",
    "not submitted": "missing", "grader error": "regrade",
}
STATUS_NAMES = {  # the JSON's statuses as the report shows them
    "passed": N_("passed"), "failed": N_("failed"), "not attempted": N_("not attempted"),
    "error": N_("error"), "timeout": N_("timeout"), "tampered": N_("tampered"),
    "unreadable": N_("unreadable"), "not submitted": N_("not submitted"),
    "grader error": N_("grader error"),
}
RULE_NAMES = {"best": N_("best"), "latest": N_("latest")}  # "the best notebook counts"
MAX_CHART_ROWS = 15
LABEL_FONT = 7  # points, the item chart's labels


def _environment(tr: Translation | None = None) -> jinja2.Environment:
    tr = tr or translation("en")
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATES),
                             autoescape=jinja2.select_autoescape(["html", "j2"]),
                             trim_blocks=True, lstrip_blocks=True,
                             undefined=jinja2.StrictUndefined,
                             extensions=["jinja2.ext.i18n"])
    env.install_gettext_callables(tr.gettext, tr.ngettext, newstyle=True)
    env.filters["num"] = lambda x: f"{x:g}" if isinstance(x, (int, float)) else x
    env.filters["pct"] = lambda x: "–" if x is None else f"{100 * x:.0f}%"
    env.filters["r"] = lambda x: "–" if x is None else f"{x:+.2f}"
    env.filters["plural"] = plural
    env.filters["plain"] = diagnoses.plain
    env.filters["status"] = lambda status: status_name(status, tr)
    env.globals.update(points=lambda x: points(x, tr), label=lambda m: label(m, tr),
                       rules=RULE_NAMES, translate=tr.gettext)
    return env


def status_name(status: str, tr: Translation) -> str:
    """A JSON status ("not attempted") in the report's language; an unknown one as it is."""
    return tr.gettext(STATUS_NAMES[status]) if status in STATUS_NAMES else status


def points(x: float, tr: Translation) -> str:
    """'1 point', '2 points', '0.5 points' (in Chinese '2 分')."""
    return tr.ngettext("%(num)s point", "%(num)s points", x) % {"num": f"{x:g}"}


def label(m: Misconception, tr: Translation) -> str:
    """A misconception's label in the report's language: diagnoses.po's translation, else the
    English label."""
    if tr.lang != "en":
        translated = diagnoses.translated_label(m.id, tr.lang)
        if translated:
            return translated
        if m.id == diagnoses.UNNAMED:
            return tr.gettext(m.label)
    return m.label


def _cjk(texts) -> None:
    """The course's CJK font for matplotlib when any text needs it (我, say; DejaVu has √
    and ≠)."""
    if any(0x2E80 <= ord(c) <= 0x9FFF or 0xAC00 <= ord(c) <= 0xD7AF or 0xF900 <= ord(c) <= 0xFFEF
           for c in "".join(texts)):
        import helpers.plots  # noqa: F401


def _svg(fig) -> str:
    import matplotlib.pyplot as plt

    buffer = io.StringIO()
    with plt.rc_context({"svg.fonttype": "none"}):  # text stays text: small, fast, selectable
        fig.savefig(buffer, format="svg", bbox_inches="tight")
    plt.close(fig)
    text = buffer.getvalue()
    return text[text.index("<svg"):]  # inline: no XML prolog


def misconception_chart(view: ClassView, tr: Translation | None = None) -> str:
    """The misconceptions ranked by how many students made them (horizontal bars)."""
    import matplotlib.pyplot as plt

    tr = tr or translation("en")
    ranked = view.class_misconceptions()[:MAX_CHART_ROWS]
    if not ranked:
        return ""
    labels = [f"{label(m, tr)} ({', '.join(e.column for e in where)})" for m, where in ranked]
    xlabel = tr.gettext("students")
    _cjk([*labels, xlabel])
    counts = [m.count for m, _ in ranked]
    fig, ax = plt.subplots(figsize=(8.5, 0.38 * len(ranked) + 0.8))
    rows = range(len(ranked))
    ax.barh(rows, counts, color="#d9603b")
    ax.set_yticks(rows, labels, fontsize=8)
    ax.invert_yaxis()  # the most common first
    ax.set_xlabel(xlabel)
    ax.xaxis.get_major_locator().set_params(integer=True)
    _despine(ax)
    return _svg(fig)


def _despine(ax) -> None:
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)


def item_chart(view: ClassView, tr: Translation | None = None) -> str:
    """Difficulty (share passed) against discrimination, one point per exercise; exercises at
    the same place share a label, and no label covers another."""
    import matplotlib.pyplot as plt

    tr = tr or translation("en")
    stats = [s for s in view.item_stats() if s.difficulty is not None]
    if not stats:
        return ""
    xlabel = tr.gettext("difficulty: share of students who passed")
    ylabel = tr.gettext("discrimination (item-rest r; 0 where undefined)")
    _cjk([xlabel, ylabel])
    fig, ax = plt.subplots(figsize=(6, 3.6))
    x = [s.difficulty for s in stats]
    y = [s.discrimination if s.discrimination is not None else 0.0 for s in stats]
    for lesson in view.lessons:
        mine = [i for i, s in enumerate(stats) if s.exercise.lesson == lesson]
        ax.scatter([x[i] for i in mine], [y[i] for i in mine], s=30, label=lesson)
    ax.axhline(0.2, color="#999", lw=0.8, ls="--")
    ax.set_xlim(-0.05, 1.05)
    ax.set_ylim(min(-0.25, min(y) - 0.15), max(1.0, max(y) + 0.15))
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.legend(fontsize=7, frameon=False, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    _despine(ax)
    short = len(view.lessons) > 1
    names = [f"{s.exercise.lesson[:2]} {s.exercise.key}" if short else s.exercise.key
             for s in stats]
    for text, (xi, yi), offset in _place_labels(ax, names, list(zip(x, y, strict=True))):
        ax.annotate(text, (xi, yi), fontsize=LABEL_FONT, xytext=offset,
                    textcoords="offset points", va="bottom", ha="left",
                    arrowprops={"arrowstyle": "-", "color": "#999", "lw": 0.5}
                    if abs(offset[0]) > 8 or abs(offset[1]) > 8 else None)
    return _svg(fig)


def _place_labels(ax, names: list[str], points: list[tuple[float, float]]):
    """[(label, point, offset in points)]: points closer than a marker share one label
    ("ex1, ex3"); each label goes to the first place around its point where its box overlaps
    no label placed before and no marker."""
    fig = ax.figure
    fig.canvas.draw()  # the axes' final place, so data maps to points
    scale = 72 / fig.dpi
    where = [tuple(p * scale for p in ax.transData.transform(xy)) for xy in points]
    groups: list[list[int]] = []
    for i, (px, py) in enumerate(where):
        near = next((g for g in groups if abs(where[g[0]][0] - px) < 4
                     and abs(where[g[0]][1] - py) < 4), None)
        if near is None:
            groups.append([i])
        else:
            near.append(i)
    height, width = LABEL_FONT * 1.25, LABEL_FONT * 0.62
    placed: list[tuple[float, float, float, float]] = []
    markers = [(px - 3, py - 3, px + 3, py + 3) for px, py in where]
    out = []
    for group in sorted(groups, key=lambda g: (-where[g[0]][1], where[g[0]][0])):
        text = ", ".join(names[i] for i in group)
        w = width * len(text)
        px, py = where[group[0]]
        candidates = [(dx, dy) for step in range(8) for dx, dy in (
            (4, 3 + step * height), (4, -3 - height - step * height),
            (-4 - w, 3 + step * height), (-4 - w, -3 - height - step * height))]
        best = None
        for dx, dy in candidates:
            box = (px + dx, py + dy, px + dx + w, py + dy + height)
            clashes = sum(_overlap(box, other) for other in placed + markers)
            if best is None or clashes < best[0]:
                best = (clashes, (dx, dy), box)
            if clashes == 0:
                break
        placed.append(best[2])
        out.append((text, points[group[0]], best[1]))
    return out


def _overlap(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def reteach_href(lesson: str, section: str, lesson_url: str) -> str:
    """Where a misconception's link goes: the hosted page's heading with lesson_url, else
    the section in the report's appendix; '' when the lesson is unknown."""
    if not lesson:
        return ""
    if lesson_url:
        return f"{lesson_url}{lesson}.html" + (f"#{diagnoses.html_id(section)}" if section
                                               else "")
    return f"#{pages.link_id(lesson, section)}" if section else ""


def appendix(misconceptions: list[Misconception], lesson_url: str,
             tr: Translation | None = None) -> list[dict]:
    """The sections the report links to, each once, in the lessons' order: {lesson, heading,
    id, html}."""
    import html

    tr = tr or translation("en")
    wanted = sorted({(m.lesson, m.section) for m in misconceptions if m.lesson and m.section})
    out = []
    for lesson, heading in wanted:
        try:
            body = pages.render_section(lesson, heading, lesson_url,
                                        hidden_note=tr.gettext(pages.HIDDEN_ANSWER))
        except ValueError as e:  # a course whose lessons lack the heading: say so, in place
            body = ('<p class="none">' + tr.gettext("Not found in the lesson: %(error)s")
                    % {"error": html.escape(str(e), quote=False)} + "</p>")
        out.append({"lesson": lesson, "heading": heading, "id": pages.link_id(lesson, heading),
                    "html": body})
    return out


def render(view: ClassView, data: dict, lesson_url: str = "", language: str = "en") -> str:
    """The HTML page. lesson_url: where `python -m helpers.grade.pages` wrote the lessons'
    pages, hosted (a URL ending in /); by default the links go to the report's appendix.
    data["changes"], when there, is `classview.changes_json` of a --compare. language: "en"
    (the default) or "zh" (report_i18n.LANGUAGES)."""
    if lesson_url and not lesson_url.endswith("/"):
        lesson_url += "/"
    tr = translation(language)
    env = _environment(tr)
    template = env.get_template("class_report.html.j2")
    stats = {s.exercise.column: s for s in view.item_stats()}
    exercises = [{"exercise": e, "stats": stats[e.column],
                  "misconceptions": view.misconceptions(e)} for e in view.exercises]
    ranked = view.class_misconceptions()
    css = open(os.path.join(TEMPLATES, "class_report.css"), encoding="utf-8").read()
    active = [s for s in view.students if s not in view.missing]
    average = sum(view.total(s) for s in active) / len(active) if active else 0.0
    linked = [m for item in exercises for m in item["misconceptions"]] + [m for m, _ in ranked]
    return template.render(
        view=view, data=data, exercises=exercises, css=css, status_class=STATUS_CLASS,
        href=lambda m: reteach_href(m.lesson, m.section, lesson_url), ranked=ranked,
        misconception_svg=misconception_chart(view, tr), item_svg=item_chart(view, tr),
        made=dt.datetime.now().strftime("%Y-%m-%d %H:%M"), active=len(active), average=average,
        changes=data.get("changes"), sections=appendix(linked, lesson_url, tr),
        html_lang=tr.html_lang,
    )
