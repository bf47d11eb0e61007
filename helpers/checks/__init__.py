"""Exercise checks, one module per lesson (`from helpers.checks import one_row`).

Each check calls the student's function on canonical inputs, compares with the reference
implementation, and on a wrong answer raises AssertionError naming the likely misconception.
"""
