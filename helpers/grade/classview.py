"""A class seen from the grader's JSON: students, what counts, and what the class got wrong.

Everything here reads the JSON `python -m helpers.grade --json` writes (one run for the whole
class, or one per student as the classroom workflow's artifacts), so a report built from CI
artifacts and one built by grading the notebooks again are the same report.

    students      one row per student: the student's id comes from the run (`--student`),
                  the folder under the class folder, or the file name (02_one_row-ana.ipynb)
    duplicates    two notebooks of one lesson from one student are both graded; the best one
                  counts (the rule `best`), or the one graded from the newest file (`latest`)
    misconceptions for each exercise, the diagnosis ids of the wrong answers, with the students
                  who made them; across the class, ranked by how many students made them
    item statistics  difficulty (the share of students who passed) and discrimination (how well
                  passing this exercise goes with doing well on the rest: the correlation of the
                  item with the student's total without it, the corrected item-total r)
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass, field

from helpers.checks import diagnoses

RULES = ("best", "latest")
NO_NAME = "(no name)"
GRADER_ERROR = "grader error"  # the machine failed the notebook: no points either way, regrade


@dataclass
class Exercise:
    lesson: str
    key: str  # "ex2"
    title: str
    points: float

    @property
    def column(self) -> str:
        return f"{self.lesson} {self.key}"


@dataclass
class Entry:
    """One graded notebook of the JSON."""

    student: str
    lesson: str | None
    path: str
    earned: float
    possible: float
    exercises: dict[str, dict]  # key -> the JSON's exercise record
    unmatched: str | None = None
    unreadable: str | None = None
    changed_course_files: list[str] = field(default_factory=list)
    graded_at: float = 0.0  # the file's modification time, for the rule `latest`
    counts: bool = True


@dataclass
class Misconception:
    id: str
    label: str
    link: str
    students: list[str]


@dataclass
class ItemStats:
    exercise: Exercise
    attempted: int
    passed: int
    difficulty: float | None  # share passed
    discrimination: float | None  # corrected item-total correlation; None: not defined


@dataclass
class ClassView:
    lessons: list[str]
    exercises: list[Exercise]
    students: list[str]
    names: dict[str, str]
    entries: list[Entry]
    rule: str
    roster: list[str] | None

    # --- who submitted what

    def counted(self, student: str, lesson: str) -> Entry | None:
        for entry in self.entries:
            if entry.counts and entry.student == student and entry.lesson == lesson:
                return entry
        return None

    def duplicates(self) -> dict[tuple[str, str], list[Entry]]:
        groups: dict[tuple[str, str], list[Entry]] = defaultdict(list)
        for entry in self.entries:
            if entry.lesson is not None:
                groups[(entry.student, entry.lesson)].append(entry)
        return {key: group for key, group in groups.items() if len(group) > 1}

    @property
    def unmatched(self) -> list[Entry]:
        return [e for e in self.entries if e.unmatched]

    @property
    def missing(self) -> list[str]:
        """Roster students with no notebook at all."""
        return [s for s in self.students if not any(e.student == s for e in self.entries)]

    @property
    def not_on_roster(self) -> list[str]:
        if self.roster is None:
            return []
        return sorted({e.student for e in self.entries if e.student not in self.roster})

    @property
    def regrade(self) -> list[Entry]:
        """The notebooks the machine failed (`grader error`): to grade again."""
        return [e for e in self.entries if e.lesson is not None and any(
            x.get("status") == GRADER_ERROR for x in e.exercises.values())]

    def needs_regrade(self, student: str, lesson: str) -> bool:
        entry = self.counted(student, lesson)
        return entry is not None and entry in self.regrade

    def missing_lessons(self, student: str) -> list[str]:
        return [lesson for lesson in self.lessons if self.counted(student, lesson) is None]

    # --- scores

    def status(self, student: str, exercise: Exercise) -> str:
        entry = self.counted(student, exercise.lesson)
        if entry is None:
            return "not submitted"
        return entry.exercises.get(exercise.key, {}).get("status", "not submitted")

    def earned(self, student: str, exercise: Exercise) -> float:
        entry = self.counted(student, exercise.lesson)
        return float(entry.exercises.get(exercise.key, {}).get("earned", 0)) if entry else 0.0

    def lesson_total(self, student: str, lesson: str) -> float:
        return sum(self.earned(student, e) for e in self.exercises if e.lesson == lesson)

    def lesson_possible(self, lesson: str) -> float:
        return sum(e.points for e in self.exercises if e.lesson == lesson)

    def total(self, student: str) -> float:
        return sum(self.earned(student, e) for e in self.exercises)

    @property
    def possible(self) -> float:
        return sum(e.points for e in self.exercises)

    # --- what went wrong

    def misconceptions(self, exercise: Exercise) -> list[Misconception]:
        """The diagnoses of this exercise's wrong answers, most students first."""
        who: dict[str, list[str]] = defaultdict(list)
        for student in self.students:
            entry = self.counted(student, exercise.lesson)
            record = entry.exercises.get(exercise.key) if entry else None
            if record and record.get("outcome", record.get("status")) == "failed":
                who[record.get("diagnosis") or diagnoses.UNNAMED].append(student)
        return sorted((self._misconception(i, s, exercise) for i, s in who.items()),
                      key=lambda m: (-len(m.students), m.id))

    def class_misconceptions(self) -> list[tuple[Misconception, list[Exercise]]]:
        """Every diagnosis made in the class, ranked by how many students made it."""
        students: dict[str, set[str]] = defaultdict(set)
        where: dict[str, list[Exercise]] = defaultdict(list)
        for exercise in self.exercises:
            for m in self.misconceptions(exercise):
                students[m.id] |= set(m.students)
                where[m.id].append(exercise)
        ranked = sorted(students, key=lambda i: (-len(students[i]), i))
        return [(self._misconception(i, sorted(students[i]), where[i][0]), where[i])
                for i in ranked]

    def _misconception(self, diagnosis_id: str, students, exercise: Exercise) -> Misconception:
        known = diagnoses.lookup(diagnosis_id)
        if known is None:
            label = ("a wrong answer the checks could not name" if diagnosis_id ==
                     diagnoses.UNNAMED else diagnosis_id)
            link = diagnoses.Diagnosis(diagnosis_id, label, None, None).link(
                exercise.lesson, exercise.key)
        else:
            label, link = known.label, known.link(exercise.lesson, exercise.key)
        return Misconception(diagnosis_id, label, link, list(students))

    def item_stats(self) -> list[ItemStats]:
        """Difficulty and discrimination of each exercise, over the students who submitted
        its lesson."""
        out = []
        for exercise in self.exercises:
            rows = [(1.0 if self.status(s, exercise) == "passed" else 0.0,
                     self.total(s) - self.earned(s, exercise))
                    for s in self.students if self.counted(s, exercise.lesson) is not None
                    and self.status(s, exercise) != GRADER_ERROR]
            passed = int(sum(r[0] for r in rows))
            difficulty = passed / len(rows) if rows else None
            out.append(ItemStats(exercise, len(rows), passed, difficulty,
                                 _correlation([r[0] for r in rows], [r[1] for r in rows])))
        return out


def _correlation(x: list[float], y: list[float]) -> float | None:
    """Pearson's r (the point-biserial one when x is 0/1); None when either does not vary."""
    n = len(x)
    if n < 3:
        return None
    mx, my = sum(x) / n, sum(y) / n
    sxy = sum((a - mx) * (b - my) for a, b in zip(x, y, strict=True))
    sxx = sum((a - mx) ** 2 for a in x)
    syy = sum((b - my) ** 2 for b in y)
    if sxx == 0 or syy == 0:
        return None
    return sxy / math.sqrt(sxx * syy)


# --- building the view ------------------------------------------------------------------------


def build(report: dict, roster: dict[str, str] | None = None, rule: str = "best") -> ClassView:
    """The class view of one grader JSON (or several merged with `merge`)."""
    if rule not in RULES:
        raise ValueError(f"unknown duplicates rule {rule!r}; expected one of {', '.join(RULES)}")
    entries, exercises, lessons = [], {}, []
    for nb in report.get("notebooks", []):
        entry = Entry(
            student=nb.get("student") or NO_NAME, lesson=nb.get("lesson"), path=nb["path"],
            earned=float(nb.get("earned", 0)), possible=float(nb.get("possible", 0)),
            exercises={e["id"]: e for e in nb.get("exercises", [])},
            unmatched=nb.get("unmatched"), unreadable=nb.get("unreadable"),
            changed_course_files=list(nb.get("changed_course_files") or []),
            graded_at=float(nb.get("modified") or 0.0))
        entries.append(entry)
        if entry.lesson and entry.lesson not in lessons:
            lessons.append(entry.lesson)
        for e in nb.get("exercises", []):
            exercises.setdefault((entry.lesson, e["id"]),
                                 Exercise(entry.lesson, e["id"], e.get("title", e["id"]),
                                          float(e.get("points", 0))))
    lessons.sort()
    ordered = sorted(exercises.values(),
                     key=lambda e: (e.lesson, int(e.key[2:]) if e.key[2:].isdigit() else 0,
                                    e.key))
    _choose(entries, rule)
    students = sorted({e.student for e in entries if not e.unmatched} | set(roster or ()))
    return ClassView(lessons, ordered, students, dict(roster or {}), entries, rule,
                     sorted(roster) if roster is not None else None)


def _choose(entries: list[Entry], rule: str) -> None:
    """Mark which notebook counts when a student handed in a lesson more than once."""
    groups: dict[tuple[str, str], list[Entry]] = defaultdict(list)
    for entry in entries:
        if entry.lesson is not None:
            groups[(entry.student, entry.lesson)].append(entry)
        else:
            entry.counts = False
    for group in groups.values():
        if rule == "best":
            chosen = max(group, key=lambda e: (e.earned, e.graded_at, e.path))
        else:
            chosen = max(group, key=lambda e: (e.graded_at, e.earned, e.path))
        for entry in group:
            entry.counts = entry is chosen


def merge(reports: list[dict]) -> dict:
    """One grader JSON from several (one CI job per student, say)."""
    merged = {"total": {"earned": 0, "possible": 0, "all_passed": True, "seed": None},
              "notebooks": []}
    for report in reports:
        merged["notebooks"] += report.get("notebooks", [])
        for key in ("earned", "possible"):
            merged["total"][key] += report.get("total", {}).get(key, 0)
        merged["total"]["all_passed"] &= bool(report.get("total", {}).get("all_passed"))
    return merged


def _num(x: float) -> str:
    return f"{x:g}"


# --- regrading --------------------------------------------------------------------------------


@dataclass
class Change:
    student: str
    lesson: str
    exercise: str
    old_status: str
    new_status: str
    old_points: float
    new_points: float


def compare(previous: ClassView, current: ClassView) -> list[Change]:
    """Whose points or status changed since the previous run, per exercise."""
    changes = []
    exercises = {(e.lesson, e.key): e for e in previous.exercises + current.exercises}
    for student in sorted(set(previous.students) | set(current.students)):
        for (lesson, key), exercise in sorted(exercises.items()):
            old = (previous.status(student, exercise), previous.earned(student, exercise))
            new = (current.status(student, exercise), current.earned(student, exercise))
            if old != new:
                changes.append(Change(student, lesson, key, old[0], new[0], old[1], new[1]))
    return changes


def format_changes(changes: list[Change], previous: str) -> str:
    if not changes:
        return f"\nNo score or status changed since {previous}.\n"
    lines = [f"\n### Changed since {previous}\n", "| student | exercise | before | now |",
             "|---|---|---|---|"]
    for c in changes:
        lines.append(f"| {c.student} | {c.lesson} {c.exercise} | {c.old_status} "
                     f"({_num(c.old_points)}) | {c.new_status} ({_num(c.new_points)}) |")
    moved = len({c.student for c in changes})
    lines.append(f"\n{len(changes)} change{'s' * (len(changes) != 1)} for {moved} "
                 f"student{'s' * (moved != 1)}.")
    return "\n".join(lines) + "\n"


def format_students(view: ClassView) -> str:
    """The class in a terminal: one line per student, then who is missing, duplicates,
    unmatched files."""
    lines = ["\n### The class: one row per student\n",
             "| student | points | " + " | ".join(view.lessons) + " | not submitted |",
             "|---|---|" + "---|" * len(view.lessons) + "---|"]
    for student in view.students:
        name = view.names.get(student)
        who = f"{student} ({name})" if name else student
        lessons = " | ".join(f"{_num(view.lesson_total(student, lesson))}/"
                             f"{_num(view.lesson_possible(lesson))}"
                             if view.counted(student, lesson) else "–"
                             for lesson in view.lessons)
        lines.append(f"| {who} | {_num(view.total(student))}/{_num(view.possible)} | "
                     f"{lessons} | {', '.join(view.missing_lessons(student)) or '–'} |")
    if view.missing:
        lines.append(f"\nOn the roster, nothing handed in: {', '.join(view.missing)}.")
    if view.not_on_roster:
        lines.append(f"\nNot on the roster: {', '.join(view.not_on_roster)}.")
    for (student, lesson), group in sorted(view.duplicates().items()):
        chosen = next(e for e in group if e.counts)
        lines.append(f"\n{student} handed in {lesson} {len(group)} times; the "
                     f"{view.rule} one counts: {chosen.path} ({_num(chosen.earned)} points; "
                     "the others: " + ", ".join(f"{e.path} ({_num(e.earned)})"
                                               for e in group if not e.counts) + ").")
    for entry in view.unmatched:
        lines.append(f"\nUnmatched, not graded: {entry.path}.")
    for entry in view.regrade:
        lines.append(f"\nRegrade this: {entry.path} ({entry.student or NO_NAME}, {entry.lesson}):"
                     " the machine failed it (grader error), not the student.")
    return "\n".join(lines) + "\n"
