#!/usr/bin/env bash
# The steps of classroom/grade.yml, in one place so that they run the same in a class's CI,
# on a teacher's machine, and in this course's own tests (tests/test_grade.py).
#
#   bash classroom/grade.sh install           install the course: its requirements.txt (with -e .)
#   bash classroom/grade.sh grade PATH...     grade exercise notebooks (default: exercises/)
#
# `grade` prints the table, appends it to $GITHUB_STEP_SUMMARY when that is set, writes
# grades.md, grades.json, grades.xml (JUnit) and grades.csv into $GRADES_DIR (default grades/),
# and exits with the grader's status: 0 all passed, 1 some did not, 2 usage error, 3 the
# machine failed a notebook (grader error: grade it again).
# $PYTHON picks the interpreter (default python); $GRADE_ARGS adds options (e.g. --timeout 120);
# $GRADE_STUDENT names the student in the reports (the workflow passes the repository's name),
# so that a teacher can build one class report from every student's grades.json:
#   python -m helpers.grade --from-json downloaded-artifacts/ --report class.html
set -euo pipefail

course="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
python="${PYTHON:-python}"
step="${1:-}"
if [ "$#" -gt 0 ]; then shift; fi

case "$step" in
  install)
    cd "$course"  # requirements.txt installs the course with "-e ." relative to here
    "$python" -m pip install -r requirements.txt
    ;;
  grade)
    [ "$#" -gt 0 ] || set -- exercises
    out="${GRADES_DIR:-grades}"
    mkdir -p "$out"
    status=0
    student=()
    if [ -n "${GRADE_STUDENT:-}" ]; then student=(--student "$GRADE_STUDENT"); fi
    # shellcheck disable=SC2086  # GRADE_ARGS is a list of options
    "$python" -m helpers.grade "$@" --solutions "$course/solutions" ${GRADE_ARGS:-} \
      ${student[@]+"${student[@]}"} \
      --json "$out/grades.json" --junit "$out/grades.xml" --csv "$out/grades.csv" \
      > "$out/grades.md" || status=$?
    cat "$out/grades.md"
    if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
      { echo "## Exercise grades"; echo; cat "$out/grades.md"; } >> "$GITHUB_STEP_SUMMARY"
    fi
    exit "$status"
    ;;
  *)
    echo "usage: $0 install | grade [PATH ...]" >&2
    exit 2
    ;;
esac
