"""The teacher's path of issue 21, end to end: a GitHub Classroom class with planted mistakes,
graded, reported, exported, one student regraded, and the class template released.

    python tests/teacher_path.py OUT      # OUT: a new folder; about 3 minutes on 2 cores

OUT gets submissions/ (as `gh classroom clone student-repos` lays them out: one clone per
student, lessons beside the exercises), classroom_roster.csv (Classroom's roster export: 10
students, one of whom hands nothing in; a clone of someone not on it), then what a teacher
makes of them: class.html, class.json, canvas.csv, moodle.csv, ana.json and ana.html (a regrade
of one student against class.json) and template/ (the release). The class holds what students
really hand in: Colab's "Copy of 02_one_row.ipynb", a second download "03_scaling (1).ipynb",
a stray scratch.ipynb, a lesson skipped. Open class.html in a browser and read the output.
"""

from __future__ import annotations

import csv
import random
import subprocess
import sys
from pathlib import Path

import nbformat

sys.path.insert(0, str(Path(__file__).resolve().parent))
from class_fixture import ROOT, _notebook  # noqa: E402

STUDENTS = [("s1001", "ana-lima", "Ana Lima"), ("s1002", "bokafor", "Ben Okafor"),
            ("s1003", "chenjing", "陈静"), ("s1004", "dara-k", "Dara Kim"),
            ("s1005", "eli", "Eli Novak"), ("s1006", "fayito", "Fay Ito"),
            ("s1007", "gus", "Gus Berg"), ("s1008", "hanasato", "Hana Sato"),
            ("s1009", "ivo-r", "Ivo Rossi"), ("s1010", "jaepark", "Jae Park")]
LESSONS = ("02_one_row", "03_scaling", "04_masks")
CLONE = "attention-course-{}"


def write_class(out: Path) -> None:
    rng = random.Random(5)
    subs = out / "submissions"
    for n, (_, user, _) in enumerate(STUDENTS):
        if user == "jaepark":
            continue  # on the roster, hands nothing in
        repo = subs / CLONE.format(user)
        (repo / "exercises").mkdir(parents=True)
        for lesson in LESSONS:
            if user == "gus" and lesson == "04_masks":
                continue  # a lesson skipped
            name = {("bokafor", "02_one_row"): "Copy of 02_one_row.ipynb",
                    ("dara-k", "03_scaling"): "03_scaling (1).ipynb"}.get((user, lesson),
                                                                        f"{lesson}.ipynb")
            nbformat.write(_notebook(lesson, rng, 0.3 + 0.07 * n), repo / "exercises" / name)
    lessons = subs / CLONE.format("ana-lima") / "notebooks"  # a clone holds the lessons too
    lessons.mkdir()
    (lessons / "02_one_row.ipynb").write_bytes((ROOT / "notebooks" / "02_one_row.ipynb")
                                               .read_bytes())
    stray = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("1 + 1")])
    nbformat.write(stray, subs / CLONE.format("eli") / "exercises" / "scratch.ipynb")
    unlisted = subs / CLONE.format("zoe-w") / "exercises"
    unlisted.mkdir(parents=True)
    nbformat.write(_notebook("02_one_row", rng, 0.9), unlisted / "02_one_row.ipynb")
    with open(out / "classroom_roster.csv", "w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        writer.writerow(["identifier", "github_username", "github_id", "name"])
        writer.writerows((sid, user, 900 + i, name)
                         for i, (sid, user, name) in enumerate(STUDENTS))


def run(*args: str, cwd: Path) -> None:
    print("\n$", " ".join(args), flush=True)
    subprocess.run([sys.executable, *args], cwd=cwd, check=False)


def main(out: Path) -> None:
    if out.exists():
        sys.exit(f"{out}: exists; give a new folder")
    out.mkdir(parents=True)
    write_class(out)
    names = [f"--assignment={lesson}=Lesson {int(lesson[:2])}" for lesson in LESSONS]
    run("-m", "helpers.grade", "submissions/", "--only-in", "exercises", "--roster",
        "classroom_roster.csv", "--jobs", "2", "--report", "class.html", "--json", "class.json",
        "--canvas", "canvas.csv", "--moodle", "moodle.csv", *names, cwd=out)
    ana = out / "submissions" / CLONE.format("ana-lima") / "exercises" / "02_one_row.ipynb"
    from helpers.grade.exercises import fill_solutions  # ana fixes lesson 02, and is regraded

    solution = nbformat.read(ROOT / "solutions" / "02_one_row.ipynb", as_version=4)
    nbformat.write(fill_solutions(nbformat.read(ana, as_version=4), solution), ana)
    run("-m", "helpers.grade", f"submissions/{CLONE.format('ana-lima')}", "--only-in",
        "exercises", "--roster", "classroom_roster.csv", "--compare", "class.json", "--json",
        "ana.json", "--report", "ana.html", cwd=out)
    run("-m", "helpers.grade.release", str(out / "template"), cwd=ROOT)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(Path(sys.argv[1]).resolve())
