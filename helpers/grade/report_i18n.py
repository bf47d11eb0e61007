"""The class report in another language: `python -m helpers.grade ... --report F --language zh`.

The report's English is its source: the template (templates/class_report.html.j2) marks each
sentence with Jinja2's i18n extension ({% trans %}, _(), ngettext()), and the strings the
Python side builds (status names, chart labels, notes beside a student's name) go through the
same `Translation`, marked `_()`, `ngettext()` or `N_()` in classreport.py and classview.py. The
translations are translations/<lang>/report.po, keyed by the English (no msgctxt); an entry
missing, empty or fuzzy there keeps its English. Diagnosis labels come from
translations/<lang>/diagnoses.po (helpers.checks.diagnoses.translated_label).

`missing(lang)` lists the report's English that report.po does not translate (a test fails
naming them), as `python -m helpers.grade.translate zh status` does for the notebooks.
"""

from __future__ import annotations

import ast
import functools
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
TRANSLATIONS = HERE.parents[1] / "translations"  # as helpers.grade.translate's
TEMPLATE = HERE / "templates" / "class_report.html.j2"
PYTHON_SOURCES = (HERE / "classreport.py", HERE / "classview.py", HERE / "pages.py")
HTML_LANG = {"en": "en", "zh": "zh-CN"}  # --language -> <html lang>
LANGUAGES = tuple(HTML_LANG)
MARKERS = ("_", "gettext", "ngettext", "N_")  # the Python side's calls whose English is a msgid


def N_(message: str) -> str:  # noqa: N802 (gettext's name for "marked, translated later")
    """Marks English for translation where it is defined; `Translation.gettext` translates it
    where it is shown."""
    return message


def po_path(lang: str) -> Path:
    return TRANSLATIONS / lang / "report.po"


def _nplurals(header: str) -> int:
    found = re.search(r"nplurals\s*=\s*(\d+)", header or "")
    return int(found.group(1)) if found else 2


@dataclass
class Translation:
    """gettext and ngettext for one language; English (or an untranslated entry): the English."""

    lang: str = "en"
    singular: dict[str, str] = field(default_factory=dict)
    plural: dict[str, list[str]] = field(default_factory=dict)  # msgid -> msgstr[0..]
    nplurals: int = 2

    def gettext(self, message: str) -> str:
        return self.singular.get(message) or message

    def ngettext(self, singular: str, plural: str, n: float) -> str:
        forms = self.plural.get(singular)
        if forms:
            # one form (Chinese: nplurals=1), else English's rule (n != 1)
            index = 0 if self.nplurals == 1 else int(n != 1)
            if index < len(forms) and forms[index]:
                return forms[index]
        return singular if n == 1 else plural

    @property
    def html_lang(self) -> str:
        return HTML_LANG.get(self.lang, self.lang)


@functools.cache
def translation(lang: str = "en") -> Translation:
    """The report's translation into `lang` (from translations/<lang>/report.po)."""
    if lang not in LANGUAGES:
        raise ValueError(f"no report language {lang!r}; expected one of {', '.join(LANGUAGES)}")
    path = po_path(lang)
    if lang == "en" or not path.exists():
        return Translation(lang)
    import polib

    po = polib.pofile(str(path))
    out = Translation(lang, nplurals=_nplurals(po.metadata.get("Plural-Forms", "")))
    for entry in po:
        if entry.obsolete or "fuzzy" in entry.flags:
            continue
        if entry.msgid_plural:
            forms = [entry.msgstr_plural[i] for i in sorted(entry.msgstr_plural)]
            if any(f.strip() for f in forms):
                out.plural[entry.msgid] = forms
        elif entry.msgstr.strip():
            out.singular[entry.msgid] = entry.msgstr
    return out


# --- which English the report has, and which of it a PO file lacks ---------------------------


def template_messages(source: str | None = None) -> list[tuple[str, str | None]]:
    """(msgid, msgid_plural or None) of every message the template marks, in order, once each
    (jinja2's own extractor: Environment.extract_translations)."""
    import jinja2

    if source is None:
        source = TEMPLATE.read_text(encoding="utf-8")
    env = jinja2.Environment(extensions=["jinja2.ext.i18n"], trim_blocks=True,
                             lstrip_blocks=True)
    found: dict[str, str | None] = {}
    for _, function, message in env.extract_translations(source):
        strings = [m for m in (message if isinstance(message, tuple) else (message,))
                   if isinstance(m, str)]
        if not strings:
            continue
        plural = strings[1] if function == "ngettext" and len(strings) > 1 else None
        found.setdefault(strings[0], plural)
    return list(found.items())


def python_messages(paths=PYTHON_SOURCES) -> list[tuple[str, str | None]]:
    """The same for the report's Python side: the literal English of every _(), gettext(),
    ngettext() and N_() call in classreport.py, classview.py and pages.py."""
    found: dict[str, str | None] = {}
    for path in paths:
        tree = ast.parse(Path(path).read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(
                node.func, "id", None)
            if name not in MARKERS:
                continue
            strings = [a.value for a in node.args if isinstance(a, ast.Constant)
                       and isinstance(a.value, str)]
            if strings:
                found.setdefault(strings[0], strings[1] if name == "ngettext"
                                 and len(strings) > 1 else None)
    return list(found.items())


def messages(source: str | None = None) -> list[tuple[str, str | None]]:
    """Every English message of the report: the template's (or those of `source`, a template's
    text), then the Python side's."""
    found = dict(template_messages(source))
    for msgid, plural in python_messages():
        found.setdefault(msgid, plural)
    return list(found.items())


def missing(lang: str, source: str | None = None) -> list[str]:
    """The report's English that translations/<lang>/report.po does not translate (absent,
    empty or fuzzy), each once, in the template's order. source: the template's text (default:
    the file's)."""
    tr = translation.__wrapped__(lang)  # the file as it is now, not a cached copy
    out = []
    for msgid, plural in messages(source):
        if plural is None and msgid not in tr.singular \
                or plural is not None and msgid not in tr.plural:
            out.append(msgid)
    return out


def obsolete(lang: str) -> list[str]:
    """Entries of report.po whose English the report no longer has."""
    tr = translation.__wrapped__(lang)
    known = {msgid for msgid, _ in messages()}
    return sorted((set(tr.singular) | set(tr.plural)) - known)


PLACEHOLDER = re.compile(r"%\((\w+)\)s")


def problems(lang: str) -> list[str]:
    """Translations in report.po that lose or invent a %(name)s placeholder, drop a number of
    the English (0.2) or break translations/<lang>/glossary.toml, one line each."""
    from helpers.grade.translate import NUMBER, glossary_problems

    tr = translation.__wrapped__(lang)
    entries = list(tr.singular.items())
    entries += [(k, form) for k, forms in tr.plural.items() for form in forms]
    found = []
    for english, translated in entries:
        where = f"{po_path(lang).name}: {english!r}"
        if sorted(set(PLACEHOLDER.findall(english))) != sorted(set(
                PLACEHOLDER.findall(translated))):
            found.append(f"{where}: placeholders {PLACEHOLDER.findall(english)} became "
                         f"{PLACEHOLDER.findall(translated)}")
        for number in NUMBER.findall(PLACEHOLDER.sub(" ", english)):
            if number not in translated:
                found.append(f"{where}: the number {number!r} is not in the translation")
        found += glossary_problems(lang, english, translated, where)
    return found


if __name__ == "__main__":  # python -m helpers.grade.report_i18n zh: what report.po lacks
    import sys

    lang = sys.argv[1] if len(sys.argv) > 1 else "zh"
    lacking = missing(lang)
    for msgid in lacking:
        print(f"{os.path.relpath(po_path(lang))}: missing: {msgid!r}")
    wrong = problems(lang)
    print("\n".join(wrong) if wrong else "", end="\n" if wrong else "")
    sys.exit(1 if lacking or wrong else 0)
