"""Every diagnosis has a stable id, a label, and the lesson section that teaches it.

The ids are raised by helpers/checks (core.fail, the mistakes given to core.compare, core's
generic diagnoses); helpers/checks/diagnoses/*.toml documents them; tests/mistakes/*.py names,
for each wrong answer, the id its check must give (checked in tests/test_mistakes.py).
"""

import re
import runpy

import pytest

from helpers.checks import diagnoses

from notebook_files import LESSONS, ROOT, read

PREFIXES = ("generic", "rule", "qkv", "one_row", "scaling", "masks", "multi_head", "position",
            "block", "architectures", "cost", "llms", "induction")
ID = re.compile(r"""["']((?:""" + "|".join(PREFIXES) + r""")\.[a-z0-9]+(?:-[a-z0-9]+)*)["']""")
CHECKS = sorted((ROOT / "helpers" / "checks").glob("*.py"))
MISTAKES = sorted((ROOT / "tests" / "mistakes").glob("[0-9]*.py"))


def raised_ids() -> set[str]:
    """Every id written in the checks' source."""
    return {m.group(1) for path in CHECKS for m in ID.finditer(path.read_text(encoding="utf-8"))}


def named_ids() -> dict[str, list[str]]:
    """{id: the named wrong answers that get it}."""
    found: dict[str, list[str]] = {}
    for path in MISTAKES:
        for m in runpy.run_path(str(path))["MISTAKES"]:
            if "id" in m:
                found.setdefault(m["id"], []).append(f"{path.stem} {m['exercise']} {m['kind']}")
    return found


def headings(lesson: str) -> set[str]:
    found = set()
    for cell in read(ROOT / "notebooks" / f"{lesson}.ipynb").cells:
        if cell.cell_type == "markdown":
            found |= {line.lstrip("#").strip() for line in cell.source.splitlines()
                      if line.startswith("#")}
    return found


def test_every_id_a_check_raises_is_documented():
    missing = sorted(raised_ids() - set(diagnoses.all_diagnoses()))
    assert not missing, f"no label in helpers/checks/diagnoses/ for: {missing}"


def test_every_documented_id_is_raised_by_a_check():
    stale = sorted(set(diagnoses.all_diagnoses()) - raised_ids())
    assert not stale, f"documented, but no check raises: {stale}"


def test_every_id_is_reached_by_a_named_wrong_answer():
    unreached = sorted(set(diagnoses.all_diagnoses()) - set(named_ids()))
    assert not unreached, f"no wrong answer in tests/mistakes/ gets: {unreached}"


def test_every_wrong_answer_names_a_documented_id():
    unknown = {i: who for i, who in named_ids().items() if diagnoses.lookup(i) is None}
    assert not unknown, unknown


def test_labels_are_one_short_line():
    bad = {d.id: d.label for d in diagnoses.all_diagnoses().values()
           if not d.label.strip() or "\n" in d.label or len(d.label) > 110}
    assert not bad, bad


@pytest.mark.parametrize("lesson", [p.stem for p in LESSONS])
def test_every_section_is_a_heading_of_its_lesson(lesson):
    """A diagnosis's own section, in its lesson or ("NN_name: heading") another's, and every
    exercise's section are headings of the notebook they name."""
    known = headings(lesson)
    sections = {d.id: d.where()[1] for d in diagnoses.all_diagnoses().values()
                if d.section and d.where()[0] == lesson}
    sections |= {f"exercise {k}": v for k, v in diagnoses.exercise_sections(lesson).items()}
    wrong = {k: v for k, v in sections.items() if v not in known}
    assert not wrong, f"not a heading of notebooks/{lesson}.ipynb: {wrong}"


def test_every_section_names_a_lesson_there_is():
    lessons = {p.stem for p in LESSONS}
    where = {d.id: d.where() for d in diagnoses.all_diagnoses().values() if d.section}
    assert {i: w for i, w in where.items() if w[0] not in lessons} == {}


@pytest.mark.parametrize("lesson", [p.stem for p in LESSONS])
def test_every_exercise_has_a_section_to_reteach(lesson):
    solution = read(ROOT / "solutions" / f"{lesson}.ipynb")
    exercises = {c.id.removesuffix("-check") for c in solution.cells
                 if c.get("id", "").endswith("-check")}
    assert exercises == set(diagnoses.exercise_sections(lesson)), lesson


def test_a_diagnosis_is_taught_in_its_own_section_another_lessons_or_its_exercises():
    own = diagnoses.Diagnosis("x.y", "label", "04_masks", "1. The causal mask: row *i* keeps")
    assert own.where("04_masks", "ex3") == ("04_masks", "1. The causal mask: row *i* keeps")
    generic = diagnoses.Diagnosis("generic.z", "label", None, None)
    assert generic.where("02_one_row", "ex1") == (
        "02_one_row", diagnoses.exercise_sections("02_one_row")["ex1"])
    other = diagnoses.Diagnosis("x.y", "label", "02_one_row", "03_scaling: 2. What softmax")
    assert other.where("02_one_row", "ex4") == ("03_scaling", "2. What softmax")


def test_forgetting_the_scale_is_retaught_where_lesson_03_says_why():
    """Lesson 02 only states the scale (its formula table); lesson 03 measures why."""
    for i in ("one_row.scale-missing", "one_row.scaled-by-dk", "multi_head.forgot-scale",
              "architectures.cross-no-scale", "llms.gqa-no-scale", "position.rope-unscaled"):
        assert diagnoses.lookup(i).where() == (
            "03_scaling", "1. How large is a dot product of width $d_k$?"), i
    assert diagnoses.lookup("multi_head.scaled-by-d-model").where() == (
        "03_scaling", "6. A real bug: dividing by the model width")


def test_an_anchor_is_the_id_jupyterlab_and_nbconvert_give_the_heading():
    """The report links to nbconvert's HTML of the lessons (helpers.grade.pages): every section
    heading, rendered by nbconvert's Markdown renderer, has the id html_id gives it; anchor is
    JupyterLab's (the same text, not percent-encoded)."""
    from nbconvert.filters.markdown_mistune import markdown2html_mistune

    assert (diagnoses.anchor("1. The causal mask: row *i* keeps")
            == "1.-The-causal-mask:-row-i-keeps")
    assert diagnoses.html_id('2. Does causal mean "only the previous token"?') == (
        "2.-Does-causal-mean-%22only-the-previous-token%22?")
    sections = {d.where() for d in diagnoses.all_diagnoses().values() if d.section}
    sections |= {(p.stem, s) for p in LESSONS for s in diagnoses.exercise_sections(p.stem).values()}
    wrong = {}
    for _, heading in sorted(sections):
        rendered = re.search(r'<h2 id="([^"]*)"', markdown2html_mistune(f"## {heading}"))
        if rendered is None or rendered.group(1) != diagnoses.html_id(heading):
            wrong[heading] = rendered and rendered.group(1)
    assert not wrong, wrong
