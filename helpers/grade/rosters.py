"""Rosters: who is in the class, under which id, and how a submission is matched to them."""

from __future__ import annotations

import csv
import io
from pathlib import Path


def read_roster(path: Path) -> dict[str, str]:
    """{student id: name} from a CSV with a header: an id column (id, student, login,
    username, email) and optionally a name column (name, full name)."""
    try:
        text = Path(path).read_text(encoding="utf-8-sig")
    except OSError as e:
        raise ValueError(f"{path}: cannot read the roster ({e.strerror})") from None
    rows = list(csv.DictReader(io.StringIO(text)))
    if not rows:
        raise ValueError(f"{path}: the roster is empty; expected a header such as `id,name` "
                         "and one row per student")
    columns = {c.strip().lower(): c for c in rows[0] if c}
    id_column = next((columns[c] for c in ("id", "student", "login", "username", "github",
                                           "email") if c in columns), None)
    if id_column is None:
        raise ValueError(f"{path}: no student id column; expected one named id, student, "
                         f"login, username, github or email (found: {', '.join(columns)})")
    name_column = next((columns[c] for c in ("name", "full name", "fullname") if c in columns),
                       None)
    roster = {}
    for row in rows:
        student = (row.get(id_column) or "").strip()
        if student:
            roster[student] = (row.get(name_column) or "").strip() if name_column else ""
    return roster
