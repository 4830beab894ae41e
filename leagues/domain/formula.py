"""The points formula language: a safe arithmetic expression over a finish (docs/leagues.md).

Parsed with Python's `ast` and evaluated by walking an allow-list of nodes, never `eval`:
numbers, + - * / ** %, unary minus and plus, parentheses, the names `n` (field size), `p`
(place), `b` (buy-in in the currency unit), `k` (bounties won, counted in starting bounties)
and the functions sqrt, ln, log10, min, max, round, floor, ceil, abs.

A formula is compiled once into a tree of closures; every error while parsing or evaluating is
a `FormulaError` with a message for a person.
"""

from __future__ import annotations

import ast
import math
import operator
from collections.abc import Callable, Iterator
from dataclasses import dataclass

MAX_LENGTH = 300
MAX_DEPTH = 40
# The largest number a formula may produce or hold: points are shown with two decimals.
LIMIT = 1e12

VARIABLES = ("n", "p", "b", "k")
FUNCTIONS = ("sqrt", "ln", "log10", "min", "max", "round", "floor", "ceil", "abs")

Scope = dict[str, float]
Node = Callable[[Scope], float]


class FormulaError(ValueError):
    """A formula refused: `code` names the reason, `str()` says it in English; the message's
    parts (`values`) let the caller say it in the reader's language."""

    def __init__(self, code: str, message: str, **values: object) -> None:
        super().__init__(message)
        self.code = code
        self.values = values


def _finite(x: float) -> float:
    if isinstance(x, complex) or math.isnan(x) or math.isinf(x) or abs(x) > LIMIT:
        raise FormulaError("overflow", "The formula gives a number out of range.")
    return x


def _divide(a: float, b: float) -> float:
    if b == 0:
        raise FormulaError("zero", "The formula divides by zero.")
    return a / b


def _modulo(a: float, b: float) -> float:
    if b == 0:
        raise FormulaError("zero", "The formula divides by zero.")
    return math.fmod(a, b)


def _power(a: float, b: float) -> float:
    if a == 0 and b < 0:
        raise FormulaError("zero", "The formula divides by zero.")
    if a < 0 and not float(b).is_integer():
        raise FormulaError("negative", "The formula takes a root of a negative number.")
    if abs(b) > 1000:
        raise FormulaError("overflow", "The formula gives a number out of range.")
    try:
        return _finite(math.pow(a, b))
    except OverflowError as exc:
        raise FormulaError("overflow", "The formula gives a number out of range.") from exc


def _sqrt(x: float) -> float:
    if x < 0:
        raise FormulaError("negative", "The formula takes the square root of a negative number.")
    return math.sqrt(x)


def _log(fn: Callable[[float], float]) -> Callable[[float], float]:
    def log(x: float) -> float:
        if x <= 0:
            raise FormulaError("log", "The formula takes the logarithm of zero or less.")
        return fn(x)

    return log


def round_half_up(x: float, digits: int = 0) -> float:
    """Commercial rounding (half away from zero), not Python's round-half-even."""
    scale = 10.0**digits
    return math.copysign(math.floor(abs(x) * scale + 0.5) / scale, x)


def _round(x: float, digits: float = 0) -> float:
    if not float(digits).is_integer() or not 0 <= digits <= 6:
        raise FormulaError("digits", "round(x, d) takes 0 to 6 decimal places.")
    return round_half_up(x, int(digits))


_BINARY: dict[type[ast.operator], Callable[[float, float], float]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: _divide,
    ast.Mod: _modulo,
    ast.Pow: _power,
}
# name -> (function, least and most arguments)
_FUNCTIONS: dict[str, tuple[Callable[..., float], int, int]] = {
    "sqrt": (_sqrt, 1, 1),
    "ln": (_log(math.log), 1, 1),
    "log10": (_log(math.log10), 1, 1),
    "min": (min, 2, 20),
    "max": (max, 2, 20),
    "round": (_round, 1, 2),
    "floor": (lambda x: float(math.floor(x)), 1, 1),
    "ceil": (lambda x: float(math.ceil(x)), 1, 1),
    "abs": (abs, 1, 1),
}


def _written(node: ast.AST, longest: int = 40) -> str:
    text = ast.unparse(node)
    return text if len(text) <= longest else text[: longest - 1] + "…"


def _compile(node: ast.AST, depth: int) -> Node:
    if depth > MAX_DEPTH:
        raise FormulaError("deep", "The formula is nested too deeply.")
    if isinstance(node, ast.Expression):
        return _compile(node.body, depth + 1)
    if isinstance(node, ast.Constant):
        value = node.value
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise FormulaError("syntax", "Only numbers may be written in a formula.")
        try:
            number = _finite(float(value))
        except OverflowError as exc:
            raise FormulaError("overflow", "The formula gives a number out of range.") from exc
        return lambda scope: number
    if isinstance(node, ast.Name):
        name = node.id
        if name not in VARIABLES:
            raise FormulaError("name", f"Unknown name: {name}.", name=name)
        return lambda scope: scope[name]
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        inner = _compile(node.operand, depth + 1)
        if isinstance(node.op, ast.USub):
            return lambda scope: -inner(scope)
        return inner
    if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
        op = _BINARY[type(node.op)]
        left = _compile(node.left, depth + 1)
        right = _compile(node.right, depth + 1)
        return lambda scope: _finite(op(left(scope), right(scope)))
    if isinstance(node, ast.Call):
        if not isinstance(node.func, ast.Name) or node.func.id not in _FUNCTIONS:
            # What is called, as written: `__import__("os").system`, `math.sqrt`.
            name = node.func.id if isinstance(node.func, ast.Name) else _written(node.func)
            raise FormulaError("function", f"Unknown function: {name}.", name=name)
        if node.keywords:
            raise FormulaError("syntax", "Functions take plain arguments.")
        fn, least, most = _FUNCTIONS[node.func.id]
        if not least <= len(node.args) <= most:
            raise FormulaError(
                "arguments", f"Wrong number of arguments to {node.func.id}.", name=node.func.id
            )
        args = [_compile(a, depth + 1) for a in node.args]
        return lambda scope: _finite(fn(*(a(scope) for a in args)))
    raise FormulaError(
        "syntax", "The formula may hold only numbers, n p b k, + - * / ** % and functions."
    )


@dataclass(frozen=True)
class Formula:
    text: str
    _node: Node

    def points(self, *, n: int, p: int, b: float = 0.0, k: float = 0.0) -> float:
        """The points of place `p` in a field of `n`; FormulaError when the formula fails."""
        try:
            return _finite(float(self._node({"n": n, "p": p, "b": b, "k": k})))
        except FormulaError:
            raise
        except (ArithmeticError, ValueError, TypeError, RecursionError) as exc:
            raise FormulaError("math", "The formula cannot be computed.") from exc


def formula_parse(text: str) -> Formula:
    """The formula compiled, or FormulaError (it does not parse, names something unknown)."""
    source = text.strip()
    if not source:
        raise FormulaError("empty", "Write a formula.")
    if len(source) > MAX_LENGTH:
        raise FormulaError("long", f"A formula has at most {MAX_LENGTH} characters.")
    try:
        tree = ast.parse(source.replace("^", "**"), mode="eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:
        raise FormulaError("syntax", "The formula does not parse.") from exc
    try:
        return Formula(text=source, _node=_compile(tree, 0))
    except RecursionError as exc:
        raise FormulaError("deep", "The formula is nested too deeply.") from exc


def check_grid() -> Iterator[tuple[int, int, float, float]]:
    """The (n, p, b, k) a formula must compute for before it is accepted: field sizes 2..2000
    with the first, the last and places between, buy-ins from a freeroll up, a few bounties."""
    sizes = (2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 15, 20, 27, 33, 50, 64, 99, 100, 128, 200, 333,
             500, 999, 1000, 1500, 1999, 2000)  # fmt: skip
    for n in sizes:
        places = sorted({1, 2, 3, max(1, n // 3), max(1, n // 2), max(1, n - 1), n})
        for p in places:
            for b in (0.0, 1.0, 10.0, 55.0, 1000.0):
                for k in (0.0, 1.0, 7.5):
                    yield n, p, b, k


def formula_check(text: str) -> Formula:
    """The formula, once it parses and computes for every point of `check_grid`; else a
    FormulaError naming the first (n, p, b, k) where it fails."""
    formula = formula_parse(text)
    for n, p, b, k in check_grid():
        try:
            formula.points(n=n, p=p, b=b, k=k)
        except FormulaError as exc:
            raise FormulaError(
                exc.code,
                f"{exc} (at n={n}, p={p}, b={b:g}, k={k:g})",
                n=n,
                p=p,
                b=b,
                k=k,
                at=True,
            ) from exc
    return formula
