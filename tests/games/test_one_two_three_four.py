"""1234: every example and Decision of docs/rules/1234.md, and each option's effect."""

from __future__ import annotations

import random

import pytest

import games
from games import IllegalAction, seats
from games.ai import get_player, observe
from games.cards import Card, parse_many, standard_deck
from games.one_two_three_four import OneTwoThreeFourState, card_value, is_pass

RULES = games.get("1234")


def deck_for(
    players: int, dealer: int, hands: dict[int, str], start: str, stock: str = ""
) -> list[str]:
    """A first-deal deck: 5 each one at a time from the dealer's left, the start card, stock."""
    given = {s: h.split() for s, h in hands.items()}
    used = {c for h in given.values() for c in h} | {start, *stock.split()}
    spare = [str(c) for c in standard_deck() if str(c) not in used]
    for s in range(players):
        while len(given.setdefault(s, [])) < 5:
            given[s].append(spare.pop())
    order = [given[s][i] for i in range(5) for s in seats.iter_from(seats.left(dealer, players),
                                                                   players)]
    return [*order, start, *stock.split(), *spare]


def new(players: int, dealer: int, hands: dict[int, str], start: str, stock: str = "",
        **options: object) -> OneTwoThreeFourState:
    state = RULES.new_game(players, seed=1, options={"dealer": dealer, **options},
                           deck=deck_for(players, dealer, hands, start, stock))
    assert isinstance(state, OneTwoThreeFourState)
    return state


def shorten_stock(state: OneTwoThreeFourState, keep: int) -> None:
    """Leave only the top ``keep`` stock cards (the others go to the table: cards conserved)."""
    cut = len(state.stock) - keep
    state.table.extend(state.stock[:cut])
    del state.stock[:cut]


def test_example_start_ten_queen_then_three_six_five() -> None:
    # Start card 10; Q makes 12; 3 + 6 + 5 = 14 beats it; the next needs 15-18.
    state = new(3, 0, {2: "QS AS 2C 2D 4H", 1: "3S 6H 5D AH 8C", 0: "AD 9S 9C 7C 8D"}, "TS")
    assert state.view(None)["number_to_beat"] == 10
    assert state.to_act == (2,)
    state.apply(2, "play:QS")
    assert state.view(None)["number_to_beat"] == 12
    assert state.to_act == (1,)
    state.apply(1, "play:3S,6H,5D")
    assert state.view(None)["number_to_beat"] == 14
    totals = {sum(card_value(c) for c in a.cards)
              for a in state.legal_actions(0) if a.kind == "play"}
    assert totals and totals <= {15, 16, 17, 18}
    with pytest.raises(IllegalAction, match="15 to 18"):
        state.apply(0, "play:9S,9C,AD")  # 19


def test_play_must_total_one_to_four_more() -> None:
    state = new(2, 0, {1: "5S 4H AS 9D 2C", 0: "AD 3S 3C 7C 8D"}, "4S")
    with pytest.raises(IllegalAction):
        state.apply(1, "play:4H")  # equal is not enough
    with pytest.raises(IllegalAction):
        state.apply(1, "play:9D")  # 5 more is too much
    before = state.view(1)
    with pytest.raises(IllegalAction):
        state.apply(1, "play:9D,2C")
    assert state.view(1) == before
    state.clone().apply(1, "play:5S")  # +1
    state.apply(1, "play:AS,2C,5S")  # 8 = +4
    assert state.view(None)["number_to_beat"] == 8


def test_pass_single_ace_keeps_the_number() -> None:
    state = new(2, 0, {1: "AS 2H 3D 4C 6S", 0: "AD 3S 3C 7C 8D"}, "KS")
    state.apply(1, "pass:AS")
    assert state.view(None)["number_to_beat"] == 13
    assert state.to_act == (0,)


@pytest.mark.parametrize(
    ("cards", "ok"),
    [
        ("AS", True),
        ("2S", False),
        ("5S 5H KD", True),  # two number cards of a rank plus a court
        ("AS AH JD", True),  # aces are number cards
        ("JS JH 5D", False),  # a pair of courts plus a number is not a pass
        ("5S 5H 6D", False),
        ("2S 9S KS", True),  # three of a suit, courts allowed
        ("QS QH QD", True),  # three of a rank, courts too
        ("7S 7H 7D", True),
        ("3S 3H 5D 5C", True),  # two pairs of number cards
        ("3S 3H JD JC", False),  # court pairs do not count
        ("2S 9S KS 4S", False),  # four of a suit is no combination
        ("3S 3H 5D 6C", False),
    ],
)
def test_pass_combinations(cards: str, ok: bool) -> None:
    assert is_pass(games.cards.parse_many(cards)) is ok


def test_decision_two_pairs_may_share_a_rank() -> None:
    assert is_pass(games.cards.parse_many("5S 5H 5D 5C"))
    state = new(2, 0, {1: "5S 5H 5D 5C KS", 0: "AD 3S 3C 7C 8D"}, "KH")
    assert any(a.kind == "pass" and len(a.cards) == 4 for a in state.legal_actions(1))
    state.apply(1, "pass:5S,5H,5D,5C")
    assert state.view(1)["hand_counts"][1] == 4  # drew 3 at most


def test_deal_five_each_from_dealers_left_then_start_card() -> None:
    deck = [str(c) for c in standard_deck()]
    state = RULES.new_game(3, seed=1, options={"dealer": 1}, deck=deck)
    assert state.view(2)["hand"] == deck[0:15:3]  # dealer's left first
    assert state.view(0)["hand"] == deck[1:15:3]
    assert state.view(1)["hand"] == deck[2:15:3]
    assert state.view(None)["start_card"] == deck[15]
    assert state.view(None)["stock"] == 52 - 16


def test_two_players_non_dealer_first() -> None:
    state = new(2, 1, {0: "AS 2H 3D 4C 6S", 1: "AD 3S 3C 7C 8D"}, "KS")
    assert state.to_act == (0,)
    state.apply(0, "pass:AS")
    assert state.to_act == (1,)


def test_three_or_more_dealers_right_first_then_counter_clockwise() -> None:
    hands = {0: "AS 2H 3D 4C 6S", 1: "AD 3S 3C 7C 8D", 2: "AH 4S 4D 9C 9H", 3: "AC 5S 5D TC TH"}
    state = new(4, 0, hands, "KS")
    order = [state.to_act[0]]
    for _ in range(3):
        seat = state.to_act[0]
        ace = next(a for a in state.legal_actions(seat) if a.kind == "pass" and len(a.cards) == 1)
        state.apply(seat, ace)
        order.append(state.to_act[0])
    assert order == [3, 2, 1, 0]


def test_draw_back_to_five_but_at_most_three() -> None:
    state = new(2, 0, {1: "AS 2H 3D 4C 6S", 0: "AD 3S 3C 7C 8D"}, "5S")
    state.apply(1, "play:AS,2H,3D")  # 6 beats 5; three cards down, three drawn
    assert state.view(1)["hand_counts"][1] == 5
    state.apply(0, "play:AD,3S,3C")  # 7
    assert state.view(0)["hand_counts"][0] == 5
    state2 = new(2, 0, {1: "AS 2H 3D 4C 6S", 0: "AD 3S 3C 7C 8D"}, "KS")
    state2.apply(1, "play:AS,2H,3D,4C,6S")  # 16
    assert state2.view(1)["hand_counts"][1] == 3


def test_automatic_drop_out_hides_the_hand() -> None:
    # K to beat (14-17 needed): K Q J T 9 has no play (singles too small, pairs 19+) and no pass.
    hands = {2: "KS QH JD TC 9S", 1: "AS 2H 3D 4C 6S", 0: "AD 3S 3C 7C 8D"}
    state = new(3, 0, hands, "KH")
    assert state.view(None)["live"] == [True, True, False]
    assert state.to_act == (1,)
    other = state.view(1)
    assert other["hand_counts"][2] == 5
    assert "KS" not in str(other.to_dict())
    assert state.view(2)["hand"] == ["KS", "QH", "JD", "TC", "9S"]
    sampled = state.determinize(1, random.Random(3))
    assert sampled.view(1) == state.view(1)
    assert any(sorted(state.determinize(1, random.Random(k)).hands[2]) != sorted(state.hands[2])
               for k in range(5))


def test_a_player_who_can_act_cannot_drop_out() -> None:
    state = new(2, 0, {1: "AS 2H 3D 4C 6S", 0: "AD 3S 3C 7C 8D"}, "KS")
    with pytest.raises(IllegalAction):
        state.apply(1, "drop")
    assert {a.kind for a in state.legal_actions(1)} <= {"play", "pass"}


def test_last_player_standing_wins() -> None:
    hands = {1: "AS 2H 3D 4C 6S", 0: "KS QH JD TC 9S"}
    state = new(2, 0, hands, "KH", games=1)
    state.apply(1, "pass:AS")  # seat 0 cannot act and drops out: seat 1 is last in
    assert state.over
    assert state.outcome is not None and state.outcome.winners == (1,)


def test_stock_running_out_ends_after_that_draw_highest_card_wins() -> None:
    hands = {2: "AS 2H 3D 4C 6S", 1: "KD 3S 3C 7C 8D", 0: "QC 9H 9D 5C 5H"}
    state = new(3, 0, hands, "KH", stock="2S 4S", games=1)
    shorten_stock(state, 2)
    state.apply(2, "pass:AS")  # draws one card, 2S; one left
    assert not state.over
    state.apply(1, "pass:3S,3C,KD")  # a pair plus a court; draws 4S, the last card
    assert state.over
    assert state.outcome is not None
    assert state.outcome.winners == (0,)  # seat 0 holds Q; seat 1 holds 7 8 4; seat 2 lower


def test_stock_out_ties_broken_by_next_card_and_equal_hands_share() -> None:
    hands = {2: "AS 2H 3D 4C 2S", 1: "KD 9S 5C 3H 2D", 0: "KC 9C 5H 3S 2C"}
    state = new(3, 0, hands, "QH", stock="4S", games=1)
    shorten_stock(state, 1)
    state.apply(2, "pass:AS")
    assert state.over and state.outcome is not None
    assert state.outcome.winners == (0, 1)  # K 9 5 3 2 each: a shared win
    hands = {2: "AS 2H 3D 4C 2S", 1: "KD 9S 5C 3H 2D", 0: "KC 9C 6H 3S 2C"}
    state = new(3, 0, hands, "QH", stock="4S", games=1)
    shorten_stock(state, 1)
    state.apply(2, "pass:AS")
    assert state.outcome is not None and state.outcome.winners == (0,)  # 6 beats 5


def test_chips_losers_pay_their_hand_totals_to_the_winner() -> None:
    hands = {1: "AS 2H 3D 4C 6S", 0: "KS QH JD TC 9S"}
    state = new(2, 0, hands, "KH")
    state.apply(1, "pass:AS")
    assert state.view(None)["last_game"]["totals"][0] == 55
    assert state.scores() == [45.0, 155.0]
    assert state.view(None)["dealer"] == 1  # the winner deals the next game
    assert state.view(None)["deal"] == 2


def test_option_chips_caps_the_payment_and_ends_the_series() -> None:
    hands = {1: "AS 2H 3D 4C 6S", 0: "KS QH JD TC 9S"}
    state = new(2, 0, hands, "KH", chips=20)
    state.apply(1, "pass:AS")
    assert state.scores() == [0.0, 40.0]  # paid what they had
    assert state.over and state.outcome is not None and state.outcome.winners == (1,)


def test_option_scoring_winner_scores_the_losers_totals() -> None:
    hands = {1: "AS 2H 3D 4C 6S", 0: "KS QH JD TC 9S"}
    state = new(2, 0, hands, "KH", scoring="winner", target=50)
    state.apply(1, "pass:AS")
    assert state.scores() == [0.0, 55.0]
    assert state.over  # the target was reached


def test_option_scoring_penalty_scores_own_totals() -> None:
    hands = {1: "AS 2H 3D 4C 6S", 0: "KS QH JD TC 9S"}
    state = new(2, 0, hands, "KH", scoring="penalty", games=2)
    state.apply(1, "pass:AS")
    assert state.scores() == [55.0, 0.0]
    assert not state.over and state.view(None)["deal"] == 2


def test_option_games_sets_the_series_length() -> None:
    for count in (1, 3):
        state = RULES.new_game(3, seed=4, options={"games": count, "scoring": "penalty"})
        rng = random.Random(0)
        while not state.over:
            seat = state.to_act[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
        assert state.deal_number == count


def test_option_dealer() -> None:
    assert RULES.new_game(4, seed=2, options={"dealer": 3}).view(None)["dealer"] == 3


def test_single_game_winner_is_the_games_winner() -> None:
    hands = {1: "AS 2H 3D 4C 6S", 0: "KS QH JD TC 9S"}
    state = new(2, 0, hands, "KH", games=1, scoring="penalty")
    state.apply(1, "pass:AS")
    assert state.outcome is not None and state.outcome.places == (2, 1)


def test_texts_in_both_languages() -> None:
    state = new(2, 0, {1: "AS 2H 3D 4C 6S", 0: "AD 3S 3C 7C 8D"}, "5S")
    events = state.apply(1, "play:AS,2H,3D")
    for lang in ("en", "ja"):
        assert RULES.action_text(games.Action.parse("play:AS,2H,3D"), lang)
        assert all(RULES.event_text(e.for_seat(None), lang) for e in events)
        assert RULES.view_text(state.view(0), lang)


def test_basic_player_beats_random_players() -> None:
    wins = 0
    for seed in range(30):
        state = RULES.new_game(4, seed=seed, options={"games": 3})
        rng = random.Random(seed)
        players = [get_player("normal" if s == 0 else "random", "1234") for s in range(4)]
        while not state.over:
            seat = state.to_act[0]
            action = players[seat].choose(observe(state, seat), rng)
            assert action in state.legal_actions(seat)
            state.apply(seat, action)
        assert state.outcome is not None
        wins += 0 in state.outcome.winners
    assert wins > 30 / 4


def test_listed_moves_are_exactly_every_play_and_pass() -> None:
    from itertools import combinations

    from games.one_two_three_four import moves_for

    rng = random.Random(9)
    deck = standard_deck()
    for _ in range(300):
        hand = rng.sample(deck, rng.randint(1, 5))
        to_beat = rng.randint(1, 40)
        expected = set()
        for k in range(1, len(hand) + 1):
            for combo in combinations(hand, k):
                key = frozenset(combo)
                if to_beat + 1 <= sum(card_value(c) for c in combo) <= to_beat + 4:
                    expected.add(("play", key))
                if is_pass(combo):
                    expected.add(("pass", key))
        listed = [(a.kind, frozenset(a.cards)) for a in moves_for(hand, to_beat)]
        assert len(listed) == len(set(listed))
        assert set(listed) == expected


def test_a_search_sample_counts_the_game_without_dealing_the_next() -> None:
    # to beat 14 after seat 1's play: seat 0's K K Q Q J make 11-13 or 23 and more, no pass
    hands = {0: "KC KD QH QS JC", 1: "9C 5D 2H 3S 4C"}
    for stop in (False, True):
        state = new(2, 0, hands, "KS")
        state.stop_at_deal_end = stop
        state.apply(1, "play:9C,5D")
        assert state.deal_number == 2 and state.game_winners == [1] and not state.over
        if stop:
            # no new deal: seat 1 holds its three cards and the two it drew
            assert state.to_act == () and state.hands[1][:3] == parse_many("2H 3S 4C")
        else:
            assert len(state.to_act) == 1 and [len(h) for h in state.hands] == [5, 5]


def random_hands(seed: int, most: int, count: int = 3000) -> list[list[Card]]:
    """``count`` random hands of 0 to ``most`` cards."""
    rng = random.Random(seed)
    deck = standard_deck()
    return [rng.sample(deck, rng.randint(0, most)) for _ in range(count)]


def test_has_pass_agrees_with_the_listed_passes() -> None:
    from games.ai.one_two_three_four import has_pass
    from games.one_two_three_four import choices_for

    found = 0
    for hand in random_hands(4, 8):
        assert has_pass(hand) == bool(choices_for(hand, 1000)[1])
        found += has_pass(hand)
    assert 500 < found < 2500


def test_playout_passes_are_the_listed_passes_in_their_order() -> None:
    from games.ai.one_two_three_four import _passes
    from games.one_two_three_four import choices_for

    found = 0
    for hand in random_hands(5, 5):
        passes = _passes(hand)
        assert [idx for _mask, idx in passes] == choices_for(hand, 1000)[1]
        assert all(mask == sum(1 << i for i in idx) for mask, idx in passes)
        found += len(passes) > 1
    assert found > 100  # hands with several passes, whose order matters


def test_playout_choice_is_the_basic_players_choice_with_the_same_draws() -> None:
    from games.ai.one_two_three_four import pick, playout_choice
    from games.one_two_three_four import choices_for

    rng = random.Random(6)
    deck = standard_deck()
    kinds = {"play": 0, "pass": 0, "none": 0, "late": 0}
    for k in range(4000):
        hand = rng.sample(deck, rng.randint(1, 5))
        to_beat = rng.randint(1, 30)
        stock, live = rng.randint(1, 30), rng.randint(2, 4)
        late = stock <= 3 * live
        choices = choices_for(hand, to_beat)
        mine, theirs = random.Random(k), random.Random(k)
        got = playout_choice(hand, to_beat, late, mine)
        if not choices[0] and not choices[1]:
            assert got is None
            kinds["none"] += 1
            continue
        assert got is not None
        kind, idx = got
        if len(choices[0]) + len(choices[1]) == 1:
            # a single move is played without a draw (as the rollout does)
            only = choices[0] or choices[1]
            assert (kind, idx) == ("play" if choices[0] else "pass", only[0])
        else:
            expected = pick(hand, choices, stock, live, theirs)
            assert (kind, tuple(hand[i] for i in idx)) == (expected.kind, expected.cards)
        assert mine.random() == theirs.random()  # the same number of draws
        kinds[kind] += 1
        kinds["late"] += late
    assert min(kinds.values()) > 200


def test_a_playout_is_the_game_the_basic_moves_make_one_by_one() -> None:
    from games.ai.one_two_three_four import play_out
    from games.ai.playouts import one_two_three_four_rollout

    rules = games.get("1234")
    ends = {"last": 0, "stock": 0}
    for g in range(60):
        state = rules.new_game(4, seed=g)
        rng = random.Random(g)
        while state.deal_number == 1:
            one, other = state.clone(), state.clone()
            for copy in (one, other):
                copy.stop_at_deal_end = True
            moves, fast = random.Random(g), random.Random(g)
            while one.deal_number == 1:
                seat = one.to_act[0]
                one.apply(seat, one_two_three_four_rollout(one, seat, moves))
            play_out(other, fast)
            assert other.deal_number == 2 and other.turn is None
            for field in ("points", "hands", "live", "stock", "table", "to_beat", "last_play",
                          "last_game", "game_winners"):
                assert getattr(one, field) == getattr(other, field), field
            assert moves.random() == fast.random()
            assert one.last_game is not None
            ends[one.last_game["why"]] += 1
            seat = state.to_act[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
    assert min(ends.values()) > 20


def test_the_search_plays_out_1234_in_one_call_and_chooses_as_before() -> None:
    from games.ai.playouts import hooks_for
    from games.ai.search import SearchPlayer

    assert hooks_for("1234").finish is not None
    rules = games.get("1234")
    basic = get_player("normal", "1234")
    compared = 0
    for g in range(4):
        state = rules.new_game(4, seed=g)
        rng = random.Random(g)
        while state.deal_number == 1:
            seat = state.to_act[0]
            obs = observe(state, seat)
            if len(obs.legal) > 1:
                fast, slow = get_player("hard", "1234"), get_player("hard", "1234")
                assert isinstance(fast, SearchPlayer) and isinstance(slow, SearchPlayer)
                slow.finish = None
                fast.iterations = slow.iterations = 60
                assert fast.choose(obs, random.Random(g)) == slow.choose(obs, random.Random(g))
                compared += 1
            state.apply(seat, basic.choose(obs, rng))
    assert compared > 10


# Game 1 of a two-player series ends at once: seat 1 passes with its ace and draws the last
# stock card; seat 0 holds 7 high against 6 high and wins 20 (2 + 3 + 4 + 6 + 5).
LOW = {1: "AS 2H 3D 4C 6S", 0: "2S 3S 4D 5D 7H"}


def series_after_a_low_first_game(**options: object) -> OneTwoThreeFourState:
    """A series whose first game paid 20 to seat 0; the rest is played at random."""
    state = new(2, 0, LOW, "KH", stock="5C", games=2, **options)
    shorten_stock(state, 1)
    state.apply(1, "pass:AS")
    assert state.view(None)["last_game"]["winners"] == [0]
    assert state.view(None)["last_game"]["totals"] == [21, 20]
    rng = random.Random(5)
    while not state.over:
        seat = state.to_act[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    return state


def test_option_scoring_winner_ends_after_games_without_reaching_the_target() -> None:
    # "winner": "first to target (default 100) wins, or most after games games." A game pays
    # at most 65 (five cards K Q J ...), so 20 + 65 never reaches 100 in two games.
    state = series_after_a_low_first_game(scoring="winner")
    assert state.deal_number == 2 and max(state.scores()) < 100
    assert state.outcome is not None
    best = max(state.scores())
    assert state.outcome.winners == tuple(s for s in (0, 1) if state.scores()[s] == best)


def test_option_chips_ends_after_games_and_most_chips_wins() -> None:
    # "chips": "The series ends after games games (default 5) or when a player is out of
    # chips; most chips wins."
    state = series_after_a_low_first_game()
    assert state.deal_number == 2 and min(state.scores()) > 0
    assert sum(state.scores()) == 200 and state.outcome is not None
    best = max(state.scores())
    assert state.outcome.winners == tuple(s for s in (0, 1) if state.scores()[s] == best)


def test_option_scoring_penalty_final_ranking_lowest_first() -> None:
    # "penalty": "each non-winner scores their own total as penalty; lowest after games
    # games wins." The others follow by their totals, equal totals sharing a place.
    state = new(3, 0, {2: "AS 2H 3D 4C 6S", 1: "KD 9S 5C 3C 2D", 0: "QC 8H 7D 6C 4H"}, "TC",
                stock="5S", scoring="penalty", games=2)
    shorten_stock(state, 1)
    state.apply(2, "pass:AS")  # seat 1 wins the first game with its king
    assert state.scores() == [37.0, 0.0, 20.0]
    rng = random.Random(2)
    while not state.over:
        seat = state.to_act[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    points = state.scores()
    assert state.deal_number == 2 and state.outcome is not None
    for a in range(3):
        for b in range(3):
            if points[a] < points[b]:
                assert state.outcome.places[a] < state.outcome.places[b]
            if points[a] == points[b]:
                assert state.outcome.places[a] == state.outcome.places[b]


def test_stock_out_a_shorter_hand_with_a_higher_card_beats_a_longer_hand() -> None:
    # "Among the players still in, the one holding the highest card wins ... ties are broken by
    # the next-highest card": the number of cards matters only once one hand runs out.
    hands = {2: "2S 2H 3S 3H KS", 1: "KD 9S 5C 3D 2D", 0: "QC 8H 7D 6C 4H"}
    state = new(3, 0, hands, "TC", stock="TD", games=1)
    shorten_stock(state, 1)
    state.apply(2, "pass:2S,2H,3S,3H")  # seat 2 is left with K 10 against K 9 5 3 2
    assert state.over and state.outcome is not None
    assert state.view(None)["last_game"]["hands"][2] == ["KS", "TD"]
    assert state.outcome.winners == (2,)
