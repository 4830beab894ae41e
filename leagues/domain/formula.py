"""The points formula language: a safe program over a finish (docs/leagues.md).

Parsed with Python's `ast` and evaluated by walking an allow-list of nodes, never `eval`.
A formula is one or more statements, separated by `;` or new lines: `name = expression`
keeps an intermediate value, and the value of the last statement is the formula's result.
Expressions hold numbers, + - * / ** %, unary minus and plus, parentheses, comparisons
(< <= > >= == !=, true is 1 and false 0), `and`, `or`, `not`, the conditional `IF(c, a, b)`
(only the branch chosen is computed), the variables of `VARIABLES` and `EXTRA`, names assigned
before, and the functions of `FUNCTIONS`.

Bounded in size and time: at most MAX_LENGTH characters, MAX_NODES syntax nodes, MAX_DEPTH
levels of nesting and MAX_STATEMENTS statements. There are no loops, no calls of formulas and
no definitions, so one evaluation visits each node at most once: the evaluation steps are
bounded by MAX_NODES before a formula is ever run. Every number is finite: a number written
and the result within LIMIT, every value on the way within HELD.

A formula is compiled once into a tree of closures; every error while parsing or evaluating is
a `FormulaError` with a message for a person.
"""

from __future__ import annotations

import ast
import math
import operator
import re
import warnings
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass

MAX_LENGTH = 2000
MAX_DEPTH = 40
MAX_NODES = 800
MAX_STATEMENTS = 60
MAX_NAME = 30
# The largest result a formula may give (points are shown with two decimals), and the largest
# number it may hold on the way.
LIMIT = 1e12
HELD = 1e300

# The finish's figures standings give every formula.
VARIABLES = ("n", "p", "b", "k")
# Further figures of a night a caller may give (the TD3 translation uses them); a formula that
# uses one can only be scored where they are given (`Formula.names`).
EXTRA = (
    "h",  # knock-outs (hits) the player made
    "players",  # distinct players (n counts entries)
    "buyins_in",  # money in from buy-ins and re-entries, currency unit
    "rebuys_in",  # money in from rebuys
    "addons_in",  # money in from add-ons
    "pool",  # the prize pool
    "prize",  # the player's prize money
    "itm",  # 1 when the player won a prize, else 0
    "paid_places",  # places paid
    "rebuys",  # the player's rebuys
    "addons",  # the player's add-ons
    "paid",  # what the player paid in all
)
# The figures of every finish (a formula reading only these takes the fast path), and every
# figure a formula may read (league standings give them all: leagues.selectors).
STANDINGS = frozenset(VARIABLES)
EVERY = frozenset(VARIABLES + EXTRA)
CONDITIONAL = "IF"
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")

Scope = dict[str, float]
Node = Callable[[Scope], float]


class FormulaError(ValueError):
    """A formula refused: `code` names the reason, `str()` says it in English; the message's
    parts (`values`) let the caller say it in the reader's language."""

    def __init__(self, code: str, message: str, **values: object) -> None:
        super().__init__(message)
        self.code = code
        self.values = values


def _overflow() -> FormulaError:
    return FormulaError("overflow", "The formula gives a number out of range.")


def _finite(x: float, limit: float = HELD) -> float:
    """`x` when it is a number within ±`limit` (not NaN, not infinite), else an overflow. One
    comparison on the way: this runs for every operation of every evaluation."""
    try:
        if -limit <= x <= limit:  # false for NaN and the infinities
            return x
    except TypeError:  # a complex number
        pass
    raise _overflow()


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
    try:
        return _finite(math.pow(a, b))
    except OverflowError as exc:
        raise _overflow() from exc


def _sqrt(x: float) -> float:
    if x < 0:
        raise FormulaError("negative", "The formula takes the square root of a negative number.")
    return math.sqrt(x)


def _logarithm(x: float) -> None:
    if x <= 0:
        raise FormulaError("log", "The formula takes the logarithm of zero or less.")


def _ln(x: float) -> float:
    _logarithm(x)
    return math.log(x)


def _log10(x: float) -> float:
    _logarithm(x)
    return math.log10(x)


def _log(x: float, base: float = math.e) -> float:
    """The natural logarithm, or the logarithm to `base`."""
    _logarithm(x)
    _logarithm(base)
    if base == 1:
        raise FormulaError("zero", "The formula divides by zero.")
    return math.log(x) / math.log(base)


def _exp(x: float) -> float:
    if x > 700:
        raise _overflow()
    return math.exp(x)


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
_COMPARE: dict[type[ast.cmpop], Callable[[float, float], bool]] = {
    ast.Lt: operator.lt,
    ast.LtE: operator.le,
    ast.Gt: operator.gt,
    ast.GtE: operator.ge,
    ast.Eq: operator.eq,
    ast.NotEq: operator.ne,
}
# name -> (function, least and most arguments)
_FUNCTIONS: dict[str, tuple[Callable[..., float], int, int]] = {
    "sqrt": (_sqrt, 1, 1),
    "ln": (_ln, 1, 1),
    "log": (_log, 1, 2),
    "log10": (_log10, 1, 1),
    "exp": (_exp, 1, 1),
    "pow": (_power, 2, 2),
    "min": (min, 2, 20),
    "max": (max, 2, 20),
    "round": (_round, 1, 2),
    "floor": (lambda x: float(math.floor(x)), 1, 1),
    "ceil": (lambda x: float(math.ceil(x)), 1, 1),
    "abs": (abs, 1, 1),
}
FUNCTIONS = tuple(_FUNCTIONS)
RESERVED = frozenset(VARIABLES + EXTRA + FUNCTIONS + (CONDITIONAL,))


def _written(node: ast.AST, longest: int = 40) -> str:
    text = ast.unparse(node)
    return text if len(text) <= longest else text[: longest - 1] + "…"


def _syntax() -> FormulaError:
    return FormulaError(
        "syntax",
        "The formula may hold only numbers, names, + - * / ** %, comparisons, and, or, not, "
        "IF and functions.",
    )


class _Compiler:
    """Compiles one formula's statements; `known` are the names a statement may read."""

    def __init__(self) -> None:
        self.known: set[str] = set(VARIABLES + EXTRA)
        self.assigned: set[str] = set()
        self.used: set[str] = set()

    def expression(self, node: ast.AST, depth: int) -> Node:
        if depth > MAX_DEPTH:
            raise FormulaError("deep", "The formula is nested too deeply.")
        if isinstance(node, ast.Constant):
            return self._constant(node.value)
        if isinstance(node, ast.Name):
            name = node.id
            if name not in self.known:
                raise FormulaError("name", f"Unknown name: {name}.", name=name)
            if name not in self.assigned:
                self.used.add(name)
            return lambda scope: scope[name]
        if isinstance(node, ast.UnaryOp):
            inner = self.expression(node.operand, depth + 1)
            if isinstance(node.op, ast.USub):
                return lambda scope: -inner(scope)
            if isinstance(node.op, ast.UAdd):
                return inner
            if isinstance(node.op, ast.Not):
                return lambda scope: 0.0 if inner(scope) else 1.0
            raise _syntax()
        if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
            op = _BINARY[type(node.op)]
            left = self.expression(node.left, depth + 1)
            right = self.expression(node.right, depth + 1)
            return lambda scope: _finite(op(left(scope), right(scope)))
        if isinstance(node, ast.Compare):
            return self._compare(node, depth)
        if isinstance(node, ast.BoolOp):
            parts = [self.expression(v, depth + 1) for v in node.values]
            if isinstance(node.op, ast.And):
                return lambda scope: 1.0 if all(part(scope) for part in parts) else 0.0
            return lambda scope: 1.0 if any(part(scope) for part in parts) else 0.0
        if isinstance(node, ast.Call):
            return self._call(node, depth)
        raise _syntax()

    @staticmethod
    def _constant(value: object) -> Node:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise FormulaError("syntax", "Only numbers may be written in a formula.")
        try:
            number = _finite(float(value), LIMIT)
        except OverflowError as exc:
            raise _overflow() from exc
        return lambda scope: number

    def _compare(self, node: ast.Compare, depth: int) -> Node:
        """`a < b <= c` holds when each comparison holds (as in mathematics)."""
        operands = [self.expression(node.left, depth + 1)]
        operands += [self.expression(c, depth + 1) for c in node.comparators]
        ops = []
        for op in node.ops:
            if type(op) not in _COMPARE:
                raise _syntax()
            ops.append(_COMPARE[type(op)])

        def compare(scope: Scope) -> float:
            left = operands[0](scope)
            for op, operand in zip(ops, operands[1:], strict=True):
                right = operand(scope)
                if not op(left, right):
                    return 0.0
                left = right
            return 1.0

        return compare

    def _call(self, node: ast.Call, depth: int) -> Node:
        if isinstance(node.func, ast.Name) and node.func.id == CONDITIONAL:
            if node.keywords or len(node.args) != 3:
                raise FormulaError(
                    "arguments", f"Wrong number of arguments to {CONDITIONAL}.", name=CONDITIONAL
                )
            test, yes, no = (self.expression(a, depth + 1) for a in node.args)
            return lambda scope: yes(scope) if test(scope) else no(scope)
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
        args = [self.expression(a, depth + 1) for a in node.args]
        return lambda scope: _finite(fn(*(a(scope) for a in args)))

    def statement(self, node: ast.stmt) -> tuple[str | None, Node]:
        if isinstance(node, ast.Expr):
            return None, self.expression(node.value, 1)
        if isinstance(node, ast.Assign):
            if len(node.targets) != 1 or not isinstance(node.targets[0], ast.Name):
                raise FormulaError("assign", "Assign to one plain name: name = expression.")
            name = node.targets[0].id
            if name in RESERVED or len(name) > MAX_NAME or not _NAME.match(name):
                raise FormulaError("reserved", f"{name} cannot be assigned.", name=name)
            value = self.expression(node.value, 1)  # reads the value before the name is set
            self.known.add(name)
            self.assigned.add(name)
            return name, value
        raise _syntax()


def _source(text: str) -> str:
    """The text as Python reads it: `^` is a power, lines lose their indentation."""
    lines = (line.strip() for line in text.replace("^", "**").splitlines())
    return "\n".join(line for line in lines if line)


@dataclass(frozen=True)
class Formula:
    text: str
    _steps: tuple[tuple[str | None, Node], ...]
    # The figures of the finish the formula reads (of VARIABLES and EXTRA).
    names: frozenset[str] = frozenset(VARIABLES)
    # A formula of one expression over n p b k: standings' many calls go straight to it.
    _single: Node | None = None

    def value(self, values: Mapping[str, float]) -> float:
        """The formula's result for the figures `values` (every name of `names`); a
        FormulaError when it fails."""
        missing = self.names - values.keys()
        if missing:
            name = min(missing)
            raise FormulaError("unavailable", f"{name} is not given here.", name=name)
        return self._run({name: float(values[name]) for name in self.names})

    def points(
        self,
        *,
        n: int,
        p: int,
        b: float = 0.0,
        k: float = 0.0,
        more: Mapping[str, float] | None = None,
    ) -> float:
        """The points of place `p` in a field of `n`; FormulaError when the formula fails."""
        single = self._single
        if single is not None and not more:
            try:
                return _finite(float(single({"n": n, "p": p, "b": b, "k": k})), LIMIT)
            except FormulaError:
                raise
            except (ArithmeticError, ValueError, TypeError, RecursionError) as exc:
                raise FormulaError("math", "The formula cannot be computed.") from exc
        if more:
            return self.value({"n": n, "p": p, "b": b, "k": k, **more})
        if self.names.isdisjoint(EXTRA):
            return self._run({"n": n, "p": p, "b": b, "k": k})
        return self.value({"n": n, "p": p, "b": b, "k": k})

    def _run(self, scope: Scope) -> float:
        try:
            result = 0.0
            for name, node in self._steps:
                result = _finite(float(node(scope)))
                if name is not None:
                    scope[name] = result
            return _finite(result, LIMIT)
        except FormulaError:
            raise
        except (ArithmeticError, ValueError, TypeError, RecursionError) as exc:
            raise FormulaError("math", "The formula cannot be computed.") from exc


def _size(tree: ast.AST) -> int:
    count = 0
    for _node in ast.walk(tree):
        count += 1
        if count > MAX_NODES:
            break
    return count


def formula_parse(text: str) -> Formula:
    """The formula compiled, or FormulaError (it does not parse, names something unknown)."""
    source = text.strip()
    if not source:
        raise FormulaError("empty", "Write a formula.")
    if len(source) > MAX_LENGTH:
        raise FormulaError("long", f"A formula has at most {MAX_LENGTH} characters.")
    try:
        with warnings.catch_warnings():  # "invalid decimal literal" and the like: refused below
            warnings.simplefilter("ignore", SyntaxWarning)
            tree = ast.parse(_source(source), mode="exec")
    except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:
        raise FormulaError("syntax", "The formula does not parse.") from exc
    if not tree.body:
        raise FormulaError("empty", "Write a formula.")
    if len(tree.body) > MAX_STATEMENTS:
        raise FormulaError("big", "The formula is too long or too complex.")
    if _size(tree) > MAX_NODES:
        raise FormulaError("big", "The formula is too long or too complex.")
    compiler = _Compiler()
    try:
        steps = tuple(compiler.statement(node) for node in tree.body)
    except RecursionError as exc:
        raise FormulaError("deep", "The formula is nested too deeply.") from exc
    names = frozenset(compiler.used) | frozenset(VARIABLES)
    plain = len(steps) == 1 and steps[0][0] is None and names == STANDINGS
    return Formula(text=source, _steps=steps, names=names, _single=steps[0][1] if plain else None)


def example_figures(n: int, p: int, b: float, k: float) -> dict[str, float]:
    """Plausible further figures of a night for the check's grid and a season's preview (every
    entry a player who paid the buy-in, a third of the field paid)."""
    paid_places = max(1, n // 3)
    itm = 1.0 if p <= paid_places else 0.0
    return {
        "h": float(int(k)),
        "players": float(n),
        "buyins_in": n * b,
        "rebuys_in": 0.0,
        "addons_in": 0.0,
        "pool": n * b,
        "prize": itm * n * b / paid_places,
        "itm": itm,
        "paid_places": float(paid_places),
        "rebuys": 0.0,
        "addons": 0.0,
        "paid": b,
    }


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


def formula_check(text: str, *, given: frozenset[str] = STANDINGS) -> Formula:
    """The formula, once it parses, reads only figures of `given` (by default n p b k; league
    standings give EVERY) and computes for every point of `check_grid`; else a FormulaError naming the
    first (n, p, b, k) where it fails."""
    formula = formula_parse(text)
    if not formula.names <= given:
        name = min(formula.names - given)
        raise FormulaError("unavailable", f"{name} is not given here.", name=name)
    for n, p, b, k in check_grid():
        try:
            formula.points(n=n, p=p, b=b, k=k, more=example_figures(n, p, b, k))
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
