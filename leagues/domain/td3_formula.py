"""The Tournament Director (TD3) points formula in Floor's formula language (docs/leagues.md).

TD3 keeps a league's "Points for playing" formula as text in each `.tdt` file
(`PointsForPlaying: new UserFormula({Text: "…"})`). Its language, as TD3's user guide (§32
"Formulas") and the formula cheat sheet describe it: statements separated by `;` or new
lines, the formula's value is the value of its last statement; `assign("name", value)`
creates or changes a variable and gives the value; `if(condition, then[, else])`; operators
+ - * / %, comparisons = == is != < <= > >=, and && or || not !; functions; variables with
aliases (`n` = `buyins` = `numberOfPlayers`, `r` = `rank`, `nh` = `numberOfHits`, …). Names
are read without regard to case (real club files write `totalBuyInsAmount` for the cheat
sheet's `totalBuyinsAmount`, `numberofHits`, `IF`, `Round`, `Floor`).

`td3_translate` reads the text as data (a tokenizer and a precedence parser of its own, no
evaluation) and writes a Floor formula with the same value for every finish, or names the
first construct Floor cannot express. An `assign()` inside an `if()` branch becomes a Floor
statement that keeps the old value unless the branch's condition holds
(`x = IF(c, value, x)`), so only the chosen branch counts, as in TD3.
"""

from __future__ import annotations

import keyword
import re
from dataclasses import dataclass, field

from leagues.domain.formula import RESERVED, FormulaError, formula_parse

MAX_SOURCE = 5000
MAX_TOKENS = 2000
MAX_NESTING = 60

# TD3 variable (lower case, aliases included) -> the Floor expression of the same figure.
VARIABLES: dict[str, str] = {
    "n": "n",
    # TD3's cheat sheet calls buyins, numberOfPlayers and n aliases; TD3 3.7.2 itself counts
    # entries (re-entries too) in n and players in buyins (docs/leagues.md, "TD3 formulas").
    "buyins": "players",
    "numberofplayers": "players",
    "r": "p",
    "rank": "p",
    "position": "(n - p + 1)",
    "nh": "h",
    "numberofhits": "h",
    "bc": "b",
    "buyincost": "b",
    "nb": "k",
    "numberofbountieswon": "k",
    "totalbuyinsamount": "buyins_in",
    "totalrebuysamount": "rebuys_in",
    "totaladdonsamount": "addons_in",
    "pot": "pool",
    "prizepool": "pool",
    "pp": "pool",
    "pw": "prize",
    "prizewinnings": "prize",
    "m": "itm",
    "placed": "itm",
    "inthemoney": "itm",
    "mr": "paid_places",
    "inthemoneyrank": "paid_places",
    "nr": "rebuys",
    "numberofrebuys": "rebuys",
    "na": "addons",
    "numberofaddons": "addons",
    "tc": "paid",
    "totalcost": "paid",
}
# TD3 function (lower case) -> the Floor function and its least and most arguments.
FUNCTIONS: dict[str, tuple[str, int, int]] = {
    "abs": ("abs", 1, 1),
    "ceil": ("ceil", 1, 1),
    "floor": ("floor", 1, 1),
    "sqrt": ("sqrt", 1, 1),
    "exp": ("exp", 1, 1),
    "log10": ("log10", 1, 1),
    "ln": ("ln", 1, 1),
    "log": ("log", 1, 2),
    "pow": ("pow", 2, 2),
    "power": ("pow", 2, 2),
    "max": ("max", 2, 20),
    "min": ("min", 2, 20),
    "round": ("round", 1, 2),
}
# Written out in Floor's terms (see `_Translator._expand`).
EXPANDED = (
    "if", "switch", "lswitch", "oneof", "sum", "product", "average", "count", "triangle",
    "roundtonearest", "rounduptonearest", "rounddowntonearest", "assign",
)  # fmt: skip


@dataclass(frozen=True)
class Translation:
    """A TD3 formula's translation: `formula` (Floor's text) when it translates, else `code`
    ("empty", "syntax", "unsupported", "floor") and `construct`, what could not be read or
    expressed, as written in the TD3 text."""

    source: str
    formula: str = ""
    code: str = ""
    construct: str = ""
    names: frozenset[str] = field(default_factory=frozenset)
    # What was refused, for a message in the reader's language (leagues/words.py): `kind`
    # (function, variable, before_assign, operator, list, text, assign, assign_logic,
    # assign_compared, arguments, parts, nesting, long, character, unexpected, expected, end,
    # empty, floor) and `name`, the construct as written (for floor: FormulaError's code).
    kind: str = ""
    name: str = ""

    @property
    def ok(self) -> bool:
        return not self.code

    @property
    def message(self) -> str:
        if self.ok:
            return "Translated."
        return {
            "empty": "The TD3 formula is empty.",
            "syntax": f"The TD3 formula does not parse: {self.construct}.",
            "unsupported": f"Floor cannot express this part of the TD3 formula: {self.construct}.",
            "floor": f"The translation is refused by Floor's formula language: {self.construct}.",
        }[self.code]


class TD3Error(ValueError):
    def __init__(self, code: str, construct: str, kind: str, name: str) -> None:
        super().__init__(construct)
        self.code = code
        self.construct = construct
        self.kind = kind
        self.name = name


# --- reading: tokens and a tree ------------------------------------------------------------

_TOKEN = re.compile(
    r"""(?P<space>[ \t\r\f\v]+)
      | (?P<newline>\n)
      | (?P<number>(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)
      | (?P<string>"[^"\n]*"|'[^'\n]*')
      | (?P<name>[A-Za-z_][A-Za-z0-9_]*)
      | (?P<op>&&|\|\||==|!=|<>|>=|<=|[-+*/%=<>!(),;\[\]^])
    """,
    re.VERBOSE,
)
_WORDS = {"and": "and", "or": "or", "not": "not", "is": "="}


@dataclass(frozen=True)
class _Token:
    kind: str  # number string name op sep end
    text: str


def _tokens(text: str) -> list[_Token]:
    out: list[_Token] = []
    depth = 0
    at = 0
    while at < len(text):
        match = _TOKEN.match(text, at)
        if match is None:
            raise TD3Error("syntax", f"unexpected character {text[at]!r}", "character", text[at])
        at = match.end()
        kind = match.lastgroup or ""
        word = match.group()
        if kind == "space":
            continue
        if kind == "newline":
            if depth == 0 and out and out[-1].kind != "sep":
                out.append(_Token("sep", "\n"))
            continue
        if kind == "name" and word.lower() in _WORDS:
            kind, word = "op", _WORDS[word.lower()]
        elif kind == "op":
            word = {"&&": "and", "||": "or", "!": "not", "==": "="}.get(word, word)
            if word == "(":
                depth += 1
            elif word == ")":
                depth = max(0, depth - 1)
            elif word == ";":
                kind = "sep"
        out.append(_Token(kind, word))
        if len(out) > MAX_TOKENS:
            raise TD3Error(
                "unsupported",
                f"a formula of more than {MAX_TOKENS} parts",
                "parts",
                str(MAX_TOKENS),
            )
    out.append(_Token("end", ""))
    return out


@dataclass(frozen=True)
class Num:
    text: str


@dataclass(frozen=True)
class Str:
    text: str


@dataclass(frozen=True)
class Var:
    name: str  # lower case


@dataclass(frozen=True)
class Call:
    name: str  # lower case
    args: tuple[Expr, ...]


@dataclass(frozen=True)
class Unary:
    op: str  # - + not
    operand: Expr


@dataclass(frozen=True)
class Binary:
    op: str
    left: Expr
    right: Expr


@dataclass(frozen=True)
class Raw:
    """A Floor expression already written (a value kept in a temporary name)."""

    text: str


Expr = Num | Str | Var | Call | Unary | Binary | Raw

# Binding power of the binary operators (higher binds tighter), as in JavaScript.
_BINARY = {
    "or": 1,
    "and": 2,
    "=": 3,
    "!=": 3,
    "<": 4,
    ">": 4,
    "<=": 4,
    ">=": 4,
    "+": 5,
    "-": 5,
    "*": 6,
    "/": 6,
    "%": 6,
}
_UNARY_POWER = 7


class _Parser:
    def __init__(self, tokens: list[_Token]) -> None:
        self.tokens = tokens
        self.at = 0

    def peek(self) -> _Token:
        return self.tokens[self.at]

    def take(self) -> _Token:
        token = self.tokens[self.at]
        self.at += 1
        return token

    def statements(self) -> list[Expr]:
        out: list[Expr] = []
        while self.peek().kind != "end":
            if self.peek().kind == "sep":
                self.take()
                continue
            out.append(self.expression(0, 0))
            token = self.peek()
            if token.kind not in ("sep", "end"):
                raise TD3Error("syntax", f"unexpected {token.text!r}", "unexpected", token.text)
        return out

    def expression(self, power: int, depth: int) -> Expr:
        if depth > MAX_NESTING:
            raise TD3Error(
                "unsupported", f"nesting deeper than {MAX_NESTING}", "nesting", str(MAX_NESTING)
            )
        left = self.prefix(depth)
        while True:
            token = self.peek()
            if token.kind != "op":
                return left
            if token.text in ("<>", "^", "[", "]"):
                raise TD3Error("unsupported", f"the operator {token.text}", "operator", token.text)
            bind = _BINARY.get(token.text)
            if bind is None or bind <= power:
                return left
            self.take()
            right = self.expression(bind, depth + 1)
            left = Binary(token.text, left, right)

    def prefix(self, depth: int) -> Expr:
        token = self.take()
        if token.kind == "number":
            return Num(token.text)
        if token.kind == "string":
            return Str(token.text[1:-1])
        if token.kind == "name":
            if self.peek().text == "(" and self.peek().kind == "op":
                self.take()
                return Call(token.text.lower(), self.arguments(depth))
            return Var(token.text.lower())
        if token.kind == "op" and token.text in ("-", "+", "not"):
            return Unary(token.text, self.expression(_UNARY_POWER, depth + 1))
        if token.kind == "op" and token.text == "(":
            inner = self.expression(0, depth + 1)
            self.expect(")")
            return inner
        if token.kind == "op" and token.text == "[":
            raise TD3Error("unsupported", "a list [ … ]", "list", "[ … ]")
        if token.kind == "end":
            raise TD3Error("syntax", "the formula ends too early", "end", "")
        raise TD3Error("syntax", f"unexpected {token.text!r}", "unexpected", token.text)

    def arguments(self, depth: int) -> tuple[Expr, ...]:
        args: list[Expr] = []
        if self.peek().text == ")" and self.peek().kind == "op":
            self.take()
            return ()
        while True:
            args.append(self.expression(0, depth + 1))
            token = self.take()
            if token.kind == "op" and token.text == ")":
                return tuple(args)
            if not (token.kind == "op" and token.text == ","):
                raise TD3Error(
                    "syntax", f"expected , or ) but found {token.text!r}", "expected", token.text
                )

    def expect(self, text: str) -> None:
        token = self.take()
        if token.kind != "op" or token.text != text:
            raise TD3Error(
                "syntax", f"expected {text} but found {token.text!r}", "expected", token.text
            )


def td3_parse(text: str) -> list[Expr]:
    """TD3's statements as a tree, or TD3Error."""
    return _Parser(_tokens(text)).statements()


# --- writing Floor's formula -------------------------------------------------------------


def _effects(node: Expr) -> bool:
    """Whether evaluating `node` assigns a variable."""
    if isinstance(node, Call):
        return node.name == "assign" or any(_effects(a) for a in node.args)
    if isinstance(node, Unary):
        return _effects(node.operand)
    if isinstance(node, Binary):
        return _effects(node.left) or _effects(node.right)
    return False


def _targets(node: Expr) -> list[str]:
    """The variables `node` assigns, in the order TD3 evaluates them."""
    if isinstance(node, Call):
        found = [t for a in node.args for t in _targets(a)]
        if node.name == "assign" and node.args and isinstance(node.args[0], Str):
            found.append(node.args[0].text.lower())
        return found
    if isinstance(node, Unary):
        return _targets(node.operand)
    if isinstance(node, Binary):
        return _targets(node.left) + _targets(node.right)
    return []


class _Translator:
    def __init__(self) -> None:
        self.lines: list[str] = []
        self.binding: dict[str, str] = {}  # TD3 user variable -> its Floor name
        self.taken: set[str] = set(RESERVED) | set(keyword.kwlist)
        self.pending: list[str] = []  # variables the statement still assigns, in order
        self.serial = 0

    def fresh(self, stem: str) -> str:
        while True:
            self.serial += 1
            name = f"{stem}{self.serial}"
            if name not in self.taken:
                self.taken.add(name)
                return name

    def name_for(self, variable: str) -> str:
        if variable in self.binding:
            return self.binding[variable]
        plain = re.fullmatch(r"[a-z_][a-z0-9_]{0,24}", variable) is not None
        name = variable if plain and variable not in self.taken else self.fresh("v_")
        self.taken.add(name)
        return name

    def keep(self, value: str, guard: str | None, stem: str = "t") -> str:
        """`value` kept in a new name (computed only where `guard` holds, else 0)."""
        name = self.fresh(stem)
        self.lines.append(f"{name} = {value if guard is None else f'IF({guard}, {value}, 0)'}")
        return name

    def statement(self, node: Expr, last: bool) -> str | None:
        self.pending = _targets(node)
        if not last and not _effects(node):
            return None  # its value is not used and it changes nothing
        return self.expr(node, None)

    def expr(self, node: Expr, guard: str | None) -> str:
        if isinstance(node, Num):
            text = node.text
            return f"0{text}" if text.startswith(".") else text
        if isinstance(node, Raw):
            return node.text
        if isinstance(node, Str):
            raise TD3Error("unsupported", f'the text "{node.text}"', "text", node.text)
        if isinstance(node, Var):
            return self.read(node.name)
        if isinstance(node, Unary):
            inner = self.expr(node.operand, guard)
            return f"(not {inner})" if node.op == "not" else f"({node.op}{inner})"
        if isinstance(node, Binary):
            if node.op in ("and", "or") and (_effects(node.left) or _effects(node.right)):
                raise TD3Error("unsupported", f"assign() inside {node.op}", "assign_logic", node.op)
            left = self.expr(node.left, guard)
            right = self.expr(node.right, guard)
            op = "==" if node.op == "=" else node.op
            return f"({left} {op} {right})"
        return self.call(node, guard)

    def read(self, variable: str) -> str:
        if variable in self.binding:
            current = self.binding[variable]
        elif variable in VARIABLES:
            current = VARIABLES[variable]
        else:
            later = " before it is assigned" if variable in self.pending else ""
            kind = "before_assign" if later else "variable"
            raise TD3Error("unsupported", f"the variable {variable}{later}", kind, variable)
        if variable in self.pending:
            # Assigned further on in this statement: TD3 reads the value before.
            return self.keep(current, None, "was")
        return current

    def call(self, node: Call, guard: str | None) -> str:
        name, args = node.name, node.args
        if name == "assign":
            return self.assign(node, guard)
        if name == "if":
            if len(args) not in (2, 3):
                raise TD3Error(
                    "unsupported", f"if() with {len(args)} arguments", "arguments", "if()"
                )
            return self.conditional(
                args[0], args[1], args[2] if len(args) == 3 else Num("0"), guard
            )
        if name in EXPANDED:
            return self.expr(self.expand(node, guard), guard)
        if name not in FUNCTIONS:
            raise TD3Error("unsupported", f"the function {name}()", "function", f"{name}()")
        floor_name, least, most = FUNCTIONS[name]
        if not least <= len(args) <= most:
            raise TD3Error(
                "unsupported", f"{name}() with {len(args)} arguments", "arguments", f"{name}()"
            )
        if name in ("log", "ln") and len(args) == 1:
            floor_name = "ln"
        if name == "round":
            return self.rounded(args, guard)
        written = ", ".join(self.expr(a, guard) for a in args)
        return f"{floor_name}({written})"

    def rounded(self, args: tuple[Expr, ...], guard: str | None) -> str:
        """TD3's round() is JavaScript's Math.round: halves go up (-2.5 to -2), where Floor's
        round() goes away from zero; for d places, Math.round(x * 10^d) / 10^d."""
        x = self.expr(args[0], guard)
        if len(args) == 1:
            return f"floor({x} + 0.5)"
        places = args[1]
        if isinstance(places, Num) and places.text.isdigit() and int(places.text) <= 15:
            scale = str(10 ** int(places.text))
        else:
            scale = f"pow(10, {self.expr(places, guard)})"
        return f"(floor({x} * {scale} + 0.5) / {scale})"

    def assign(self, node: Call, guard: str | None) -> str:
        args = node.args
        if len(args) != 2 or not isinstance(args[0], Str):
            raise TD3Error(
                "unsupported", 'assign() other than assign("name", value)', "assign", "assign()"
            )
        variable = args[0].text.lower()
        value = self.expr(args[1], guard)
        if variable in self.pending:
            self.pending.remove(variable)
        before = self.binding.get(variable) or VARIABLES.get(variable) or "0"
        target = self.name_for(variable)
        self.binding[variable] = target
        if guard is None:
            self.lines.append(f"{target} = {value}")
        else:
            self.lines.append(f"{target} = IF({guard}, {value}, {before})")
        return target

    def conditional(self, test: Expr, yes: Expr, no: Expr, guard: str | None) -> str:
        condition = self.expr(test, guard)
        if not (_effects(yes) or _effects(no)):
            return f"IF({condition}, {self.expr(yes, guard)}, {self.expr(no, guard)})"
        held = self.keep(condition, guard, "c")  # 0 where the guard does not hold
        then = self.expr(yes, held)
        if not _effects(no):
            return f"IF({held}, {then}, {self.expr(no, guard)})"
        otherwise = f"(not {held})" if guard is None else self.keep(f"(not {held})", guard, "c")
        return f"IF({held}, {then}, {self.expr(no, otherwise)})"

    def simple(self, node: Expr, guard: str | None) -> Expr:
        """`node`, or its value kept in a name when repeating it would repeat work."""
        if isinstance(node, Num | Var | Raw) and not (
            isinstance(node, Var) and node.name in self.pending
        ):
            return node
        return Raw(self.keep(self.expr(node, guard), guard, "s"))

    def expand(self, node: Call, guard: str | None) -> Expr:
        """TD3's functions Floor does not have, written with those it has."""
        name, args = node.name, node.args
        if name in ("switch", "lswitch", "oneof") and args and _effects(args[0]):
            raise TD3Error(
                "unsupported",
                f"assign() in the value {name}() compares",
                "assign_compared",
                f"{name}()",
            )
        if name == "switch" and len(args) >= 1:
            subject = self.simple(args[0], guard)
            pairs = args[1:]
            result: Expr = pairs[-1] if len(pairs) % 2 else Num("0")
            for i in range(len(pairs) - len(pairs) % 2 - 2, -1, -2):
                result = Call("if", (Binary("=", subject, pairs[i]), pairs[i + 1], result))
            return result
        if name == "lswitch" and len(args) >= 2:
            subject = self.simple(args[0], guard)
            values = args[1:]
            result = values[-1]
            for i in range(len(values) - 2, -1, -1):
                result = Call("if", (Binary("=", subject, Num(str(i + 1))), values[i], result))
            return result
        if name == "oneof" and len(args) >= 2:
            subject = self.simple(args[0], guard)
            found: Expr = Binary("=", subject, args[1])
            for other in args[2:]:
                found = Binary("or", found, Binary("=", subject, other))
            return found
        if name in ("sum", "product", "average") and args:
            total = args[0]
            for other in args[1:]:
                total = Binary("*" if name == "product" else "+", total, other)
            return Binary("/", total, Num(str(len(args)))) if name == "average" else total
        if name == "count":
            return Num(str(len(args)))
        if name == "triangle" and len(args) == 1:
            x = self.simple(args[0], guard)
            return Binary("/", Binary("*", x, Binary("+", x, Num("1"))), Num("2"))
        if name.endswith("tonearest") and len(args) == 2:
            fn = {"roundtonearest": "round", "rounduptonearest": "ceil"}.get(name, "floor")
            step = self.simple(args[1], guard)
            return Binary("*", Call(fn, (Binary("/", args[0], step),)), step)
        raise TD3Error(
            "unsupported", f"{name}() with {len(args)} arguments", "arguments", f"{name}()"
        )


def td3_translate(text: str) -> Translation:
    """The Floor formula of TD3 formula `text`, or what keeps it from being one."""
    source = text.strip()
    empty = Translation(source, code="empty", construct="empty", kind="empty")
    if not source:
        return empty
    if len(source) > MAX_SOURCE:
        construct = f"more than {MAX_SOURCE} characters"
        return Translation(source, code="unsupported", construct=construct, kind="long")
    try:
        statements = td3_parse(source)
        if not statements:
            return empty
        translator = _Translator()
        result = "0"
        for i, node in enumerate(statements):
            value = translator.statement(node, last=i == len(statements) - 1)
            if value is not None:
                result = value
        written = "\n".join([*translator.lines, result])
    except TD3Error as exc:
        return Translation(
            source, code=exc.code, construct=exc.construct, kind=exc.kind, name=exc.name
        )
    except RecursionError:
        construct = "nesting too deep"
        return Translation(
            source, code="unsupported", construct=construct, kind="nesting", name=str(MAX_NESTING)
        )
    try:
        formula = formula_parse(written)
    except FormulaError as exc:
        return Translation(source, code="floor", construct=str(exc), kind="floor", name=exc.code)
    return Translation(source, formula=written, names=formula.names)
