"""Pristine copies of the course: one per graded notebook, checked after it ran.

A Snapshot holds, in memory, the bytes of every course file a notebook may import or read
(helpers/, solutions/, data/; no caches). Grading writes a fresh copy from it for each notebook,
right before that notebook's kernel starts, and afterwards lists the files the notebook changed,
added or removed in its copy. What a kernel writes into its copy therefore never reaches
another notebook, and the grader's own checks were imported before any kernel started.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

PARTS = ("helpers", "solutions", "data")
SKIPPED = ("__pycache__", ".ipynb_checkpoints", ".pytest_cache")


def _wanted(relative: Path) -> bool:
    return not any(part in SKIPPED or part.endswith(".egg-info") for part in relative.parts) \
        and relative.suffix not in (".pyc", ".pyo")


@dataclass
class Snapshot:
    files: dict[str, bytes]  # posix path relative to the course root -> content

    @classmethod
    def take(cls, root: Path, parts=PARTS) -> Snapshot:
        files = {}
        for part in parts:
            base = Path(root) / part
            if not base.is_dir():
                continue
            for path in sorted(base.rglob("*")):
                relative = path.relative_to(root)
                if path.is_file() and not path.is_symlink() and _wanted(relative):
                    files[relative.as_posix()] = path.read_bytes()
        return cls(files)

    def digest(self) -> str:
        h = hashlib.sha256()
        for name in sorted(self.files):
            h.update(name.encode() + b"\0" + hashlib.sha256(self.files[name]).digest())
        return h.hexdigest()

    def write(self, target: Path) -> None:
        """Write the course into target (target/helpers, target/solutions, target/data)."""
        for name, content in self.files.items():
            path = Path(target) / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(content)

    def changes(self, target: Path, parts=PARTS) -> list[str]:
        """The course files in target that differ from the snapshot: changed, added, removed."""
        found = Snapshot.take(target, parts).files
        changed = [n for n, c in found.items() if self.files.get(n) != c]
        removed = [n for n in self.files if n not in found]
        return sorted(changed + removed)

    def restore(self, target: Path, names, keep: Path | None = None) -> None:
        """Put the snapshot's version of each named file back (and remove the added ones).

        keep: a folder where the replaced versions are saved first, so no edit is lost."""
        for name in names:
            path = Path(target) / name
            if keep is not None and path.is_file():
                saved = Path(keep) / name
                saved.parent.mkdir(parents=True, exist_ok=True)
                saved.write_bytes(path.read_bytes())
            if name in self.files:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_bytes(self.files[name])
            else:
                path.unlink(missing_ok=True)

