"""The data notation The Tournament Director saves its files in, read as data (docs/td3-format.md).

A `.tdt` file is a JavaScript expression built of object literals, arrays, strings, numbers,
`true`/`false`/`null`, constructor calls (`new Tournament({...})`, `new PerPlayerRake([0])`) and
`Map.from([[key, value], ...])`. This module tokenizes it and builds Python values by recursive
descent; nothing is ever evaluated. Bounded: the text's length, the nesting depth, the length of a
number and of the file's count of values are capped, so a hostile file costs linear time and
refuses with `JsSyntaxError` and nothing else.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

MAX_CHARS = 8_000_000
MAX_DEPTH = 64
MAX_NUMBER_CHARS = 40
MAX_VALUES = 2_000_000


class JsSyntaxError(ValueError):
    """The text is not the notation: where (character offset) and what was expected."""

    def __init__(self, message: str, offset: int) -> None:
        super().__init__(f"{message} (at character {offset})")
        self.offset = offset
        self.reason = message


@dataclass(frozen=True, slots=True)
class JsNew:
    """`new Name(arg, ...)`: a constructor's name and its arguments, as data."""

    name: str
    args: tuple[JsValue, ...]


@dataclass(frozen=True, slots=True)
class JsMap:
    """`Map.from([[k, v], ...])` or `new Map({k: v})`: the entries in their order."""

    entries: tuple[tuple[JsValue, JsValue], ...]


JsValue = str | Decimal | bool | None | list["JsValue"] | dict[str, "JsValue"] | JsNew | JsMap

# One token after any white space (skipped in the same match: half the calls of a token for
# each space); a match of white space alone is the end of the text or a character not allowed.
_TOKEN = re.compile(
    r"""
    [ \t\r\n\ufeff\u00a0]*
    (?:
        (?P<str>"[^"\\\n]*(?:\\.[^"\\\n]*)*"|'[^'\\\n]*(?:\\.[^'\\\n]*)*')
      | (?P<num>-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)
      | (?P<name>[A-Za-z_$][A-Za-z0-9_$]*)
      | (?P<punct>[{}\[\]():,.])
    )?
    """,
    re.VERBOSE | re.DOTALL,
)

_ESCAPES = {
    "n": "\n",
    "t": "\t",
    "r": "\r",
    "b": "\b",
    "f": "\f",
    "v": "\v",
    "0": "\0",
    "\n": "",
}
_ESCAPE = re.compile(r"\\(u\{[0-9A-Fa-f]{1,6}\}|u[0-9A-Fa-f]{4}|x[0-9A-Fa-f]{2}|.)", re.DOTALL)


@dataclass(frozen=True, slots=True)
class _Token:
    kind: str  # "str", "num", "name", "punct", "end"
    text: str
    offset: int


def _unescape(body: str, offset: int) -> str:
    def one(match: re.Match[str]) -> str:
        code = match.group(1)
        if code.startswith("u{"):
            point = int(code[2:-1], 16)
            if point > 0x10FFFF:
                raise JsSyntaxError("an escape beyond Unicode", offset)
            return chr(point)
        if len(code) > 1:
            return chr(int(code[1:], 16))
        if code in ("u", "x"):
            raise JsSyntaxError("an incomplete escape in a string", offset)
        return _ESCAPES.get(code, code)

    text = _ESCAPE.sub(one, body)
    # A lone surrogate (from \ud800) cannot be stored or encoded: refuse it here.
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise JsSyntaxError("a string with a broken character", offset) from None
    return text


def _tokens(text: str) -> list[_Token]:
    out: list[_Token] = []
    append = out.append
    pos = 0
    end = len(text)
    match = _TOKEN.match
    limit = MAX_VALUES * 4
    while pos < end:
        found = match(text, pos)
        kind = found.lastgroup if found is not None else None
        if found is None or kind is None:
            stop = found.end() if found is not None else pos
            if stop >= end:
                break
            raise JsSyntaxError(f"an unexpected character {text[stop]!r}", stop)
        start = found.start(kind)
        append(_Token(kind, found.group(kind), start))
        if len(out) > limit:
            raise JsSyntaxError("too many values", start)
        pos = found.end()
    out.append(_Token("end", "", end))
    return out


class _Parser:
    def __init__(self, tokens: list[_Token]) -> None:
        self.tokens = tokens
        self.at = 0

    def peek(self) -> _Token:
        return self.tokens[self.at]

    def take(self) -> _Token:
        token = self.tokens[self.at]
        if token.kind != "end":
            self.at += 1
        return token

    def expect(self, text: str) -> _Token:
        token = self.take()
        if token.text != text or token.kind not in ("punct", "name"):
            got = "the end of the file" if token.kind == "end" else repr(token.text[:20])
            raise JsSyntaxError(f"expected {text!r}, found {got}", token.offset)
        return token

    def value(self, depth: int) -> JsValue:
        if depth > MAX_DEPTH:
            raise JsSyntaxError("values nested too deep", self.peek().offset)
        token = self.take()
        if token.kind == "str":
            return _unescape(token.text[1:-1], token.offset)
        if token.kind == "num":
            return _number(token)
        if token.kind == "punct":
            if token.text == "{":
                return self.object(depth + 1)
            if token.text == "[":
                return self.array(depth + 1)
        if token.kind == "name":
            return self.named(token, depth)
        got = "the end of the file" if token.kind == "end" else repr(token.text[:20])
        raise JsSyntaxError(f"expected a value, found {got}", token.offset)

    def named(self, token: _Token, depth: int) -> JsValue:
        word = token.text
        if word == "true":
            return True
        if word == "false":
            return False
        if word in ("null", "undefined"):
            return None
        if word == "new":
            name = self.take()
            if name.kind != "name":
                raise JsSyntaxError("expected a constructor's name after 'new'", name.offset)
            dotted = name.text
            while self.peek().kind == "punct" and self.peek().text == ".":
                self.take()
                part = self.take()
                if part.kind != "name" or len(dotted) > 200:
                    raise JsSyntaxError("expected a constructor's name after '.'", part.offset)
                dotted += "." + part.text
            args = self.arguments(depth + 1)
            if dotted == "Map":
                return _map_of(args, name.offset)
            return JsNew(dotted, args)
        if word == "Map" and self.peek().text == ".":
            self.take()
            self.expect("from")
            args = self.arguments(depth + 1)
            if len(args) != 1 or not isinstance(args[0], list):
                raise JsSyntaxError("Map.from takes one list of pairs", token.offset)
            return _map_from(args[0], token.offset)
        raise JsSyntaxError(f"an unknown name {word[:20]!r}", token.offset)

    def arguments(self, depth: int) -> tuple[JsValue, ...]:
        self.expect("(")
        args: list[JsValue] = []
        while self.peek().text != ")" or self.peek().kind != "punct":
            args.append(self.value(depth))
            if not self.comma_or(")"):
                break
        self.expect(")")
        return tuple(args)

    def comma_or(self, closing: str) -> bool:
        """After an item: a comma (more may follow), or the closing bracket (left for the caller)."""
        token = self.peek()
        if token.kind == "punct" and token.text == ",":
            self.take()
            return True
        if token.kind == "punct" and token.text == closing:
            return False
        got = "the end of the file" if token.kind == "end" else repr(token.text[:20])
        raise JsSyntaxError(f"expected ',' or {closing!r}, found {got}", token.offset)

    def object(self, depth: int) -> dict[str, JsValue]:
        out: dict[str, JsValue] = {}
        while not (self.peek().kind == "punct" and self.peek().text == "}"):
            key = self.take()
            if key.kind == "str":
                name = _unescape(key.text[1:-1], key.offset)
            elif key.kind in ("name", "num"):
                name = key.text
            else:
                got = "the end of the file" if key.kind == "end" else repr(key.text[:20])
                raise JsSyntaxError(f"expected a key, found {got}", key.offset)
            self.expect(":")
            out[name] = self.value(depth)
            if not self.comma_or("}"):
                break
        self.expect("}")
        return out

    def array(self, depth: int) -> list[JsValue]:
        out: list[JsValue] = []
        while not (self.peek().kind == "punct" and self.peek().text == "]"):
            out.append(self.value(depth))
            if not self.comma_or("]"):
                break
        self.expect("]")
        return out


def _number(token: _Token) -> Decimal:
    if len(token.text) > MAX_NUMBER_CHARS:
        raise JsSyntaxError("a number too long", token.offset)
    try:
        number = Decimal(token.text)
    except InvalidOperation:
        raise JsSyntaxError("a broken number", token.offset) from None
    if not number.is_finite() or abs(number.adjusted()) > 30:
        raise JsSyntaxError("a number out of range", token.offset)
    return number


def _map_from(pairs: list[JsValue], offset: int) -> JsMap:
    entries: list[tuple[JsValue, JsValue]] = []
    for pair in pairs:
        if not isinstance(pair, list) or len(pair) != 2:
            raise JsSyntaxError("Map.from takes pairs [key, value]", offset)
        entries.append((pair[0], pair[1]))
    return JsMap(tuple(entries))


def _map_of(args: tuple[JsValue, ...], offset: int) -> JsMap:
    if not args:
        return JsMap(())
    if len(args) == 1 and isinstance(args[0], dict):
        return JsMap(tuple(args[0].items()))
    if len(args) == 1 and isinstance(args[0], list):
        return _map_from(args[0], offset)
    raise JsSyntaxError("new Map takes an object or a list of pairs", offset)


def parse(text: str) -> JsValue:
    """The one value `text` holds; `JsSyntaxError` when it is not the notation, or too big."""
    if len(text) > MAX_CHARS:
        raise JsSyntaxError(f"more than {MAX_CHARS} characters", MAX_CHARS)
    parser = _Parser(_tokens(text))
    result = parser.value(0)
    rest = parser.peek()
    if rest.kind != "end":
        raise JsSyntaxError(f"text after the end: {rest.text[:20]!r}", rest.offset)
    return result
