"""What each diagnosis id means, and the lesson section that teaches it.

Every CheckFailed carries a stable id ("masks.reversed-causal", "generic.transposed"). The
files beside this one give each id a one-line label and the heading of the lesson section to
reteach, one TOML file per lesson (NN_name.toml) and generic.toml for the diagnoses any
exercise can get:

    lesson = "04_masks"

    [exercises]                     # the section that teaches each exercise
    ex1 = "3. The causal mask"

    [diagnoses."masks.reversed-causal"]
    label = "The causal mask is reversed: each position reads the future, not the past"
    section = "4. A mask the wrong way round"   # optional: else the exercise's section

    [diagnoses."one_row.scale-missing"]
    label = "Forgot the scale: scores not divided by √d_k"
    section = "03_scaling: 1. How large is a dot product of width $d_k$?"  # another lesson's

A section is the text of a Markdown heading in notebooks/NN_name.ipynb, of the file's lesson
or, written "NN_name: heading", of another lesson that teaches the mistake better. `where`
says which; `anchor` is the id JupyterLab gives that heading and `html_id` the one nbconvert's
HTML gives it (helpers.grade.pages renders the lessons so). tests/test_diagnoses.py proves that
every id a check can raise is here, that every id here is raised by at least one named wrong
answer, and that every section is a heading of its lesson.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

import tomllib

HERE = Path(__file__).resolve().parent
UNNAMED = "unnamed"  # the id of a failure nobody named: a test keeps it from ever being raised


OTHER_LESSON = re.compile(r"^(\d\d_[a-z0-9_]+): (.+)$")  # "03_scaling: 1. How large ..."


@dataclass(frozen=True)
class Diagnosis:
    id: str
    label: str
    lesson: str | None  # "04_masks": the file it is in; None for a generic diagnosis
    section: str | None  # a heading, "NN_name: heading" for another lesson's; None: the exercise's

    def where(self, lesson: str | None = None, exercise: str | None = None) -> tuple[str, str]:
        """(lesson, heading) to reteach: this diagnosis's own section, else the exercise's;
        ("", "") when unknown, (lesson, "") when only the lesson is."""
        if self.section:
            other = OTHER_LESSON.match(self.section)
            if other:
                return other.group(1), other.group(2)
        home = self.lesson or lesson
        if self.section and home:
            return home, self.section
        if home and exercise:
            section = exercise_sections(home).get(exercise)
            if section:
                return home, section
        return home or "", ""


def plain(heading: str) -> str:
    """A heading's text as rendered: no *, _ or ` markup, a link's text only."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading.strip())
    text = re.sub(r"(\*\*|\*|__|`)", "", text)
    return re.sub(r"(?<![A-Za-z0-9])_([^_]+)_(?![A-Za-z0-9])", r"\1", text)


def anchor(heading: str) -> str:
    """The id JupyterLab gives a Markdown heading: its plain text, spaces turned into '-'."""
    return "-".join(plain(heading).split(" "))


def html_id(heading: str) -> str:
    """The id nbconvert's HTML gives a Markdown heading: `anchor`, percent-encoded where a
    URL fragment may not hold the character (so a link's fragment is the id as written)."""
    return quote(anchor(heading), safe="?/:@!$&'()*+,;=")


@functools.cache
def _files() -> dict[str, dict]:
    return {path.stem: tomllib.loads(path.read_text(encoding="utf-8"))
            for path in sorted(HERE.glob("*.toml"))}


@functools.cache
def all_diagnoses() -> dict[str, Diagnosis]:
    found: dict[str, Diagnosis] = {}
    for stem, data in _files().items():
        lesson = data.get("lesson")
        for key, entry in data.get("diagnoses", {}).items():
            if key in found:
                raise ValueError(f"diagnosis {key} is in two files ({stem})")
            found[key] = Diagnosis(key, entry["label"], lesson, entry.get("section"))
    return found


@functools.cache
def exercise_sections(lesson: str) -> dict[str, str]:
    """{"ex1": heading, ...} for a lesson."""
    for data in _files().values():
        if data.get("lesson") == lesson:
            return dict(data.get("exercises", {}))
    return {}


def lookup(diagnosis_id: str) -> Diagnosis | None:
    return all_diagnoses().get(diagnosis_id)


TRANSLATIONS = HERE.parents[2] / "translations"  # translations/<lang>/diagnoses.po


@functools.cache
def _translated_labels(lang: str) -> dict[str, str]:
    """{id: label} of translations/<lang>/diagnoses.po, for the labels still current (an entry
    whose English label changed since is left out: the English then stands alone)."""
    import polib

    path = TRANSLATIONS / lang / "diagnoses.po"
    if not path.exists():
        return {}
    known = all_diagnoses()
    return {e.msgctxt: e.msgstr for e in polib.pofile(str(path))
            if not e.obsolete and "fuzzy" not in e.flags and e.msgstr.strip()
            and e.msgctxt in known and known[e.msgctxt].label == e.msgid}


def translated_label(diagnosis_id: str, lang: str) -> str | None:
    """The diagnosis's label in `lang`, or None when it has no current translation."""
    return _translated_labels(lang).get(diagnosis_id)

