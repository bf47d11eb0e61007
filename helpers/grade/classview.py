"""A class seen from the grader's JSON: students, what counts, and what the class got wrong.

Everything here reads the JSON `python -m helpers.grade --json` writes (one run for the whole
class, or one per student as the classroom workflow's artifacts), so a report built from CI
artifacts and one built by grading the notebooks again are the same report.

    students      one row per student: the student's id comes from the run (`--student`),
                  the folder under the class folder, or the file name (02_one_row-ana.ipynb)
    duplicates    two notebooks of one lesson from one student are both graded; the best one
                  counts (the rule `best`), or the one graded from the newest file (`latest`)
    misconceptions for each exercise, the diagnosis ids of the wrong answers, with the students
                  who made them; across the class, ranked by how many students made them.
                  Points come from the notebook that counts; misconceptions from every
                  notebook, a superseded one's marked as such (a mistake made and then fixed
                  is still one to reteach)
    item statistics  difficulty (the share of students who passed) and discrimination (how well
                  passing this exercise goes with doing well on the rest: the correlation of the
                  item with the student's total without it, the corrected item-total r)
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass, field

from helpers.checks import diagnoses
from helpers.grade.report_i18n import N_

RULES = ("best", "latest")
NO_NAME = "(no name)"
GRADER_ERROR = "grader error"  # the machine failed the notebook: no points either way, regrade
UNNAMED_LABEL = N_("a wrong answer the checks could not name")
SUPERSEDED = {"earlier": N_("earlier submission"), "later": N_("later submission")}


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
    looks_like: str | None = None  # an unmatched file: the lesson its cells are, if known

    @property
    def name(self) -> str:
        return self.path.replace("\\", "/").rsplit("/", 1)[-1]


@dataclass
class Misconception:
    id: str
    label: str
    lesson: str  # where it is taught: a lesson ("" when unknown) and its heading ("": its top)
    section: str
    students: list[str]  # made it in the notebook that counts
    superseded: dict[str, str] = field(default_factory=dict)  # made it only in one that does
    # not count: student -> "earlier" or "later" (than the one that counts)

    @property
    def count(self) -> int:
        return len(self.students) + len(self.superseded)

    @property
    def who(self) -> list[str]:
        """Everyone who made it, 'ana (earlier submission)' for a superseded notebook's."""
        return self.who_named({})

    def who_named(self, names: dict[str, str], translate=str) -> list[str]:
        """`who`, each with the roster's name: 's1001 (Ana Lima; earlier submission)';
        translate: the report's gettext, for the note."""
        def one(student: str, when: str = "") -> str:
            note = translate(SUPERSEDED.get(when, f"{when} submission")) if when else ""
            notes = [n for n in (names.get(student, ""), note) if n]
            return f"{student} ({'; '.join(notes)})" if notes else student
        return sorted([one(s) for s in self.students]
                      + [one(s, when) for s, when in self.superseded.items()])


@dataclass
class ItemStats:
    exercise: Exercise
    handed_in: int  # students whose counted notebook has the exercise (grader errors aside)
    passed: int
    difficulty: float | None  # share passed
    discrimination: float | None  # corrected item-total correlation; None: not defined
    not_attempted: int = 0  # handed the lesson in with this exercise's stub untouched
    not_submitted: int = 0  # students who did not hand the lesson in

    @property
    def attempted(self) -> int:
        return self.handed_in - self.not_attempted


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

    def unmatched_for(self, student: str, lesson: str | None = None) -> list[Entry]:
        """The student's files that matched no lesson. With a lesson: those that look like
        it when the student handed it in under no other name (their row's cells for it);
        without: the rest."""
        mine = [e for e in self.unmatched if e.student == student]
        placed = [e for e in mine if e.looks_like in self.lessons
                  and self.counted(student, e.looks_like) is None]
        if lesson is not None:
            return [e for e in placed if e.looks_like == lesson]
        return [e for e in mine if e not in placed]

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
        """The diagnoses of this exercise's wrong answers in every notebook handed in (a
        superseded one's too, marked), most students first."""
        counted: dict[str, set[str]] = defaultdict(set)
        superseded: dict[str, dict[str, str]] = defaultdict(dict)
        for entry in self.entries:
            record = entry.exercises.get(exercise.key) if entry.lesson == exercise.lesson \
                else None
            if not record or record.get("outcome", record.get("status")) != "failed":
                continue
            diagnosis = record.get("diagnosis") or diagnoses.UNNAMED
            if entry.counts:
                counted[diagnosis].add(entry.student)
            else:
                chosen = self.counted(entry.student, entry.lesson)
                later = chosen is not None and entry.graded_at > chosen.graded_at
                superseded[diagnosis][entry.student] = "later" if later else "earlier"
        found = []
        for diagnosis in set(counted) | set(superseded):
            only = {s: w for s, w in sorted(superseded[diagnosis].items())
                    if s not in counted[diagnosis]}
            found.append(self._misconception(diagnosis, sorted(counted[diagnosis]), only,
                                             exercise))
        return sorted(found, key=lambda m: (-m.count, m.id))

    def class_misconceptions(self) -> list[tuple[Misconception, list[Exercise]]]:
        """Every diagnosis made in the class, ranked by how many students made it (in a
        counted notebook or a superseded one)."""
        students: dict[str, set[str]] = defaultdict(set)
        superseded: dict[str, dict[str, str]] = defaultdict(dict)
        where: dict[str, list[Exercise]] = defaultdict(list)
        for exercise in self.exercises:
            for m in self.misconceptions(exercise):
                students[m.id] |= set(m.students)
                superseded[m.id].update(m.superseded)
                where[m.id].append(exercise)
        ranked = []
        for i in where:
            only = {s: w for s, w in sorted(superseded[i].items()) if s not in students[i]}
            ranked.append((self._misconception(i, sorted(students[i]), only, where[i][0]),
                           where[i]))
        return sorted(ranked, key=lambda pair: (-pair[0].count, pair[0].id))

    def _misconception(self, diagnosis_id: str, students, superseded,
                       exercise: Exercise) -> Misconception:
        known = diagnoses.lookup(diagnosis_id)
        if known is None:
            label = UNNAMED_LABEL if diagnosis_id == diagnoses.UNNAMED else diagnosis_id
            known = diagnoses.Diagnosis(diagnosis_id, label, None, None)
        lesson, section = known.where(exercise.lesson, exercise.key)
        return Misconception(diagnosis_id, known.label, lesson, section, list(students),
                             dict(superseded))

    def item_stats(self) -> list[ItemStats]:
        """Difficulty and discrimination of each exercise, over the students who submitted
        its lesson; and how many left it untouched or did not hand the lesson in."""
        out = []
        for exercise in self.exercises:
            took = [s for s in self.students if self.counted(s, exercise.lesson) is not None]
            rows = [(1.0 if self.status(s, exercise) == "passed" else 0.0,
                     self.total(s) - self.earned(s, exercise))
                    for s in took if self.status(s, exercise) != GRADER_ERROR]
            passed = int(sum(r[0] for r in rows))
            difficulty = passed / len(rows) if rows else None
            untouched = sum(self.status(s, exercise) == "not attempted" for s in took)
            out.append(ItemStats(exercise, len(rows), passed, difficulty,
                                 _correlation([r[0] for r in rows], [r[1] for r in rows]),
                                 untouched, len(self.students) - len(took)))
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
            graded_at=float(nb.get("modified") or 0.0), looks_like=nb.get("looks_like"))
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
    students = sorted({e.student for e in entries if not e.unmatched or e.student != NO_NAME}
                      | set(roster or ()))
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
    seeds = {report.get("total", {}).get("seed") for report in reports}
    if len(seeds) == 1:  # one run (or runs with one seed): a regrade can repeat its inputs
        merged["total"]["seed"] = seeds.pop()
    return merged


def _num(x: float) -> str:
    return f"{x:g}"


def plural(n: float, word: str, words: str | None = None) -> str:
    """'1 point', '2 points', '0.5 points'."""
    return f"{_num(n)} {word if n == 1 else words or word + 's'}"


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
    """Whose points or status changed since the previous run, per exercise: for the students
    and lessons of the current run only (regrading one student's folder says nothing of the
    others)."""
    changes = []
    students = sorted({e.student for e in current.entries})
    exercises = {(e.lesson, e.key): e for e in previous.exercises + current.exercises
                 if e.lesson in current.lessons}
    for student in students:
        for (lesson, key), exercise in sorted(exercises.items()):
            old = (previous.status(student, exercise), previous.earned(student, exercise))
            new = (current.status(student, exercise), current.earned(student, exercise))
            if old != new:
                changes.append(Change(student, lesson, key, old[0], new[0], old[1], new[1]))
    return changes


def changes_json(changes: list[Change], previous: str, current: ClassView) -> dict:
    """The --json report's "changes": what was compared, and each change."""
    return {
        "since": previous,
        "students": sorted({e.student for e in current.entries}),
        "lessons": list(current.lessons),
        "exercises": [{"student": c.student, "lesson": c.lesson, "exercise": c.exercise,
                       "before": {"status": c.old_status, "points": c.old_points},
                       "now": {"status": c.new_status, "points": c.new_points}}
                      for c in changes],
    }


def format_changes(changes: list[Change], previous: str) -> str:
    if not changes:
        return f"\nNo score or status changed since {previous}.\n"
    lines = [f"\n### Changed since {previous}\n", "| student | exercise | before | now |",
             "|---|---|---|---|"]
    for c in changes:
        lines.append(f"| {c.student} | {c.lesson} {c.exercise} | {c.old_status} "
                     f"({plural(c.old_points, 'point')}) | {c.new_status} "
                     f"({plural(c.new_points, 'point')}) |")
    moved = len({c.student for c in changes})
    lines.append(f"\n{plural(len(changes), 'change')} for {plural(moved, 'student')}.")
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
        missing = view.missing_lessons(student) + [
            f"unmatched file: {e.name}" for e in view.unmatched if e.student == student]
        lines.append(f"| {who} | {_num(view.total(student))}/{_num(view.possible)} | "
                     f"{lessons} | {', '.join(missing) or '–'} |")
    if view.missing:
        lines.append(f"\nOn the roster, nothing handed in: {', '.join(view.missing)}.")
    if view.not_on_roster:
        lines.append(f"\nNot on the roster: {', '.join(view.not_on_roster)}.")
    for (student, lesson), group in sorted(view.duplicates().items()):
        chosen = next(e for e in group if e.counts)
        lines.append(f"\n{student} handed in {lesson} {len(group)} times; the "
                     f"{view.rule} one counts: {chosen.path} "
                     f"({plural(chosen.earned, 'point')}; the others: "
                     + ", ".join(f"{e.path} ({plural(e.earned, 'point')})"
                                 for e in group if not e.counts) + ").")
    for entry in view.unmatched:
        lines.append(f"\nUnmatched, not graded: {entry.path}.")
    for entry in view.regrade:
        lines.append(f"\nRegrade this: {entry.path} ({entry.student or NO_NAME}, {entry.lesson}):"
                     " the machine failed it (grader error), not the student.")
    return "\n".join(lines) + "\n"
