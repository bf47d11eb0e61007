"""The class report in Simplified Chinese: `python -m helpers.grade ... --report F --language zh`
(issue 23).

Built here from small grader JSON reports, without grading: the headings, labels and sentences
are Chinese (translations/zh/report.po), a diagnosis translated in diagnoses.po shows its
Chinese label (a temporary translation here, while diagnoses.po is still empty), the page is
<html lang="zh-CN"> and keeps the English page's ids and data-* attributes, which the tests and
the browser read. report.po translates every message of the template and of the Python side,
placeholders and numbers kept. tests/test_class_report.py renders the graded class in Chinese
too, and opens it in Chromium.
"""

from __future__ import annotations

import html as html_lib
import re

import markupsafe
import pytest

from helpers.checks import diagnoses
from helpers.grade import classreport, classview, report_i18n

CJK = re.compile(r"[\u4e00-\u9fff]")
ATTRIBUTES = re.compile(r'\s(id|data-[\w-]+)="([^"]*)"')


def _record(lesson: str, student: str, exercises: dict, path: str | None = None,
            modified: float = 1.0) -> dict:
    """One notebook of a grader JSON; exercises: {"ex1": (status, earned, points, diagnosis)}."""
    rows = [{"id": key, "title": f"exercise {key}", "points": points, "earned": earned,
             "status": status, "outcome": status, "message": "", "diagnosis": diagnosis}
            for key, (status, earned, points, diagnosis) in exercises.items()]
    return {"path": path or f"class/{student}/{lesson}.ipynb", "lesson": lesson,
            "student": student, "earned": sum(r["earned"] for r in rows),
            "possible": sum(r["points"] for r in rows), "unreadable": None,
            "modified": modified, "unmatched": None, "changed_course_files": [],
            "exercises": rows}


def _class() -> dict:
    """Three students on two lessons: a translated diagnosis, an unnamed one, a superseded
    submission, a stub left untouched, a student who handed nothing in, a file no lesson
    matches, a grader error."""
    wrong = ("failed", 0, 3, "masks.reversed-causal")
    notebooks = [
        _record("04_masks", "ana", {"ex1": wrong, "ex2": ("passed", 3, 3, None)},
                "class/ana/04_masks.ipynb", modified=1.0),
        _record("04_masks", "ana", {"ex1": ("passed", 3, 3, None), "ex2": ("passed", 3, 3, None)},
                "class/ana/04_masks-again.ipynb", modified=2.0),
        _record("04_masks", "ben", {"ex1": wrong, "ex2": ("not attempted", 0, 3, None)}),
        _record("04_masks", "chen", {"ex1": ("failed", 0, 3, None),
                                     "ex2": ("grader error", 0, 3, None)}),
        _record("02_one_row", "ben", {"ex4": ("failed", 0, 3, "one_row.scale-missing")}),
        {**_record("01_qkv", "chen", {}, "class/chen/notes.ipynb"), "lesson": None,
         "unmatched": "not graded: its name matches no lesson", "looks_like": None},
    ]
    return {"total": {"seed": 7}, "notebooks": notebooks}


ROSTER = {"ana": "Ana Lima", "ben": "Ben Okafor", "chen": "陈静", "dara": "Dara Kim"}
MASK_LABEL = "因果掩码反了：每个位置读的是未来，而不是过去"


def _render(language: str, data: dict | None = None) -> str:
    data = data or _class()
    return classreport.render(classview.build(data, ROSTER), data, language=language)


@pytest.fixture
def translated_diagnosis(monkeypatch):
    """diagnoses.po with one label of its own and one left untranslated (its English shows)."""
    real = diagnoses._translated_labels

    def labels(lang):
        if lang != "zh":
            return real(lang)
        found = {k: v for k, v in real(lang).items() if k != "one_row.scale-missing"}
        return {**found, "masks.reversed-causal": MASK_LABEL}

    monkeypatch.setattr(diagnoses, "_translated_labels", labels)


def _without_appendix(page: str) -> str:
    """The report but the lessons' sections it copies (English until the Chinese edition's
    lessons are there) and its stylesheet."""
    page = re.sub(r'<section id="reteach">.*?</section>', "", page, flags=re.S)
    return re.sub(r"<style>.*?</style>", "", page, flags=re.S)


def _text(page: str) -> str:
    page = re.sub(r"<svg.*?</svg>", " ", page, flags=re.S)
    return re.sub(r"\s+", " ", html_lib.unescape(re.sub(r"<[^>]+>", " ", page)))


def test_the_chinese_report_is_in_chinese(translated_diagnosis):
    zh = _render("zh")
    assert '<html lang="zh-CN">' in zh
    body = _without_appendix(zh)
    headings = re.findall(r"<(h[12]|title|th)\b([^>]*)>(.*?)</\1>", body, re.S)
    assert headings
    for tag, attributes, text in headings:
        text = re.sub(r"<[^>]+>", "", text)
        if tag == "th" and 'class="who"' in attributes:  # a student's row: id and name
            continue
        if tag == "th" and not CJK.search(text):  # the lessons' names, ex1, Σ, #
            assert re.fullmatch(r"\s*(\d\d_\w+|ex\d+|Σ|#)?\s*", text), text
            continue
        assert CJK.search(text), (tag, text)
    for english in ("What did the class get wrong?", "Students × exercises",
                    "Item statistics", "Sections to reteach", "hover a cell"):
        assert english not in zh
    for chinese in ("全班错在哪里？", "学生 × 练习", "题目统计", "未交、重复与未匹配",
                    "需要重新讲解的章节", "通过", "未作答", "批改程序出错", "人数", "难度",
                    "区分度"):
        assert chinese in body, chinese


def test_a_translated_diagnosis_shows_its_chinese_label_and_the_rest_keep_their_english(
        translated_diagnosis):
    zh = _render("zh")
    row = re.search(r'<tr data-diagnosis="masks.reversed-causal" data-count="2">(.*?)</tr>', zh,
                    re.S).group(1)
    assert MASK_LABEL in row and "<code>masks.reversed-causal</code>" in row
    assert "ana (Ana Lima; 较早的提交), ben (Ben Okafor)" in row  # the note in Chinese
    scale = diagnoses.lookup("one_row.scale-missing").label  # no translation: English
    assert diagnoses.translated_label("one_row.scale-missing", "zh") is None
    assert str(markupsafe.escape(scale)) in zh
    unnamed = re.search(r'<tr data-diagnosis="unnamed" data-count="1">(.*?)</tr>', zh,
                        re.S).group(1)
    assert "检查未能归类的错误答案" in unnamed
    chart = re.search(r'<figure class="chart"><svg.*?</svg>', zh, re.S).group(0)
    assert MASK_LABEL in chart and "人数" in chart  # the chart's labels too


def test_the_chinese_report_keeps_the_english_ones_ids_and_data_attributes(
        translated_diagnosis):
    en, zh = _render("en"), _render("zh")
    assert ATTRIBUTES.findall(_no_svg(en)) == ATTRIBUTES.findall(_no_svg(zh))
    assert 'data-status="not attempted"' in zh  # the JSON's status, not its translation
    cell = re.search(r'<td class="cell unattempted"[^>]*title="([^"]*)"', zh).group(1)
    assert cell == "04_masks ex2 未作答"


def test_no_english_sentence_of_the_report_is_left_in_the_chinese_one(translated_diagnosis):
    """Every stretch of English the report's messages have, 12 characters or more, is gone
    from the Chinese page's text (names, paths, exercise titles and untranslated diagnosis
    labels are the data's, not the report's)."""
    text = _text(_without_appendix(_render("zh")))
    left = []
    for msgid, plural in report_i18n.messages():
        for english in (msgid, plural or ""):
            for chunk in re.split(r"%\(\w+\)s", english):
                if len(chunk.strip(" ,.;:()")) >= 12 and chunk.strip() in text:
                    left.append(chunk.strip())
    assert left == []


def test_the_english_report_is_the_default_and_says_english():
    en = _render("en")
    assert '<html lang="en">' in en and "What did the class get wrong?" in en
    assert not CJK.search(_text(_without_appendix(en)).replace("陈静", ""))
    assert _strip_time(classreport.render(classview.build(_class(), ROSTER), _class())) == \
        _strip_time(en)
    with pytest.raises(ValueError, match="no report language"):
        _render("fr")


def _strip_time(page: str) -> str:
    return re.sub(r"Made [\d-]+ [\d:]+", "Made", _no_svg(page))


def _no_svg(page: str) -> str:
    """The page without its charts (whose ids and dates matplotlib draws anew each time)."""
    return re.sub(r"<svg.*?</svg>", "<svg/>", page, flags=re.S)


def test_plurals_go_through_ngettext():
    tr = report_i18n.translation("zh")
    assert classreport.points(1, tr) == "1 分" and classreport.points(2.5, tr) == "2.5 分"
    en = report_i18n.translation("en")
    assert classreport.points(1, en) == "1 point" and classreport.points(0.5, en) == "0.5 points"
    assert en.ngettext("%(num)s student", "%(num)s students", 2) == "%(num)s students"


# --- report.po is complete: what `python -m helpers.grade.report_i18n zh` checks --------------


def test_every_message_of_the_report_has_a_chinese_translation():
    missing = report_i18n.missing("zh")
    assert missing == [], ("translations/zh/report.po lacks (add them, in Chinese):\n"
                           + "\n".join(f"  msgid {m!r}" for m in missing))
    assert report_i18n.obsolete("zh") == []


def test_the_chinese_translations_keep_placeholders_numbers_and_the_glossary():
    assert report_i18n.problems("zh") == []


def test_missing_names_a_message_the_template_gains():
    source = report_i18n.TEMPLATE.read_text(encoding="utf-8") + (
        '{{ _("A heading nobody translated") }}'
        '{% trans trimmed n=1 %}Sentence with {{ n }}{% endtrans %}'
        '{{ ngettext("%(num)s new thing", "%(num)s new things", 2) }}')
    assert report_i18n.missing("zh", source) == [
        "A heading nobody translated", "Sentence with %(n)s", "%(num)s new thing"]


def test_the_python_sides_messages_are_found():
    found = dict(report_i18n.python_messages())
    assert found["not attempted"] is None and found["students"] is None
    assert found["%(num)s point"] == "%(num)s points"
    assert "earlier submission" in found and "a wrong answer the checks could not name" in found
