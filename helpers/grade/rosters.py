"""Rosters: who is in the class, under which id, and how a submission is matched to them.

A roster is a CSV with a header. Its id column is the student's id in the LMS, which the
reports and gradebooks use: the first of lms_login, login, identifier (GitHub Classroom's
export: `identifier,github_username,github_id,name`), id, student, username, email. A
github_username (or github) column and a name column are optional. A submission, named by its
folder, the file name or --student, is matched to a student by
- an id, or any other identifying value of the row (identifier, email, ...), or the GitHub
  username (case does not matter), or
- a repository name `<assignment>-<github username>` (GitHub Classroom's clones): the longest
  username it ends with, so `attention-course-a-ben` is a-ben's, not ben's.
Without a GitHub column the ids are taken for usernames (a roster of `id,name` with ids ana,
ben...). A row with no id but a GitHub username has the username as its id.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from helpers.grade.classview import NO_NAME

ID_COLUMNS = ("lms_login", "login", "identifier", "id", "student", "username", "email")
GITHUB_COLUMNS = ("github_username", "github", "github username")
NAME_COLUMNS = ("name", "full name", "fullname")
ALIAS_COLUMNS = ("identifier", "id", "student", "login", "lms_login", "username", "email")


@dataclass
class Roster(Mapping[str, str]):
    """The class: {id: name} as a mapping (what classview.build reads), each student's GitHub
    username, and how a submission's name maps to an id."""

    names: dict[str, str]  # id -> name ('' when the roster has none)
    github: dict[str, str]  # id -> GitHub username ('' when none)
    aliases: dict[str, str] = field(default_factory=dict)  # any identifying value -> id
    path: Path | None = None

    def __getitem__(self, student: str) -> str:
        return self.names[student]

    def __iter__(self) -> Iterator[str]:
        return iter(self.names)

    def __len__(self) -> int:
        return len(self.names)

    def identify(self, submitter: str) -> str | None:
        """The roster id of a submission named `submitter` (an id, a GitHub username, another
        value of the student's row, or a repository `<assignment>-<username>`), else None."""
        submitter = (submitter or "").strip()
        if not submitter:
            return None
        if submitter in self.names:
            return submitter
        folded = submitter.casefold()
        if folded in self.aliases:
            return self.aliases[folded]
        ends = [(len(user), student) for student, user in self._usernames().items()
                if folded.endswith("-" + user.casefold())]
        return max(ends)[1] if ends else None

    def _usernames(self) -> dict[str, str]:
        """id -> the name a repository ends with: the GitHub username, else (no GitHub column)
        the id."""
        if any(self.github.values()):
            return {s: u for s, u in self.github.items() if u}
        return {s: s for s in self.names}

    def assign(self, data: dict) -> list[str]:
        """Make each notebook record's student of a grading JSON the roster id it maps to,
        keeping what it was handed in as under "submitted_as". Returns the submitters that
        map to no one (they stay as they are)."""
        unknown = []
        for nb in data.get("notebooks", []):
            submitter = nb.get("submitted_as") or nb.get("student") or ""
            nb["submitted_as"] = submitter
            student = self.identify(submitter)
            nb["student"] = student if student is not None else submitter
            if student is None and (submitter or NO_NAME) not in unknown:
                unknown.append(submitter or NO_NAME)
        return sorted(unknown)


def _column(columns: dict[str, str], wanted) -> str | None:
    return next((columns[c] for c in wanted if c in columns), None)


def read_roster(path: Path) -> Roster:
    """The roster in a CSV file (comma, semicolon or tab separated); ValueError saying which
    columns were expected and which were found when it is not one."""
    try:
        text = Path(path).read_text(encoding="utf-8-sig")
    except OSError as e:
        raise ValueError(f"{path}: cannot read the roster ({e.strerror})") from None
    except UnicodeDecodeError:
        raise ValueError(f"{path}: not a roster (expected a CSV file in UTF-8)") from None
    header = text.splitlines()[0] if text.strip() else ""
    delimiter = next((d for d in ",;\t" if d in header), ",")
    reader = csv.DictReader(io.StringIO(text), delimiter=delimiter)
    rows = list(reader)
    expected = ("expected a header with an id column (one of: " + ", ".join(ID_COLUMNS)
                + "), and optionally github_username and name, as GitHub Classroom's export "
                "`identifier,github_username,github_id,name` or `id,name`")
    if not rows:
        raise ValueError(f"{path}: the roster is empty; {expected}, and one row per student")
    columns = {c.strip().lower(): c for c in reader.fieldnames or () if c}
    id_column = _column(columns, ID_COLUMNS)
    github_column = _column(columns, GITHUB_COLUMNS)
    if id_column is None and github_column is None:
        raise ValueError(f"{path}: no student id column; {expected} (found: "
                         f"{', '.join(columns) or 'no header'})")
    name_column = _column(columns, NAME_COLUMNS)
    alias_columns = [columns[c] for c in ALIAS_COLUMNS if c in columns]

    def value(row, column) -> str:
        return (row.get(column) or "").strip() if column else ""

    names, github, aliases = {}, {}, {}
    for number, row in enumerate(rows, start=2):
        user = value(row, github_column)
        student = value(row, id_column) or user
        if not student:
            continue
        if student in names:
            raise ValueError(f"{path}: line {number}: {student} is on the roster twice; each "
                             "student once, please")
        names[student], github[student] = value(row, name_column), user
        for alias in {user, *(value(row, c) for c in alias_columns)} - {""}:
            other = aliases.setdefault(alias.casefold(), student)
            if other != student:
                raise ValueError(f"{path}: line {number}: {alias} names two students, "
                                 f"{other} and {student}")
    if not names:
        column = id_column or github_column
        raise ValueError(f"{path}: no student in the roster: its column {column} is empty in "
                         "every row")
    return Roster(names, github, aliases, Path(path))
