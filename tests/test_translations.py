"""The Chinese edition (issue 23): built from the English notebooks and translations/zh/*.po.

Every English text has a current translation (a changed English sentence fails here, naming
the lesson, the cell and the sentence); translations keep every number, formula, code span,
link and glossary term; zh/ is what `python -m helpers.grade.translate zh build` writes from
today's sources; its code and outputs are the English ones; its exercises' stubs and its
checks' failures speak Chinese.
"""

import re

import nbformat
import pytest

from helpers.checks import core, diagnoses
from helpers.grade import exercises, translate

from notebook_files import ROOT

LANG = "zh"
SOURCES = translate.sources()
BUILT = [(s, translate.target_path(s, LANG)) for s in SOURCES]


def _ids(sources):
    return [str(translate.relative(s)) for s in sources]


@pytest.mark.parametrize("source", [*SOURCES, translate.DIAGNOSES],
                         ids=[*_ids(SOURCES), "diagnoses"])
def test_every_english_text_has_a_current_translation(source):
    stale = translate.status(LANG, [source])
    assert not stale, (f"{len(stale)} translations missing or outdated (python -m "
                       "helpers.grade.translate zh update, then translate them):\n"
                       + "\n".join(s.line() for s in stale[:20]))


def test_a_changed_english_sentence_is_named(monkeypatch):
    """Change one sentence of a lesson: the translation of that cell is reported stale."""
    source = ROOT / "notebooks" / "01_qkv.ipynb"
    nb = nbformat.read(source, as_version=4)
    cell = next(c for c in nb.cells if c.cell_type == "markdown" and c.source.count(".") > 2)
    cell.source = cell.source.replace(".", ". A new sentence.", 1)
    real_read = nbformat.read
    monkeypatch.setattr(translate.nbformat, "read",
                        lambda path, as_version: nb if path == source else
                        real_read(path, as_version=as_version))
    stale = translate.status(LANG, [source])
    assert [(s.source, s.context) for s in stale] == [("notebooks/01_qkv.ipynb", cell.id)]
    line = stale[0].line()
    assert "notebooks/01_qkv.ipynb" in line and f"cell {cell.id}" in line
    assert cell.source.splitlines()[0][:40] in line


def test_translations_keep_numbers_formulas_code_links_and_the_glossary():
    found = translate.problems(LANG)
    assert not found, f"{len(found)} problems:\n" + "\n".join(found[:30])


def test_the_glossary_is_well_formed():
    terms = translate.glossary(LANG)
    assert len(terms) >= 15
    for term in terms:
        re.compile(term["en"])
        assert term["zh"] and all(a != term["zh"] for a in term.get("avoid", ()))


def _cells(nb):
    return [(c.cell_type, c.get("id"), c.source) for c in nb.cells]


@pytest.mark.parametrize("source, built", BUILT, ids=_ids(SOURCES))
def test_the_chinese_notebook_is_built_from_todays_sources(source, built):
    english = nbformat.read(source, as_version=4)
    po = translate.load(translate.po_path(source, LANG))
    want = translate.translate_notebook(english, po, LANG)
    if translate.relative(source).parts[0] == "solutions":
        want = translate.with_language_line(want, LANG)
        exercise = ROOT / LANG / "exercises" / source.name
        assert _cells(nbformat.read(exercise, as_version=4)) == _cells(
            exercises.make_exercise(want, lesson=source.stem)), (
            f"{exercise.relative_to(ROOT)} is stale: python -m helpers.grade.translate zh build")
    assert built.exists(), f"{built.relative_to(ROOT)} missing: run the translate build"
    assert _cells(nbformat.read(built, as_version=4)) == _cells(want), (
        f"{built.relative_to(ROOT)} is stale: python -m helpers.grade.translate zh build, "
        "then execute it")


def _without_comments(source: str) -> str:
    lines = source.splitlines()
    for row, col, _ in reversed(translate._comments(source)):
        lines[row - 1] = lines[row - 1][:col].rstrip()
    return "\n".join(line for line in lines if line.strip())


def _text_outputs(cell) -> list[str]:
    """The cell's text outputs, each stream's pieces joined (a kernel may split one print)."""
    texts, streams = [], {}
    for out in cell.get("outputs", []):
        if out.get("output_type") == "stream":
            streams[out.get("name")] = streams.get(out.get("name"), "") + out.get("text", "")
        elif "data" in out and "text/plain" in out["data"]:
            texts.append(out["data"]["text/plain"])
    return [*texts, *(streams[k] for k in sorted(streams))]


@pytest.mark.parametrize("source, built", [b for b in BUILT if b[0].name != "START.ipynb"],
                         ids=_ids([s for s in SOURCES if s.name != "START.ipynb"]))
def test_the_chinese_notebook_runs_the_english_code_and_prints_the_same(source, built):
    """Its code is the English code (comments aside; a solution's setup adds the language
    line), and its executed outputs are the English ones wherever nbval compares them."""
    english = nbformat.read(source, as_version=4)
    chinese = nbformat.read(built, as_version=4)
    line = translate.LANGUAGE_LINE.format(lang=LANG)
    for e, z in zip(english.cells, chinese.cells, strict=True):
        if e.cell_type != "code":
            continue
        code = re.sub(r"\n*from helpers.checks import core\n+" + re.escape(line), "",
                      _without_comments(z.source))  # the solution's language line
        assert code == _without_comments(e.source), f"cell {e.id}: the code differs"
        assert z.get("execution_count") is not None, f"cell {e.id} of {built.name} not executed"
        if "nbval-ignore-output" in e.metadata.get("tags", []):
            continue
        assert _text_outputs(z) == _text_outputs(e), f"cell {e.id}: the outputs differ"


def test_a_chinese_stub_is_not_attempted_in_chinese():
    nb = nbformat.read(ROOT / LANG / "exercises" / "02_one_row.ipynb", as_version=4)
    stub = next(c for c in nb.cells if c.id == "ex1-answer").source
    assert "尚未作答" in stub and "提示：" in stub and "# 在这里写你的代码" in stub
    namespace = {}
    exec(stub, namespace)  # noqa: S102 - the course's own stub
    from helpers.checks import one_row

    with pytest.raises(core.NotAttempted, match="尚未作答"):
        one_row.check_scaled_scores(namespace["scaled_scores"])
    assert exercises.metadata_language(nb) == LANG


def test_a_failing_check_shows_the_chinese_label_above_the_english_message():
    from helpers.checks import one_row

    label = diagnoses.translated_label("one_row.scale-missing", LANG)
    assert label, "one_row.scale-missing has no Chinese label"
    core.set_language(LANG)
    try:
        with pytest.raises(core.CheckFailed) as info:
            one_row.check_scaled_scores(lambda q, k: q @ k.T)
    finally:
        core.set_language("en")
    first, rest = str(info.value).split("\n", 1)
    assert first == f"诊断：{label}" and info.value.diagnosis == "one_row.scale-missing"
    assert "√d_k" in rest or "sqrt" in rest  # the English message follows


def test_the_language_is_refused_when_unknown():
    with pytest.raises(ValueError, match="language must be one of"):
        core.set_language("fr")
