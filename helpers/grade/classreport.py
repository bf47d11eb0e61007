"""The class report: one self-contained HTML page built from the grader's JSON.

    python -m helpers.grade CLASS --roster roster.csv --report class.html

Rendered with Jinja2 from templates/class_report.html.j2; the charts are matplotlib figures
inlined as SVG (plain matplotlib: importing seaborn alone would cost the report a third of
its time), so the page needs no network and opens from disk. What it shows comes from
helpers.grade.classview.
"""

from __future__ import annotations

import datetime as dt
import io
import os

import jinja2

from helpers.grade.classview import ClassView

TEMPLATES = os.path.join(os.path.dirname(__file__), "templates")
STATUS_CLASS = {
    "passed": "passed", "failed": "failed", "not attempted": "unattempted",
    "error": "error", "timeout": "error", "tampered": "tampered", "unreadable": "error",
    "not submitted": "missing", "grader error": "regrade",
}
MAX_CHART_ROWS = 15


def _environment() -> jinja2.Environment:
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATES),
                             autoescape=jinja2.select_autoescape(["html", "j2"]),
                             trim_blocks=True, lstrip_blocks=True,
                             undefined=jinja2.StrictUndefined)
    env.filters["num"] = lambda x: f"{x:g}" if isinstance(x, (int, float)) else x
    env.filters["pct"] = lambda x: "–" if x is None else f"{100 * x:.0f}%"
    env.filters["r"] = lambda x: "–" if x is None else f"{x:+.2f}"
    return env


def _svg(fig) -> str:
    import matplotlib.pyplot as plt

    buffer = io.StringIO()
    with plt.rc_context({"svg.fonttype": "none"}):  # text stays text: small, fast, selectable
        fig.savefig(buffer, format="svg", bbox_inches="tight")
    plt.close(fig)
    text = buffer.getvalue()
    return text[text.index("<svg"):]  # inline: no XML prolog


def misconception_chart(view: ClassView) -> str:
    """The misconceptions ranked by how many students made them (horizontal bars)."""
    import matplotlib.pyplot as plt

    ranked = view.class_misconceptions()[:MAX_CHART_ROWS]
    if not ranked:
        return ""
    labels = [f"{m.label} ({', '.join(e.column for e in where)})" for m, where in ranked]
    if any(0x2E80 <= ord(c) <= 0x9FFF or 0xAC00 <= ord(c) <= 0xD7AF or 0xF900 <= ord(c) <= 0xFFEF
           for c in "".join(labels)):  # 我, say: the course's CJK font (DejaVu has √ and ≠)
        import helpers.plots  # noqa: F401
    counts = [len(m.students) for m, _ in ranked]
    fig, ax = plt.subplots(figsize=(8.5, 0.38 * len(ranked) + 0.8))
    rows = range(len(ranked))
    ax.barh(rows, counts, color="#d9603b")
    ax.set_yticks(rows, labels, fontsize=8)
    ax.invert_yaxis()  # the most common first
    ax.set_xlabel("students")
    ax.xaxis.get_major_locator().set_params(integer=True)
    _despine(ax)
    return _svg(fig)


def _despine(ax) -> None:
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)


def item_chart(view: ClassView) -> str:
    """Difficulty (share passed) against discrimination, one point per exercise."""
    import matplotlib.pyplot as plt

    stats = [s for s in view.item_stats() if s.difficulty is not None]
    if not stats:
        return ""
    fig, ax = plt.subplots(figsize=(6, 3.6))
    x = [s.difficulty for s in stats]
    y = [s.discrimination if s.discrimination is not None else 0.0 for s in stats]
    for lesson in view.lessons:
        mine = [i for i, s in enumerate(stats) if s.exercise.lesson == lesson]
        ax.scatter([x[i] for i in mine], [y[i] for i in mine], s=30, label=lesson)
    for s, xi, yi in zip(stats, x, y, strict=True):
        ax.annotate(s.exercise.key, (xi, yi), fontsize=7, xytext=(3, 3),
                    textcoords="offset points")
    ax.axhline(0.2, color="#999", lw=0.8, ls="--")
    ax.set_xlim(-0.05, 1.05)
    ax.set_xlabel("difficulty: share of students who passed")
    ax.set_ylabel("discrimination (item-rest r)")
    ax.legend(fontsize=7, frameon=False)
    _despine(ax)
    return _svg(fig)


def render(view: ClassView, data: dict, lesson_url: str = "") -> str:
    """The HTML page. lesson_url prefixes the links to the lessons' sections (e.g. a
    JupyterLab URL ending in /lab/tree/); by default they are relative to the course."""
    env = _environment()
    template = env.get_template("class_report.html.j2")
    stats = {s.exercise.column: s for s in view.item_stats()}
    exercises = [{"exercise": e, "stats": stats[e.column],
                  "misconceptions": view.misconceptions(e)} for e in view.exercises]
    css = open(os.path.join(TEMPLATES, "class_report.css"), encoding="utf-8").read()
    active = [s for s in view.students if s not in view.missing]
    average = sum(view.total(s) for s in active) / len(active) if active else 0.0
    return template.render(
        view=view, data=data, exercises=exercises, css=css, status_class=STATUS_CLASS,
        lesson_url=lesson_url, ranked=view.class_misconceptions(),
        misconception_svg=misconception_chart(view), item_svg=item_chart(view),
        made=dt.datetime.now().strftime("%Y-%m-%d %H:%M"), active=len(active), average=average,
    )
