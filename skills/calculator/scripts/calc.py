#!/usr/bin/env python3
"""Safely evaluate an arithmetic expression and print the result.

Usage:
    calc.py EXPRESSION...

The arguments are joined with single spaces and parsed with Python's `ast`
module. Only numbers, the binary operators + - * / // % **, unary + and -,
and parentheses are accepted. Names, function calls, attributes, strings and
every other construct are refused; nothing is ever passed to eval().

Exit codes:
    0  success; the result is printed on stdout
    1  the expression is valid but could not be evaluated
       (division by zero, result or exponent too large, non-real result)
    2  usage error or refused input (empty, too long, bad syntax,
       disallowed construct)

Standard library only; works with Python 3.8 and later.
"""

import ast
import math
import operator
import sys

MAX_INPUT_CHARS = 1000      # longest expression accepted
MAX_DEPTH = 500             # deepest nesting of operators accepted
MAX_INT_BITS = 10000        # largest integer result, about 3,000 digits
MAX_EXPONENT = 10000        # largest integer exponent accepted
EXACT_FLOAT_LIMIT = 2 ** 53  # integral floats below this print as integers

USAGE = """usage: calc.py EXPRESSION...

Evaluate an arithmetic expression safely and print the result.

Supported: integers, decimals (1.5, .5, 1e3, 1_000), + - * / // % **,
unary + and -, and parentheses. Quote the expression so the shell does
not expand '*', for example:

    calc.py '15 * 23'        prints 345
    calc.py '(1 + 2) ** 10'  prints 59049
    calc.py '7 / 2'          prints 3.5

Exit codes: 0 success, 1 evaluation error, 2 usage error or refused input.
"""


class RefusedInput(Exception):
    """The expression uses something this calculator does not allow (exit 2)."""


class EvaluationError(Exception):
    """The expression is allowed but cannot be evaluated (exit 1)."""


BINARY_OPERATORS = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
    ast.Pow: operator.pow,
}

UNARY_OPERATORS = {
    ast.UAdd: operator.pos,
    ast.USub: operator.neg,
}

OPERATOR_HINTS = {
    ast.BitXor: "'^' is not a power operator here; use '**' (for example 2 ** 10)",
    ast.BitAnd: "bitwise '&' is not supported",
    ast.BitOr: "bitwise '|' is not supported",
    ast.LShift: "shift '<<' is not supported",
    ast.RShift: "shift '>>' is not supported",
    ast.MatMult: "'@' is not supported",
    ast.Invert: "bitwise '~' is not supported",
    ast.Not: "'not' is not supported",
}


def check_number(value):
    """Return value if it is a finite int or float, else raise."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        if isinstance(value, complex):
            raise EvaluationError("the result is not a real number")
        raise EvaluationError("the result is not a number")
    if isinstance(value, float) and not math.isfinite(value):
        raise EvaluationError("the result is too large to represent")
    if isinstance(value, int) and value.bit_length() > MAX_INT_BITS:
        raise EvaluationError(
            "the result is too large (more than %d bits)" % MAX_INT_BITS
        )
    return value


def safe_power(base, exponent):
    """base ** exponent, refusing integer powers that would take long or use much memory.

    Only int ** non-negative int can grow without bound; float powers are
    constant-time and overflow is caught by the caller.
    """
    if isinstance(base, int) and isinstance(exponent, int) and exponent > 0:
        if abs(base) > 1:
            if exponent > MAX_EXPONENT:
                raise EvaluationError(
                    "exponent %d is too large (the limit is %d)" % (exponent, MAX_EXPONENT)
                )
            # |base| ** exponent has at least (bit_length - 1) * exponent bits.
            if (abs(base).bit_length() - 1) * exponent > MAX_INT_BITS:
                raise EvaluationError(
                    "the result is too large (more than %d bits)" % MAX_INT_BITS
                )
    if base == 0 and exponent < 0:
        raise EvaluationError("zero cannot be raised to a negative power")
    return base ** exponent


def evaluate(node, depth=0):
    """Evaluate an AST node made only of allowed arithmetic constructs."""
    if depth > MAX_DEPTH:
        raise RefusedInput("the expression is nested too deeply")

    if isinstance(node, ast.Expression):
        return evaluate(node.body, depth + 1)

    if isinstance(node, ast.Constant):
        value = node.value
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            if isinstance(value, complex):
                raise RefusedInput("complex numbers are not supported")
            raise RefusedInput("only numbers are allowed, not %r" % (value,))
        if isinstance(value, float) and not math.isfinite(value):
            raise RefusedInput("the number literal is too large")
        return value

    if isinstance(node, ast.BinOp):
        op_type = type(node.op)
        if op_type not in BINARY_OPERATORS:
            raise RefusedInput(OPERATOR_HINTS.get(op_type, "operator not supported"))
        left = evaluate(node.left, depth + 1)
        right = evaluate(node.right, depth + 1)
        try:
            if op_type is ast.Pow:
                result = safe_power(left, right)
            else:
                result = BINARY_OPERATORS[op_type](left, right)
        except ZeroDivisionError:
            raise EvaluationError("division by zero")
        except OverflowError:
            raise EvaluationError("the result is too large to represent")
        return check_number(result)

    if isinstance(node, ast.UnaryOp):
        op_type = type(node.op)
        if op_type not in UNARY_OPERATORS:
            raise RefusedInput(OPERATOR_HINTS.get(op_type, "operator not supported"))
        return check_number(UNARY_OPERATORS[op_type](evaluate(node.operand, depth + 1)))

    if isinstance(node, ast.Name):
        raise RefusedInput("names are not allowed (found %r)" % node.id)
    if isinstance(node, ast.Call):
        raise RefusedInput("function calls are not allowed")
    if isinstance(node, ast.Attribute):
        raise RefusedInput("attribute access is not allowed")
    if isinstance(node, ast.Tuple):
        raise RefusedInput(
            "commas are not allowed; write 1000 rather than 1,000 and one expression at a time"
        )
    if isinstance(node, ast.Compare):
        raise RefusedInput("comparisons are not supported")
    raise RefusedInput("%s is not allowed" % type(node).__name__)


def format_result(value):
    """Format a result for people.

    Integers print exactly. Floats print with up to 15 significant digits,
    which hides binary rounding noise (0.1 + 0.2 prints 0.3); integral
    floats below 2**53 print without a trailing '.0' (10 / 2 prints 5).
    """
    if isinstance(value, float):
        if value.is_integer() and abs(value) < EXACT_FLOAT_LIMIT:
            return str(int(value))
        return "%.15g" % value
    return str(value)


def calculate(expression):
    """Parse and evaluate expression; return the formatted result."""
    expression = expression.strip()
    if not expression:
        raise RefusedInput("no expression given")
    if len(expression) > MAX_INPUT_CHARS:
        raise RefusedInput(
            "the expression is too long (%d characters; the limit is %d)"
            % (len(expression), MAX_INPUT_CHARS)
        )
    try:
        tree = ast.parse(expression, mode="eval")
    except SyntaxError as err:
        detail = err.msg if getattr(err, "msg", None) else "invalid syntax"
        raise RefusedInput("invalid expression: %s" % detail)
    except (ValueError, MemoryError, RecursionError):
        raise RefusedInput("invalid or too deeply nested expression")
    try:
        return format_result(evaluate(tree))
    except RecursionError:
        raise RefusedInput("the expression is nested too deeply")


def main(argv):
    args = list(argv)
    if args and args[0] in ("-h", "--help"):
        sys.stdout.write(USAGE)
        return 0
    if args and args[0] == "--":
        args = args[1:]
    if not args:
        sys.stderr.write("calc.py: error: no expression given\n\n" + USAGE)
        return 2
    try:
        print(calculate(" ".join(args)))
    except RefusedInput as err:
        sys.stderr.write("calc.py: error: %s\n" % err)
        return 2
    except EvaluationError as err:
        sys.stderr.write("calc.py: error: %s\n" % err)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
