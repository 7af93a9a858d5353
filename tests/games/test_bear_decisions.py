"""Bear: one test per Decision of the rule book's "Edge cases (Decisions)", each on a stacked
deck."""

from __future__ import annotations

from games.bear import BOND
from tests.games.test_bear import STRONG_HANDS, STRONG_KITTY, act, start


def test_decision_discarded_queen_and_jack_count_toward_a_bond() -> None:
    # "a Queen and Jack of one suit among the declarer's two discards count toward a Bond, as
    # cards in the discards count as the declarer's (as in Skat)."
    state = start(STRONG_HANDS, STRONG_KITTY)
    act(state, "bid=40-S", "pass", "pass", "discard:QS,JS")
    assert state.declarer_total() == 3 + 2 + BOND  # Q 3 + J 2, and the spade Bond
    other = start(STRONG_HANDS, STRONG_KITTY)
    act(other, "bid=40-S", "pass", "pass", "discard:QS,TS")
    assert other.declarer_total() == 3 + 10  # a queen without its jack: no Bond
