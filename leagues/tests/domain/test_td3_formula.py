"""TD3 points formulas translated into Floor's language: real club formulas, the examples of
TD3's user guide and forum, and random formulas, each computed by Floor after translation and
by an evaluator of TD3's rules written here on its own (docs/leagues.md, "TD3 formulas")."""

from __future__ import annotations

import contextlib
import math
import re
import time

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from leagues.domain.formula import EVERY, FormulaError, formula_check, formula_parse
from leagues.domain.td3_formula import td3_translate

# --- real formulas -------------------------------------------------------------------------
# From the `PointsForPlaying: new UserFormula({Text: …})` of real TD3 3.7.2 files of two Swedish
# clubs (ORF, Koffsta), public in github.com/hkhard/tdwpimport under tdtfiles/ (first and
# latest file of each variant named).

ORF_2022 = (  # tdtfiles/saves/ORF_Poker_20220303.tdt … ORF_Poker_20231221.tdt
    'assign ("points", 0)\n'
    'assign ("T33", Round(n/3) )\n'
    'assign ("T80", Floor(n*0.9) )\n'
    'assign ("monies", totalBuyInsAmount + totalRebuysAmount + totalAddOnsAmount)\n'
    'assign ("avgBC", monies/buyins)\n'
    'assign ("temp", 10*(sqrt(n)/sqrt( (T33 + 1) ))*(1+log(avgBC+0.25))+ (numberofHits * 10))\n'
    'IF (T80 > r and T33 < r, assign("points", round(temp * pow(0.66, (r-T33))) +(numberofHits * 10) ), '
    '(IF (T33 >= r, assign ("points", (round(10*(sqrt(n)/sqrt(r))*(1+log(avgBC+0.25)))+(numberofHits * 10))))))'
)
KOFFSTA_2020 = (  # tdtfiles/saves/Old_Koffsta_Invitational_20200808.tdt, Koffsta_invitational_20230708.tdt
    'assign ("points", 0)\n'
    'assign ("T33", Round(n/3) )\n'
    'assign ("T80", Floor(n*0.9) )\n'
    'assign ("monies", totalBuyInsAmount + totalRebuysAmount + totalAddOnsAmount)\n'
    'assign ("avgBC", monies/buyins)\n'
    'assign ("temp", 10*(sqrt(n)/sqrt( (T33 + 1) ))*(1+log(avgBC+0.25))+ (numberofHits * 10))\n'
    'IF (T80 > r and T33 < r, assign("points", round(temp * pow(0.66, (r-T33) ))), '
    '(IF (T33 >= r, assign ("points", (round(10*(sqrt(n)/sqrt(r))*(1+log(avgBC+0.25)))+(numberofHits * 10))))))'
)
ORF_2024 = ORF_2022.replace('assign ("points", 0)', 'assign ("points", 1)')
# tdtfiles/saves/ORF_Poker_20240229.tdt … tdtfiles/ORF_Poker_20251009.tdt, Koffsta_20250718.tdt
ORF_REWRITTEN = (  # tdtfiles/saves/ORF_Poker_20250116.tdt … ORF_Poker_20251023.tdt
    'assign ("nSafe", max(n,1))\n'
    'assign("buyinsSafe", max(buyins,1))\n'
    'assign("T33",round(nSafe / 3))\n'
    'assign("T80", floor(nSafe * 0.9))\n'
    'assign("monies", totalBuyinsAmount + totalRebuysAmount + totalAddOnsAmount)\n'
    'assign("avgBC", monies / buyinsSafe)\n'
    'assign("scale", (10 * sqrt(nSafe)))\n'
    'assign("logTerm", 1 + log(avgBC + 0.25))\n'
    'assign("hits", (numberofHits * 10))\n'
    'assign("baseAtRank", round((scale / sqrt(r)) * logTerm))\n'
    'assign("baseFromT33", round(((scale / sqrt(T33 + 1)) * logTerm)))\n'
    'assign("decay", pow(0.66, r - T33))\n'
    'assign("points", if((T80 > r) and (T33 < r), round(baseFromT33 * decay) + hits, '
    "if(T33>= r, baseAtRank + hits, 1 + hits)))"
)
SAMPLE = "n-r+1"  # tdtfiles/saves/sample.tdt

# TD3 3.x user guide, §32 "Formulas" (a copy: github.com/hkhard/tdwpimport,
# "Tournament Director 3 Documentation.html").
GUIDE = [
    "buyins - rank + 1",
    "if(sqrt(numberOfHits * max(rank, 7)) < 15, 1, 0)",
    'assign("v", n + nr)\n'
    'assign("percent", switch(r, 1, .3, 2, .2, 3, .12, 4, .1, 5, .08, 6, .06, 7, .04, 8, .03, '
    "9, .025, 10, .02, 11, .015, 12, .01, 0))\n"
    'assign("hits", switch(nh, 1, 20, 2, 50, 3, 90, 4, 125, 5, 160, 6, 200, 7, 250, 0))\n'
    'assign("points", 0)\n'
    'if((v >= 10) && (v <= 12), assign("points", (v * 100 * percent) + if(r < 4, v, 0)))\n'
    "points + hits",
    "if(rank <= 10, 11 - rank, 0)",
    "max(11 - rank, 0)",
    "if((rank <= 10) and (numberOfHits > 0), 11 - rank, 0)",
    "n - r",
    "(n - r) * 2",
    "(1 - (r / (n + 1))) * 100",
    "round(10 * sqrt(n) / sqrt(r)) - 9",
]
# Formulas of TD3's forum (thetournamentdirector.net, "Point formulas", 2007-2016, and
# "Scoring help"), as quoted in the pages corpus.
FORUM = [
    "(n - r + 1) + m + if(r = 1, 2, 0) + nh",
    "(n-r)*3 + if(r <= mr, if(r = mr, 5, (mr-r)*10), 0) + 20 + (nh * 3)",
    "10 * sqrt(n) / sqrt(r) * 4.162",
    "10 * sqrt(n + nh) / sqrt(r) * 4.162",
    "n-r+1 + if(m, 6-r, 0) + if(r=1, 1, 0)",
]
REAL = {
    "orf-2022": ORF_2022,
    "koffsta-2020": KOFFSTA_2020,
    "orf-2024": ORF_2024,
    "orf-rewritten-2025": ORF_REWRITTEN,
    "sample": SAMPLE,
    **{f"guide-{i}": text for i, text in enumerate(GUIDE, 1)},
    **{f"forum-{i}": text for i, text in enumerate(FORUM, 1)},
}


# --- an evaluator of TD3's rules, on its own -----------------------------------------------
# TD3 user guide §32 and its cheat sheet: statements on lines or after `;`, the value of the
# last one is the formula's; names in any case; assign() gives the value it assigns; if()
# computes only the branch it takes, a missing third argument is 0; true is 1, false 0.


class TDFail(Exception):
    """Where TD3 (JavaScript) would give Infinity or NaN, Floor refuses."""


ALIASES = {
    "n": "n", "buyins": "players", "numberofplayers": "players", "r": "r", "rank": "r",
    "nh": "nh", "numberofhits": "nh", "nr": "nr", "numberofrebuys": "nr", "rebuys": "nr",
    "m": "m", "inthemoney": "m", "placed": "m", "mr": "mr", "inthemoneyrank": "mr",
    "totalbuyinsamount": "tba", "totalrebuysamount": "tra", "totaladdonsamount": "taa",
    "bc": "bc", "buyincost": "bc", "nb": "nb", "pw": "pw", "prizewinnings": "pw",
}  # fmt: skip


def td_split(text):
    return re.findall(
        r'\d*\.\d+|\d+|"[^"]*"|[A-Za-z_]\w*|&&|\|\||==|!=|>=|<=|[-+*/%=<>!(),;\n]', text
    )


class TD:
    def __init__(self, text, figures):
        self.words = [w for w in td_split(text)]
        self.at = 0
        self.vars = {name: figures[key] for name, key in ALIASES.items()}

    def run(self):
        result = 0.0
        while self.at < len(self.words):
            if self.words[self.at] in ("\n", ";"):
                self.at += 1
                continue
            result = self.level(0, True)
        if not math.isfinite(result):
            raise TDFail
        return result

    def look(self):
        while self.at < len(self.words) and self.words[self.at] == "\n" and self.depth:
            self.at += 1
        return self.words[self.at].lower() if self.at < len(self.words) else ""

    depth = 0
    LEVELS = (("or", "||"), ("and", "&&"), ("=", "==", "!=", "is"), ("<", ">", "<=", ">="),
              ("+", "-"), ("*", "/", "%"))  # fmt: skip

    def level(self, i, live):
        if i == len(self.LEVELS):
            return self.unary(live)
        left = self.level(i + 1, live)
        while self.look() in self.LEVELS[i]:
            op = self.look()
            self.at += 1
            if op in ("or", "||"):
                right = self.level(i + 1, live and not left)
                left = 1.0 if (left or right) else 0.0
            elif op in ("and", "&&"):
                right = self.level(i + 1, live and bool(left))
                left = 1.0 if (left and right) else 0.0
            else:
                right = self.level(i + 1, live)
                left = self.apply(op, left, right) if live else 0.0
        return left

    @staticmethod
    def apply(op, a, b):
        if op in ("=", "==", "is"):
            return float(a == b)
        if op == "!=":
            return float(a != b)
        if op in ("<", ">", "<=", ">="):
            return float({"<": a < b, ">": a > b, "<=": a <= b, ">=": a >= b}[op])
        if op in ("/", "%") and b == 0:
            raise TDFail
        value = {"+": a + b, "-": a - b, "*": a * b, "/": a / b if b else 0.0,
                 "%": math.fmod(a, b) if b else 0.0}[op]  # fmt: skip
        if not math.isfinite(value):
            raise TDFail
        return value

    def unary(self, live):
        word = self.look()
        if word in ("-", "+", "!", "not"):
            self.at += 1
            x = self.unary(live)
            return -x if word == "-" else x if word == "+" else float(not x)
        return self.atom(live)

    def atom(self, live):
        word = self.words[self.at]
        self.at += 1
        if word == "(":
            self.depth += 1
            x = self.level(0, live)
            self.depth -= 1
            self.close()
            return x
        if word[0].isdigit() or word[0] == ".":
            return float(word)
        name = word.lower()
        if self.look() == "(":
            self.at += 1
            self.depth += 1
            return self.call(name, live)
        if not live:
            return 0.0
        return self.vars[name]

    def close(self):
        assert self.look() == ")"
        self.at += 1

    def args(self, live):
        """Arguments up to `)`; each one computed where `live` says."""
        out = []
        while self.look() != ")":
            if self.look() == ",":
                self.at += 1
                continue
            if self.look().startswith('"'):
                out.append(self.words[self.at][1:-1].lower())
                self.at += 1
                continue
            out.append(self.level(0, live))
        return out

    def call(self, name, live):
        if name == "if":
            test = self.level(0, live)
            self.at += 1  # ,
            yes = self.level(0, live and bool(test))
            no = 0.0
            if self.look() == ",":
                self.at += 1
                no = self.level(0, live and not test)
            self.depth -= 1
            self.close()
            return yes if test else no
        args = self.args(live)
        self.depth -= 1
        self.close()
        if not live:
            return 0.0
        if name == "assign":
            self.vars[args[0]] = args[1]
            return args[1]
        x = args[0] if args else 0.0
        if name == "sqrt":
            if x < 0:
                raise TDFail
            return math.sqrt(x)
        if name in ("log", "ln"):
            if x <= 0:
                raise TDFail
            return math.log(x)
        if name in ("pow", "power"):
            if (x < 0 and not float(args[1]).is_integer()) or (x == 0 and args[1] < 0):
                raise TDFail
            try:
                return math.pow(x, args[1])
            except OverflowError as exc:
                raise TDFail from exc
        if name == "round":  # JavaScript's Math.round of x * 10^d
            scale = 10 ** (args[1] if len(args) > 1 else 0)
            return math.floor(x * scale + 0.5) / scale
        if name == "switch":
            for i in range(1, len(args) - 1, 2):
                if args[0] == args[i]:
                    return args[i + 1]
            return args[-1] if len(args) % 2 == 0 else 0.0
        simple = {"floor": math.floor, "ceil": math.ceil, "abs": abs, "max": max, "min": min}
        return float(simple[name](*args) if name in ("max", "min") else simple[name](x))


def td_value(text, figures):
    return TD(text, figures).run()


# --- the figures of a finish ---------------------------------------------------------------


@st.composite
def finishes(draw):
    n = draw(st.integers(2, 300))
    r = draw(st.integers(1, n))
    players = draw(st.integers(max(1, n // 2), n))  # re-entries make n the larger
    b = draw(st.sampled_from([0, 5, 10, 20, 50, 100, 200]))
    paid = draw(st.integers(1, max(1, n // 3)))
    return {
        "n": float(n),
        "players": float(players),
        "r": float(r),
        "nh": float(draw(st.integers(0, n - 1))),
        "nr": float(draw(st.integers(0, 5))),
        "m": 1.0 if r <= paid else 0.0,
        "mr": float(paid),
        "tba": float(n * b),
        "tra": float(draw(st.integers(0, 20)) * b),
        "taa": float(draw(st.integers(0, n)) * b // 2),
        "bc": float(b),
        "nb": float(draw(st.integers(0, 5))),
        "pw": float(draw(st.integers(0, 5000))),
    }


def floor_values(f):
    return {
        "n": f["n"], "players": f["players"], "p": f["r"], "h": f["nh"], "rebuys": f["nr"], "itm": f["m"],
        "paid_places": f["mr"], "buyins_in": f["tba"], "rebuys_in": f["tra"],
        "addons_in": f["taa"], "b": f["bc"], "k": f["nb"], "prize": f["pw"],
    }  # fmt: skip


def floor_value(formula, f):
    values = floor_values(f)
    return formula.value({name: values.get(name, 0.0) for name in formula.names})


def agree(td_text, floor_formula, f):
    try:
        expected = td_value(td_text, f)
    except TDFail:
        with pytest.raises(FormulaError):
            floor_value(floor_formula, f)
        return
    if abs(expected) > 1e12:
        with pytest.raises(FormulaError):
            floor_value(floor_formula, f)
        return
    assert floor_value(floor_formula, f) == pytest.approx(expected, rel=1e-9, abs=1e-9)


@pytest.mark.parametrize("text", REAL.values(), ids=REAL.keys())
def test_real_formulas_translate(text):
    translation = td3_translate(text)
    assert translation.ok, translation.message
    formula_check(translation.formula, given=EVERY)  # computes on the whole grid


@pytest.mark.parametrize("text", REAL.values(), ids=REAL.keys())
@settings(max_examples=150, deadline=None)
@given(f=finishes())
def test_real_formulas_give_what_td3_gives(text, f):
    formula = formula_parse(td3_translate(text).formula)
    agree(text, formula, f)


def orf_2024_by_hand(n, r, hits, money, players):
    """ORF's formula of 2024-2025 as a person reads it (the value of its last statement)."""
    t33 = math.floor(n / 3 + 0.5)
    t80 = math.floor(n * 0.9)
    avg = money / players
    temp = 10 * (math.sqrt(n) / math.sqrt(t33 + 1)) * (1 + math.log(avg + 0.25)) + hits * 10
    if t80 > r > t33:
        return math.floor(temp * 0.66 ** (r - t33) + 0.5) + hits * 10
    if t33 >= r:
        return math.floor(10 * math.sqrt(n) / math.sqrt(r) * (1 + math.log(avg + 0.25)) + 0.5) + (
            hits * 10
        )
    return 0  # the last if() has no third argument


@settings(max_examples=300, deadline=None)
@given(f=finishes())
def test_orf_formula_by_hand(f):
    formula = formula_parse(td3_translate(ORF_2024).formula)
    money = f["tba"] + f["tra"] + f["taa"]
    expected = orf_2024_by_hand(f["n"], f["r"], f["nh"], money, f["players"])
    assert floor_value(formula, f) == pytest.approx(expected)


def test_orf_winner_as_td3_3_7_2_scored_it():
    # hkhard/tdwpimport tests/unit/TdtPointsAdjustmentTest.php: TD3 3.7.2 gave the winner of
    # ORF_Poker_20260827 (20 entries of 14 players, fee 200, a surrender adding 100 to the
    # pot, 5 hits) 399 points with an adjustment of 50: 349 by the formula, which it gives
    # only with n counting entries and buyins counting players.
    formula = formula_parse(td3_translate(ORF_2024).formula)
    night = {"n": 20, "players": 14, "p": 1, "h": 5, "b": 200, "k": 0}
    night |= {"buyins_in": 20 * 200 + 100, "rebuys_in": 0, "addons_in": 0}
    assert formula.value(night) == 349
    assert formula.value(night | {"players": 20}) != 349  # were they the same figure


def test_orf_winner_examples():
    # 14 players, 200 each, 600 rebuys: 253 points for a winner with one hit; ranks from
    # T80 = floor(14 * 0.9) = 12 down get 0, the value of the formula's last if().
    formula = formula_parse(td3_translate(ORF_2024).formula)
    values = {"n": 14, "players": 14, "p": 1, "h": 1, "buyins_in": 2800, "rebuys_in": 600}
    values |= {"addons_in": 0}
    values |= {"b": 0, "k": 0}
    assert formula.value(values) == 253
    assert formula.value(values | {"p": 13, "h": 0}) == 0
    assert formula.value(values | {"p": 12, "h": 0}) == 0
    assert formula.value(values | {"p": 11, "h": 0}) == 8


def test_translation_reads_td3_notation():
    cases = {
        "r = 1": "(p == 1)",
        "r is 1": "(p == 1)",
        "!m": "(not itm)",
        "NumberOfHits * 2": "(h * 2)",
        "(r <= 3) && (nh > 0) || m": "(((p <= 3) and (h > 0)) or itm)",
        "Round(.5)": "floor(0.5 + 0.5)",
        "round(r / 4, 2)": "(floor((p / 4) * 100 + 0.5) / 100)",
        "log(8)": "ln(8)",
        "log(8, 2)": "log(8, 2)",
        "power(2, 3)": "pow(2, 3)",
        "position": "(n - p + 1)",
    }
    for td, floor in cases.items():
        assert td3_translate(td).formula == floor


def test_functions_written_out():
    for td, expected in {
        "switch(r, 1, 100, 2, 70, 3, 40)": [100, 70, 40, 0],
        "switch(r, 1, 100, 2, 70, -1)": [100, 70, -1, -1],
        "lswitch(r, 10, 20, 30)": [10, 20, 30, 30],
        "oneof(r, 2, 4)": [0, 1, 0, 1],
        "sum(r, 1, 2)": [4, 5, 6, 7],
        "product(r, 2)": [2, 4, 6, 8],
        "average(r, 3)": [2, 2.5, 3, 3.5],
        "count(1, 2, 3)": [3, 3, 3, 3],
        "triangle(r)": [1, 3, 6, 10],
        "roundToNearest(371 * r, 50)": [350, 750, 1100, 1500],
        "roundUpToNearest(371, 25 * r)": [375, 400, 375, 400],
        "roundDownToNearest(371, 100)": [300, 300, 300, 300],
    }.items():
        formula = formula_parse(td3_translate(td).formula)
        assert [formula.points(n=10, p=r) for r in (1, 2, 3, 4)] == expected, td


def test_td3_names_that_are_floor_or_python_words_are_renamed():
    text = 'assign("if", 2)\nassign("max", 3)\nassign("c1", 4)\nif(r = 1, assign("x", 1), 0)\nIF + MAX + c1'
    translation = td3_translate(text)
    assert translation.ok, translation.message
    assert formula_parse(translation.formula).points(n=5, p=1) == 9


def test_assign_inside_if_counts_only_where_the_branch_is_taken():
    text = 'assign("x", 1)\nif(r = 1, assign("x", 10), assign("x", 5))\nx * 2'
    formula = formula_parse(td3_translate(text).formula)
    assert formula.points(n=5, p=1) == 20 and formula.points(n=5, p=2) == 10
    # A value read before the same statement assigns it keeps the value it had.
    text = 'assign("a", 2)\na + assign("a", 5) + a'
    assert formula_parse(td3_translate(text).formula).points(n=5, p=1) == 12


@pytest.mark.parametrize(
    ("text", "code", "construct"),
    [
        ("", "empty", "empty"),
        ("random() * 10", "unsupported", "the function random()"),
        ("sin(r)", "unsupported", "the function sin()"),
        ("average(listPoints)", "unsupported", "the variable listpoints"),
        ("top(3, 1, 2, 3)", "unsupported", "the function top()"),
        ("chipStack / 1000", "unsupported", "the variable chipstack"),
        ("[1, 2]", "unsupported", "a list [ … ]"),
        ("r ^ 2", "unsupported", "the operator ^"),
        ("assign(x, 1)", "unsupported", 'assign() other than assign("name", value)'),
        ('a + assign("a", 1)', "unsupported", "the variable a before it is assigned"),
        ('r > 1 and assign("a", 1)', "unsupported", "assign() inside and"),
        ("if(r, 1, 2, 3)", "unsupported", "if() with 4 arguments"),
        ('totalForRake("Rake 1")', "unsupported", "the function totalforrake()"),
        ("n +", "syntax", "the formula ends too early"),
        ("n r", "syntax", "unexpected 'r'"),
        ("(n", "syntax", "expected ) but found ''"),
        ("n # 2", "syntax", "unexpected character '#'"),
        ("sqrt(1, 2)", "unsupported", "sqrt() with 2 arguments"),
        ("1 / 0", "", ""),  # translates; Floor refuses it when it computes
    ],
)
def test_unsupported_constructs_are_named(text, code, construct):
    translation = td3_translate(text)
    assert translation.code == code
    assert translation.construct == construct
    assert (translation.formula == "") == bool(code)
    if code:
        assert construct in translation.message


# --- random formulas: the translation computes what TD3's rules compute --------------------

_VARS = ["n", "r", "nh", "Rank", "numberOfHits", "bc", "m", "mr", "totalBuyinsAmount", "nr"]


@st.composite
def td_expressions(draw, assigned, depth=0):
    if depth > 3 or draw(st.integers(0, 3)) == 0:
        choice = draw(st.integers(0, 2))
        if choice == 0:
            return str(draw(st.integers(0, 20)))
        if choice == 1 and assigned:
            return draw(st.sampled_from(sorted(assigned)))
        return draw(st.sampled_from(_VARS))
    kind = draw(st.integers(0, 6))
    a = draw(td_expressions(assigned, depth + 1))
    b = draw(td_expressions(assigned, depth + 1))
    if kind == 0:
        return f"({a} {draw(st.sampled_from(['+', '-', '*', '/', '%']))} {b})"
    if kind == 1:
        return f"({a} {draw(st.sampled_from(['=', '==', '!=', '<', '>=', 'is']))} {b})"
    if kind == 2:
        return f"({a} {draw(st.sampled_from(['and', 'or', '&&', '||']))} {b})"
    if kind == 3:
        c = draw(td_expressions(assigned, depth + 1))
        return f"if({a}, {b}, {c})" if draw(st.booleans()) else f"if({a}, {b})"
    if kind == 4:
        fn = draw(st.sampled_from(["sqrt", "log", "Floor", "ceil", "abs", "Round"]))
        return f"{fn}({a})"
    if kind == 5:
        fn = draw(st.sampled_from(["max", "min", "pow", "round"]))
        return (
            f"{fn}({a}, {draw(st.integers(0, 3))})" if fn in ("pow", "round") else f"{fn}({a}, {b})"
        )
    return f"{draw(st.sampled_from(['-', '!', 'not ']))}{a}"


@st.composite
def td_programs(draw):
    assigned: set[str] = set()
    lines = []
    for _ in range(draw(st.integers(0, 4))):
        name = draw(st.sampled_from(["x", "T33", "points", "avg"]))
        value = draw(td_expressions(assigned))
        if assigned and draw(st.booleans()):
            # an assign() inside an if(), as the clubs write it, of a name assigned before
            name = draw(st.sampled_from(sorted(assigned)))
            test = draw(td_expressions(assigned))
            lines.append(f'IF({test}, assign("{name}", {value}))')
        else:
            lines.append(f'assign("{name}", {value})')
            assigned.add(name.lower())
    lines.append(draw(td_expressions(assigned)))
    return draw(st.sampled_from(["\n", "; "])).join(lines)


@settings(max_examples=300, deadline=None)
@given(text=td_programs(), f=finishes())
def test_random_formulas_give_what_td3_gives(text, f):
    translation = td3_translate(text)
    assert translation.ok, (text, translation.message)
    try:
        formula = formula_parse(translation.formula)
    except FormulaError:
        # Floor refuses a written number out of range or an overlong translation only
        assume(False)
    agree(text, formula, f)


# --- garbage -------------------------------------------------------------------------------

_TD_PIECES = st.sampled_from(
    ["assign(", '"x"', '"', "IF(", "if(", "switch(", "lswitch(", "r", "n", "nh", "T33", "(", ")",
     ",", ";", "\n", "=", "==", "!", "and", "or", "&&", "||", "1", ".5", "1e400", "-", "+", "*",
     "/", "%", "^", "[", "]", "sqrt(", "log(", "random(", "top(", " ", "#", "'"]
)  # fmt: skip


@settings(max_examples=500, deadline=None)
@given(st.one_of(st.lists(_TD_PIECES, max_size=40).map("".join), st.text(max_size=80)))
def test_garbage_is_refused_or_translated_never_an_exception(text):
    started = time.perf_counter()
    translation = td3_translate(text)
    if translation.ok:
        formula = formula_parse(translation.formula)  # it parses: td3_translate checked
        with contextlib.suppress(FormulaError):
            formula.value(dict.fromkeys(EVERY, 2.0))
    else:
        assert translation.construct and translation.message
    assert time.perf_counter() - started < 1.0


@pytest.mark.parametrize(
    "text",
    ["(" * 5000, "if(" * 3000, "-" * 4999 + "1", "n+" * 2400 + "n", 'assign("x", 1)\n' * 400],
)
def test_huge_input_is_refused_quickly(text):
    started = time.perf_counter()
    translation = td3_translate(text)
    assert not translation.ok
    assert time.perf_counter() - started < 1.0
