#!/usr/bin/env bash
# The steps of classroom/grade.yml, in one place so that they run the same in a class's CI,
# on a teacher's machine, and in this course's own tests (tests/test_classroom.py, test_grade.py).
#
#   bash classroom/grade.sh install           install what grading needs: torch's CPU wheel,
#                                              then classroom/requirements.txt (not the lessons')
#   bash classroom/grade.sh grade PATH...     grade exercise notebooks (default: exercises/)
#   bash classroom/grade.sh classroom PATH... what the workflow runs: `grade`, then the points
#                                              for GitHub Classroom's reporter
#
# `grade` prints the table, appends it to $GITHUB_STEP_SUMMARY when that is set, writes
# grades.md, grades.json, grades.xml (JUnit) and grades.csv into $GRADES_DIR (default grades/),
# and exits with the grader's status: 0 all passed, 1 some did not, 2 usage error, 3 the
# machine failed a notebook (grader error: grade it again).
# `classroom` exits 0 when grading ran, whatever the points (1 is a result, not a failure),
# and writes them to $GITHUB_OUTPUT as `result` (base64 JSON, see helpers/grade/classroom.py);
# it exits 2 or 3, reporting nothing, when grading itself could not run.
# $PYTHON picks the interpreter (default python); $GRADE_ARGS adds options (e.g. --timeout 120);
# $GRADE_LESSONS (space-separated lesson names) grades only those lessons: the ones assigned so
# far, so that the points are out of what was assigned, not out of all eleven.
# $GRADE_STUDENT names the student in the reports (the workflow passes the repository's name),
# so that a teacher can build one class report from every student's grades.json:
#   python -m helpers.grade --from-json downloaded-artifacts/ --report class.html
# $TORCH_INDEX_URL is where `install` takes torch from (default PyTorch's CPU index); set it
# empty to use pip's own index (a machine with a local wheel, as this course's tests do).
set -euo pipefail

course="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
python="${PYTHON:-python}"
requirements="$course/classroom/requirements.txt"
step="${1:-}"
if [ "$#" -gt 0 ]; then shift; fi

grade() {
  [ "$#" -gt 0 ] || set -- exercises
  out="${GRADES_DIR:-grades}"
  mkdir -p "$out"
  status=0
  student=()
  if [ -n "${GRADE_STUDENT:-}" ]; then student=(--student "$GRADE_STUDENT"); fi
  lessons=()  # $GRADE_LESSONS: the lessons assigned so far, e.g. "02_one_row 03_scaling"
  for lesson in ${GRADE_LESSONS:-}; do lessons+=(--lesson "$lesson"); done
  # The grader of this course, not whatever `helpers` is installed. The student's code runs
  # under it: it gets none of the runner's files for step outputs, summary or environment.
  # shellcheck disable=SC2086  # GRADE_ARGS is a list of options
  env -u GITHUB_OUTPUT -u GITHUB_ENV -u GITHUB_PATH -u GITHUB_STEP_SUMMARY \
    PYTHONPATH="$course${PYTHONPATH:+:$PYTHONPATH}" \
    "$python" -m helpers.grade "$@" --solutions "$course/solutions" ${GRADE_ARGS:-} \
    ${student[@]+"${student[@]}"} ${lessons[@]+"${lessons[@]}"} \
    --json "$out/grades.json" --junit "$out/grades.xml" --csv "$out/grades.csv" \
    > "$out/grades.md" || status=$?
  cat "$out/grades.md"
  if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
    { echo "## Exercise grades"; echo; cat "$out/grades.md"; } >> "$GITHUB_STEP_SUMMARY"
  fi
  return "$status"
}

case "$step" in
  install)
    # torch first, from the CPU index (PyPI's Linux wheel is the CUDA build, several GB);
    # the requirements then find it installed. Same pins as requirements.txt.
    torch="$(grep -E '^torch==' "$requirements")"
    index="${TORCH_INDEX_URL-https://download.pytorch.org/whl/cpu}"
    "$python" -m pip install "$torch" ${index:+--index-url "$index"}
    "$python" -m pip install -r "$requirements"
    ;;
  grade)
    status=0
    grade "$@" || status=$?
    exit "$status"
    ;;
  classroom)
    status=0
    grade "$@" || status=$?
    if [ "$status" -gt 1 ]; then
      echo "::error title=Grading could not run::exit status $status (2: usage error, 3: the" \
        "machine failed a notebook, grade it again); no points were reported." >&2
      exit "$status"
    fi
    results="$(PYTHONPATH="$course" "$python" -m helpers.grade.classroom \
      "${GRADES_DIR:-grades}/grades.json")"
    if [ -n "${GITHUB_OUTPUT:-}" ]; then echo "result=$results" >> "$GITHUB_OUTPUT"; fi
    exit 0
    ;;
  *)
    echo "usage: $0 install | grade [PATH ...] | classroom [PATH ...]" >&2
    exit 2
    ;;
esac
