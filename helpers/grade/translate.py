"""The course in another language from the same source: `python -m helpers.grade.translate zh`.

The English notebooks stay the single source. translations/<lang>/ holds one gettext PO file per
notebook (translations/zh/notebooks/01_qkv.po, .../solutions/01_qkv.po, START.po), keyed by
each cell's English text: every markdown cell (msgctxt: the cell's id), every code comment
(msgctxt "<id>#comment") and every exercise hint (msgctxt "<id>#hint", the text after
`### BEGIN SOLUTION hint:`). Exercises are not translated separately: they are generated from the
translated solutions, with the stub's own line in the language (helpers.grade.exercises).

    python -m helpers.grade.translate zh status   # every missing, outdated or fuzzy entry
    python -m helpers.grade.translate zh update   # new English text into the PO files
    python -m helpers.grade.translate zh check    # translations that lost a number, a formula,
                                                  # code, a link or a glossary term
    python -m helpers.grade.translate zh build    # zh/notebooks, zh/solutions, zh/exercises,
                                                  # zh/START.ipynb (then execute them)

`update` merges as msgmerge does: an entry whose cell's English changed keeps its old
translation, marked fuzzy with the old English beside it (`#| msgid`), until a translator
revises it; an entry whose cell is gone becomes obsolete. `build` refuses while any entry is
missing or fuzzy, naming them (--draft keeps the English of those cells instead). Code, outputs
and every number stay the English notebook's: only prose, comments and hints change.
"""

from __future__ import annotations

import argparse
import copy
import functools
import io
import re
import sys
import tokenize
from dataclasses import dataclass
from pathlib import Path

import nbformat
import polib
import tomllib

from helpers.grade import exercises

ROOT = Path(__file__).resolve().parents[2]
TRANSLATIONS = ROOT / "translations"
LANGUAGES = {"zh": "zh_CN"}  # the course's code -> the PO files' Language
SOURCE_FOLDERS = ("notebooks", "solutions")
START = "START.ipynb"
LANGUAGE_LINE = 'core.set_language("{lang}")'  # added to a translated exercise's setup cell
# A comment that is code's, not prose: linters' and the exercise generator's markers.
CODE_COMMENT = re.compile(r"^(noqa|type:|fmt:|pragma|ruff:|#|YOUR CODE HERE)|^\s*$")
HINT = re.compile(r"^(?P<head>\s*### BEGIN SOLUTION\s*hint:\s*)(?P<hint>.*)$")


@dataclass(frozen=True)
class Message:
    context: str  # "<cell id>", "<cell id>#comment" or "<cell id>#hint"
    text: str  # the English
    kind: str  # "markdown", "comment", "hint"


def sources() -> list[Path]:
    """The English notebooks a translation covers, START.ipynb first."""
    found = [ROOT / START]
    for folder in SOURCE_FOLDERS:
        found += sorted((ROOT / folder).glob("[0-9]*.ipynb"))
    return found


def relative(path: Path) -> Path:
    return path.resolve().relative_to(ROOT)


def po_path(source: Path, lang: str) -> Path:
    """translations/<lang>/<folder>/<stem>.po (START: translations/<lang>/START.po)."""
    rel = relative(source)
    return TRANSLATIONS / lang / rel.with_suffix(".po")


def target_path(source: Path, lang: str) -> Path:
    """<lang>/<folder>/<name>.ipynb: the translated notebook."""
    return ROOT / lang / relative(source)


def _comments(source: str):
    """(row, col, text) of every comment token of a code cell, IPython magics skipped."""
    masked = "\n".join("" if line.lstrip().startswith(("%", "!")) else line
                       for line in source.splitlines())
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(masked + "\n").readline))
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return []
    return [(t.start[0], t.start[1], t.string) for t in tokens if t.type == tokenize.COMMENT]


def _comment_text(token: str) -> str | None:
    """The prose of a comment token ("# (T, d): the keys" -> "(T, d): the keys"), or None."""
    text = token.lstrip("#").strip()
    if CODE_COMMENT.match(text) or HINT.match(token) or token.startswith("### "):
        return None
    return text


def messages(nb) -> list[Message]:
    """Every translatable text of a notebook, in order, each once per cell."""
    found: list[Message] = []
    for cell in nb.cells:
        cid = cell.get("id")
        if cell.cell_type == "markdown" and cell.source.strip():
            found.append(Message(cid, cell.source, "markdown"))
        elif cell.cell_type == "code":
            seen = set()
            for line in cell.source.splitlines():
                hint = HINT.match(line)
                if hint and hint["hint"].strip() and hint["hint"] not in seen:
                    seen.add(hint["hint"])
                    found.append(Message(f"{cid}#hint", hint["hint"].strip(), "hint"))
            for _, _, token in _comments(cell.source):
                text = _comment_text(token)
                if text and text not in seen:
                    seen.add(text)
                    found.append(Message(f"{cid}#comment", text, "comment"))
    return found


def load(path: Path) -> polib.POFile:
    if path.exists():
        return polib.pofile(str(path), wrapwidth=0)
    po = polib.POFile(wrapwidth=0)
    return po


def _metadata(lang: str) -> dict:
    return {"Project-Id-Version": "attention-course", "Language": LANGUAGES[lang],
            "MIME-Version": "1.0", "Content-Type": "text/plain; charset=UTF-8",
            "Content-Transfer-Encoding": "8bit"}


def update(lang: str, paths=None) -> list[str]:
    """Merge the English texts into the PO files; returns what changed, one line per file."""
    report = []
    for source in paths or [*sources(), DIAGNOSES]:
        path = _po_of(source, lang)
        old = load(path)
        by_key = {(e.msgctxt, e.msgid): e for e in old if not e.obsolete}
        by_context = {}
        for e in old:
            if not e.obsolete:
                by_context.setdefault(e.msgctxt, []).append(e)
        new = polib.POFile(wrapwidth=0)
        new.metadata = {**_metadata(lang), **old.metadata}
        added = changed = 0
        used = set()
        for m in _messages_of(source):
            entry = by_key.get((m.context, m.text))
            if entry is None:
                before = [e for e in by_context.get(m.context, []) if id(e) not in used]
                entry = polib.POEntry(msgctxt=m.context, msgid=m.text, msgstr="")
                if before and (m.kind == "markdown" or len(before) == 1):
                    prior = before[0]
                    entry.msgstr = prior.msgstr
                    entry.previous_msgid = prior.msgid
                    entry.flags = ["fuzzy"]
                    used.add(id(prior))
                    changed += 1
                else:
                    added += 1
            else:
                used.add(id(entry))
            entry.comment = m.kind
            entry.occurrences = [(_name_of(source), m.context.split("#")[0])]
            new.append(entry)
        gone = 0
        for e in old:
            if id(e) not in used and not e.obsolete and e.msgstr:
                e.obsolete = True
                new.append(e)
                gone += 1
        path.parent.mkdir(parents=True, exist_ok=True)
        new.save(str(path))
        if added or changed or gone:
            report.append(f"{relative(path)}: {added} new, {changed} changed (fuzzy), "
                          f"{gone} obsolete")
    return report


def diagnosis_messages() -> list[Message]:
    """Every diagnosis label (translations/<lang>/diagnoses.po, msgctxt: the id)."""
    from helpers.checks import diagnoses

    return [Message(d.id, d.label, "diagnosis label")
            for d in sorted(diagnoses.all_diagnoses().values(), key=lambda d: d.id)]


DIAGNOSES = "diagnoses"  # the pseudo-source of the labels: translations/<lang>/diagnoses.po


def _messages_of(source) -> list[Message]:
    if source == DIAGNOSES:
        return diagnosis_messages()
    return messages(nbformat.read(source, as_version=4))


def _po_of(source, lang: str) -> Path:
    return TRANSLATIONS / lang / "diagnoses.po" if source == DIAGNOSES else po_path(source, lang)


def _name_of(source) -> str:
    return "helpers/checks/diagnoses" if source == DIAGNOSES else str(relative(source))


@dataclass(frozen=True)
class Stale:
    source: str  # "notebooks/03_scaling.ipynb"
    context: str
    state: str  # "missing", "untranslated", "fuzzy" (its English changed)
    english: str

    def line(self) -> str:
        first = self.english.strip().splitlines()[0] if self.english.strip() else ""
        cell, _, part = self.context.partition("#")
        what = (f"diagnosis {cell}" if self.source == _name_of(DIAGNOSES)
                else f"cell {cell}" + (f" ({part})" if part else ""))
        return f"{self.source}: {what}: {self.state}: {first[:90]}"


def status(lang: str, paths=None) -> list[Stale]:
    """Every English text whose translation is missing, empty or outdated."""
    found = []
    for source in paths or [*sources(), DIAGNOSES]:
        po = load(_po_of(source, lang))
        entries = {(e.msgctxt, e.msgid): e for e in po if not e.obsolete}
        for m in _messages_of(source):
            e = entries.get((m.context, m.text))
            state = ("missing" if e is None else "fuzzy" if "fuzzy" in e.flags
                     else "untranslated" if not e.msgstr.strip() else None)
            if state:
                found.append(Stale(_name_of(source), m.context, state, m.text))
    return found


# What a translation keeps exactly as the English has it.
CODE_SPAN = re.compile(r"`[^`\n]+`")
MATH = re.compile(r"\$\$.+?\$\$|\$[^$]+\$", re.S)  # a formula may wrap onto the next line
LINK_TARGET = re.compile(r"\]\(([^)\s]+)\)")
NUMBER = re.compile(r"(?<![\w.,])[−-]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?![\w])")
TAGS = re.compile(r"</?(details|summary)>")


def _kept(english: str) -> list[tuple[str, str]]:
    """(what, text) of everything the translation must contain unchanged."""
    kept = [("code", m) for m in CODE_SPAN.findall(english)]
    kept += [("formula", m) for m in MATH.findall(english)]
    kept += [("link", m) for m in LINK_TARGET.findall(english)]
    rest = MATH.sub(" ", CODE_SPAN.sub(" ", LINK_TARGET.sub(" ", english)))
    kept += [("number", m.replace("−", "-")) for m in NUMBER.findall(rest)]
    return kept


def _headings(text: str) -> list[str]:
    return [line.split(" ")[0] for line in text.splitlines() if re.match(r"^#{1,6} ", line)]


@functools.cache
def glossary(lang: str) -> list[dict]:
    path = TRANSLATIONS / lang / "glossary.toml"
    return tomllib.loads(path.read_text(encoding="utf-8"))["term"] if path.exists() else []


def problems(lang: str, paths=None) -> list[str]:
    """Every translated entry that drops or changes what must stay (code spans, formulas, link
    targets, numbers, headings, <details> tags) or breaks the glossary, one line each."""
    found = []
    files = [_po_of(p, lang) for p in (paths or [*sources(), DIAGNOSES])]
    for path in files:
        if not path.exists():
            continue
        for e in load(path):
            if e.obsolete or not e.msgstr.strip() or "fuzzy" in e.flags:
                continue
            where = f"{path.relative_to(ROOT)}: {e.msgctxt}"
            zh = " ".join(e.msgstr.replace("−", "-").split())  # line breaks are free
            for what, text in _kept(e.msgid):
                text = " ".join(text.replace("−", "-").split())
                if what == "link" and text.startswith(f"{lang}/"):
                    continue  # a link into this edition: its translation links back instead
                if text not in zh:
                    found.append(f"{where}: the {what} {text!r} is not in the translation")
            if _headings(e.msgid) != _headings(e.msgstr):
                found.append(f"{where}: headings {_headings(e.msgid)} became "
                             f"{_headings(e.msgstr)}")
            if TAGS.findall(e.msgid) != TAGS.findall(e.msgstr):
                found.append(f"{where}: the <details>/<summary> tags differ")
            found += glossary_problems(lang, MATH.sub(" ", CODE_SPAN.sub(" ", e.msgid)),
                                       e.msgstr, where)
    return found


def glossary_problems(lang: str, english: str, translated: str, where: str) -> list[str]:
    """Where `translated` breaks the glossary: a term the English has and the translation lacks,
    or a rendering the glossary avoids."""
    found = []
    for term in glossary(lang):
        if re.search(term["en"], english, re.I) and term["zh"] not in translated:
            found.append(f"{where}: {term['en']!r} is in the English, so the glossary wants "
                         f"{term['zh']!r}")
        found += [f"{where}: {avoided!r}: the glossary says {term['zh']!r}"
                  for avoided in term.get("avoid", ()) if avoided in translated]
    return found


def translator(po: polib.POFile, draft: bool):
    """lookup(context, english) -> the translation; the English itself in a draft."""
    entries = {(e.msgctxt, e.msgid): e for e in po if not e.obsolete}

    def lookup(context: str, text: str) -> str:
        e = entries.get((context, text))
        if e is None or "fuzzy" in e.flags or not e.msgstr.strip():
            if draft:
                return text
            raise KeyError(f"no translation for {context}: {text[:60]!r}")
        return e.msgstr

    return lookup


def _translate_code(source: str, cid: str, lookup) -> str:
    lines = source.splitlines()
    for row, col, token in reversed(_comments(source)):
        text = _comment_text(token)
        if not text:
            continue
        hashes = token[: len(token) - len(token.lstrip("#"))]
        lines[row - 1] = lines[row - 1][:col] + f"{hashes} {lookup(f'{cid}#comment', text)}"
    out = []
    for line in lines:
        hint = HINT.match(line)
        if hint and hint["hint"].strip():
            line = hint["head"] + lookup(f"{cid}#hint", hint["hint"].strip())
        out.append(line)
    return "\n".join(out)


def translate_notebook(nb, po: polib.POFile, lang: str, *, draft: bool = False):
    """A copy of nb with its prose, comments and hints in `lang`; code and outputs unchanged."""
    lookup = translator(po, draft)
    nb = copy.deepcopy(nb)
    for cell in nb.cells:
        cid = cell.get("id")
        if cell.cell_type == "markdown" and cell.source.strip():
            cell.source = lookup(cid, cell.source)
        elif cell.cell_type == "code":
            cell.source = _translate_code(cell.source, cid, lookup)
    course = dict(nb.metadata.get(exercises.COURSE_METADATA) or {})
    course["language"] = lang
    nb.metadata[exercises.COURSE_METADATA] = course
    return nb


def with_language_line(nb, lang: str):
    """A solution or exercise whose checks speak `lang`: one line in its setup cell."""
    setup = next((c for c in nb.cells if c.get("id") == "setup"), None)
    if setup is None:
        raise ValueError("a solution notebook needs a cell with id 'setup'")
    line = LANGUAGE_LINE.format(lang=lang)
    if line not in setup.source:
        setup.source = (setup.source.rstrip() + "\n\nfrom helpers.checks import core\n\n"
                        + line)
    return nb


def build(lang: str, *, draft: bool = False, paths=None) -> list[Path]:
    """Write <lang>/START.ipynb, <lang>/notebooks, <lang>/solutions and <lang>/exercises.
    A written notebook has the English one's outputs: execute it afterwards. A lesson or
    solution whose cells are unchanged is left as it is, executed."""
    if not draft:
        stale = status(lang, paths or sources())
        if stale:
            raise SystemExit("translations not up to date (python -m helpers.grade.translate "
                             f"{lang} status lists them):\n" +
                             "\n".join(s.line() for s in stale[:40]) +
                             (f"\n... and {len(stale) - 40} more" if len(stale) > 40 else ""))
    written = []
    for source in paths or sources():
        nb = nbformat.read(source, as_version=4)
        out = translate_notebook(nb, load(po_path(source, lang)), lang, draft=draft)
        if relative(source).parts[0] == "solutions":
            out = with_language_line(out, lang)
            lesson = source.stem
            exercise = exercises.make_exercise(out, lesson=lesson)
            target = ROOT / lang / "exercises" / source.name
            target.parent.mkdir(parents=True, exist_ok=True)
            nbformat.write(exercise, target)
            written.append(target)
        target = target_path(source, lang)
        if _same_cells(target, out):
            continue  # unchanged: keep the notebook as it was executed
        target.parent.mkdir(parents=True, exist_ok=True)
        nbformat.write(out, target)
        written.append(target)
    return written


def _same_cells(path: Path, nb) -> bool:
    """path is a notebook with nb's cells (type, id, source): rewriting it would only drop
    its executed outputs."""
    if not path.exists():
        return False
    old = nbformat.read(path, as_version=4)

    def cells(n):
        return [(c.cell_type, c.get("id"), c.source) for c in n.cells]

    return cells(old) == cells(nb) and old.metadata.get(exercises.COURSE_METADATA) == \
        nb.metadata.get(exercises.COURSE_METADATA)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("lang", choices=sorted(LANGUAGES))
    parser.add_argument("action", choices=("build", "status", "update", "check"))
    parser.add_argument("--draft", action="store_true",
                        help="build: keep the English of cells not yet translated")
    parser.add_argument("notebooks", nargs="*", type=Path,
                        help="only these English notebooks, or `diagnoses` for the checks' "
                             "labels (default: all)")
    args = parser.parse_intermixed_args(argv)
    paths = [DIAGNOSES if str(p) == DIAGNOSES else p.resolve() for p in args.notebooks] or None
    if args.action == "update":
        for line in update(args.lang, paths) or ["nothing changed"]:
            print(line)
        return 0
    if args.action == "check":
        found = problems(args.lang, paths)
        for line in found:
            print(line)
        print(f"{len(found)} problems", file=sys.stderr)
        return 1 if found else 0
    if args.action == "status":
        stale = status(args.lang, paths)
        for s in stale:
            print(s.line())
        counts = {}
        for s in stale:
            counts[s.state] = counts.get(s.state, 0) + 1
        print(f"{len(stale)} entries to translate" + (
            f" ({', '.join(f'{n} {k}' for k, n in sorted(counts.items()))})" if stale else ""),
            file=sys.stderr)
        return 1 if stale else 0
    for path in build(args.lang, draft=args.draft, paths=paths):
        print(f"written: {relative(path)}")
    print("now execute them: python -m helpers.grade.notebooks "
          f"{args.lang}/START.ipynb {args.lang}/notebooks/*.ipynb {args.lang}/solutions/*.ipynb",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
