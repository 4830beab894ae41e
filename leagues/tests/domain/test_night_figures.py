"""The figures of a night a league formula reads (leagues.domain.points.night_figures)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from leagues.domain.points import NightFinish, night_figures

KINDS = ("buyin", "reentry", "rebuy", "addon", "carried")

finishes = st.lists(
    st.builds(
        NightFinish,
        player=st.integers(1, 8),
        prize=st.integers(0, 10**7),
        in_money=st.booleans(),
        hits=st.integers(0, 5),
    ),
    min_size=1,
    max_size=20,
)
bought = st.lists(
    st.tuples(st.integers(1, 8), st.sampled_from(KINDS), st.integers(1, 3), st.integers(0, 10**6)),
    max_size=30,
)


@given(finishes, bought, st.integers(0, 10**8))
def test_figures_add_up(rows, purchases, pool):
    out = night_figures(rows, purchases, pool=pool)
    assert len(out) == len(rows)
    players = {r.player for r in rows}
    money = sum(c for _p, kind, _m, c in purchases if kind != "carried")
    for r, f in zip(rows, out, strict=True):
        assert f["players"] == len(players)
        assert f["pool"] == pool / 100
        assert f["prize"] == r.prize / 100 and f["itm"] == (1.0 if r.in_money else 0.0)
        assert f["paid_places"] == sum(1 for x in rows if x.in_money)
        assert f["h"] == sum(x.hits for x in rows if x.player == r.player)
        mine = [(k, m, c) for p, k, m, c in purchases if p == r.player]
        assert f["rebuys"] == sum(m for k, m, _c in mine if k == "rebuy")
        assert f["addons"] == sum(m for k, m, _c in mine if k == "addon")
        assert f["paid"] == sum(c for _k, _m, c in mine) / 100
        total = round((f["buyins_in"] + f["rebuys_in"] + f["addons_in"]) * 100)
        assert total == money


def test_a_night_by_hand():
    rows = [NightFinish(1, 5000, True, 2), NightFinish(2, 0, False, 0), NightFinish(1, 0, False, 1)]
    out = night_figures(rows, [(1, "buyin", 1, 1100), (1, "reentry", 1, 1100), (2, "buyin", 1, 1100),
                               (2, "addon", 1, 500)], pool=3000)  # fmt: skip
    by = out[0]
    assert by["h"] == 3 and by["players"] == 2 and by["buyins_in"] == 33.0
    assert by["addons_in"] == 5.0 and by["paid"] == 22.0 and by["paid_places"] == 1
    assert out[1]["addons"] == 1 and out[1]["paid"] == 16.0 and out[1]["itm"] == 0
