"""The course machinery: grading, exercise generation, running notebooks, training the shipped
models, the benchmark.

Lessons never import from here; they import the course library (helpers.attention, masks,
heads, positions, blocks, plots, checks). What lives here:

    command    `python -m helpers.grade`: points, feedback and reports for students' notebooks
    plugin     the pytest plugin that command loads into its nbval runs
    bridge     the grader's side of a check: a stand-in that calls the student's function in
               the student's kernel and brings its result back as data
    kernel     the kernel's side of the bridge
    wire       the data-only format both sides exchange (no pickle, nothing runs on load)
    course     pristine copies of the course, one per graded notebook
    exercises  `python -m helpers.grade.exercises`: exercises/ generated from solutions/
    notebooks  `python -m helpers.grade.notebooks`: execute notebooks and store their outputs
    train      `python -m helpers.grade.train NAME`: train a model the course ships (data/weights)
    benchmark  `python -m helpers.grade.benchmark`: how long lessons, solutions and grading take
"""
