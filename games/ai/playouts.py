"""Per-game settings of the search player: rollout policy, wide decisions, a prior, where the
prior decides alone, and how a deal is judged.

A rollout policy must be cheap (it runs thousands of times a second) and see nothing the
searching seat could not know: it runs inside a determinized state, so whatever it reads there
was already re-dealt by ``determinize``. The game-aware rollouts below read the sampled state's
own fields (hands, the trick on the table) instead of building a view for the rule-of-thumb
player: they follow the same rules of thumb at a fraction of the cost, so the playouts both
resemble how people (and the basic players) play and stay many. The names they use are
imported once, at the top: an import inside a function runs at every call.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from games import tricks
from games.ai import Observation, Policy, basic_policy
from games.ai import bear as basic_bear
from games.ai.bear import bold as bear_bold
from games.ai.beliefs import bhabhi_belief, spar_belief
from games.ai.one_two_three_four import pick as one_two_three_four_pick
from games.ai.search import (
    Belief,
    Finish,
    Judge,
    Rollout,
    Shortlist,
    Wide,
    deal_rewards,
    never_wide,
    random_rollout,
)
from games.ai.sugekari import _NAME_VALUE
from games.bear import NULL, POINTS, SLOP, TRUMP
from games.bhabhi import _PLAY, PHASE_PLAY
from games.core import Action, State
from games.sugekari import _IS_JOKER, _VALUE, JOKER_PENALTY, LIMIT
from games.twenty_two import _C, _KEEP

Decides = Callable[[Observation], bool]


@dataclass(frozen=True)
class Hooks:
    """What the search player uses for one game."""

    rollout: Rollout = random_rollout
    wide: Wide = never_wide
    prior: Policy | None = None
    prior_decides: Decides | None = None
    judge: Judge = deal_rewards
    exploration: float = 0.7
    confidence: float = 0.0
    open_loop: bool = False
    model_others: bool = False
    belief: Belief | None = None
    finish: Finish | None = None
    shortlist: Shortlist | None = None
    race: float = 0.0


def exchange_is_wide(state: State, seat: int) -> bool:
    """22's exchange: any subset of the hand may go, too many moves to list at every node."""
    return getattr(state, "phase", None) == "exchange"


_WIDE: dict[str, Wide] = {"twenty-two": exchange_is_wide}


def hooks_for(game_id: str) -> Hooks:
    """The search settings of a game (random rollouts unless the game has better ones)."""
    try:
        prior: Policy | None = _PRIORS.get(game_id) or basic_policy(game_id)
    except (ImportError, AttributeError):
        prior = None
    share = _BASIC_SHARE.get(game_id, 0.0)
    rollout = _ROLLOUTS.get(game_id, random_rollout)
    if share and prior is not None:
        rollout = mixed_rollout(prior, game_id, share)
    if game_id == "finesse" and prior is not None:
        rollout = finesse_rollout_with(mixed_rollout(prior, game_id, 1.0))
    return Hooks(rollout=rollout, wide=_WIDE.get(game_id, never_wide), prior=prior,
                 prior_decides=_PRIOR_DECIDES.get(game_id),
                 judge=_JUDGES.get(game_id, deal_rewards),
                 exploration=_EXPLORATION.get(game_id, 0.7),
                 confidence=_CONFIDENCE.get(game_id, CONFIDENCE),
                 open_loop=_OPEN_LOOP.get(game_id, False),
                 model_others=_MODEL_OTHERS.get(game_id, False),
                 belief=_BELIEFS.get(game_id), finish=_FINISHES.get(game_id),
                 shortlist=_SHORTLISTS.get(game_id), race=_RACE.get(game_id, 0.0))


def mixed_rollout(policy: Policy, game_id: str, share: float) -> Rollout:
    """The rule-of-thumb move ``share`` of the time, else a random one (cheap, less naive).

    The policy sees the determinized state's view for the seat to move, as that seat would.
    """

    def rollout(state: State, seat: int, rng: random.Random) -> Action:
        if rng.random() >= share:
            return state.random_action(seat, rng)
        legal = state.legal_actions(seat)
        if len(legal) == 1:
            return legal[0]
        obs = Observation(game_id, seat, state.view(seat), tuple(legal), _no_sampler)
        return policy(obs, rng)

    return rollout


def _no_sampler(rng: random.Random) -> State:
    raise RuntimeError("a rollout observation cannot be sampled")


# -- Bear ------------------------------------------------------------------------------------

def bear_rollout(state: State, seat: int, rng: random.Random) -> Action:
    """Bear: bid and discard like the basic player; play by its rules of thumb (points to the
    friend of the moment, win cheaply, smear when the trick is safe)."""

    s: Any = state
    phase = s.phase
    hand = s.hands[seat]
    if phase == "bid":
        return basic_bear.choose_bid(hand, tuple(s.legal_actions(seat)))
    if phase == "discard":
        return basic_bear.choose_discard(hand, s.game)
    legal: list[Action] = s.legal_actions(seat)
    if len(legal) == 1:
        return legal[0]
    cards = [a.cards[0] for a in legal]
    table = s.table
    plays = s.trick
    declarer = s.declarer
    strength = table.strength
    game = s.game
    if game == NULL:
        pick = basic_bear._null_play(plays, seat, declarer, cards, table)
    elif game == SLOP:
        pick = basic_bear._slop_play(plays, seat, cards, table)
    elif not plays:
        trumps = [c for c in cards if table.suit[c] == TRUMP]
        if seat == declarer and len(trumps) >= 3:
            pick = max(trumps, key=strength.__getitem__)
        else:
            side = [c for c in cards if table.suit[c] != TRUMP] or cards
            pick = min(side, key=lambda c: (POINTS[c], strength[c]))
    else:
        led = table.suit[plays[0][1]]
        best = tricks.winner(plays, table.power, led, table.suit_of, table.trump)
        holder, top = plays[best]
        friend = seat != declarer and holder != declarer
        if friend and (len(plays) == 2 or any(p == declarer for p, _ in plays)
                       or strength[top] >= 97):
            pick = max(cards, key=lambda c: (POINTS[c], -strength[c]))
        elif friend:
            pick = min(cards, key=lambda c: (POINTS[c], strength[c]))
        else:
            winners = [c for c in cards if basic_bear._wins(plays, seat, c, table)]
            if winners and len(plays) == 2:
                pick = max(winners, key=lambda c: (POINTS[c], -strength[c]))
            elif winners:
                pick = max(winners, key=strength.__getitem__)
            else:
                pick = min(cards, key=lambda c: (POINTS[c], strength[c]))
    return legal[cards.index(pick)]


def bear_prior_decides(obs: Observation) -> bool:
    """Bear's auction: the basic player's estimate beats a shallow search there (long
    auctions, and the reward only comes after ten tricks)."""
    return bool(obs.view["phase"] == "bid")


def bear_shortlist(obs: Observation) -> list[Action] | None:
    """Bear's discard: the side cards' pairs compared by paired playouts, the basic discard
    first (66 discards are too many for the tree)."""
    from games import cards as _cards
    from games.ai.bear import discard_shortlist

    if obs.view["phase"] != "discard" or obs.seat != obs.view["declarer"]:
        return None
    hand = [_cards.parse(c) for c in obs.view["hand"]]
    listed = discard_shortlist(hand, obs.view["contract"]["game"])
    return [next(a for a in obs.legal if a.same_as(x)) for x in listed]


# -- Spar ------------------------------------------------------------------------------------

_SPAR_KEEPERS = {"spar": (6, 7), "benin": (7,), "sipa": (7,), "fapfap": (3,)}
_PEEK_AGREE = Action("peek_agree")


def spar_rollout(state: State, seat: int, rng: random.Random) -> Action:
    """Spar: cheap cards early, win the second-to-last trick to lead the last one, win the
    last one as cheaply as possible (the basic player's rules, on the sampled state)."""
    s: Any = state
    if s.phase == "peek":
        return _PEEK_AGREE  # computer players agree to show the bottom card
    if s.phase != "play" or seat != s.turn:
        return state.random_action(seat, rng)
    legal: list[Action] = [a for a in s.legal_actions(seat) if a.kind == "play"]
    if not legal:
        return state.random_action(seat, rng)
    if len(legal) == 1:
        return legal[0]
    strength = s.strength
    keepers = _SPAR_KEEPERS.get(s.variant_name, ())
    cards = [a.cards[0] for a in legal]
    left = s.hand_size - s.trick_number
    trick = s.trick

    def spare() -> list[Any]:
        return [c for c in cards if c.rank not in keepers] or cards

    if not trick:
        pick = (min(spare(), key=strength.__getitem__) if left >= 2
                else max(cards, key=strength.__getitem__))
    else:
        led = trick[0][1].suit
        top = max(strength[x] for _s, x, up in trick if up and x.suit == led)
        winning = [c for c in cards if c.suit == led and strength[c] > top]
        if winning and left == 1:
            pick = max(winning, key=strength.__getitem__)
        elif winning and left == 0:
            pick = min(winning, key=strength.__getitem__)
        else:
            pick = min(spare(), key=strength.__getitem__)
    return legal[cards.index(pick)]


# -- Getaway (Bhabhi) ------------------------------------------------------------------------

def bhabhi_rollout(state: State, seat: int, rng: random.Random) -> Action:
    """Getaway: follow under the highest card, shed the highest card when void, lead the low
    card of a short suit (the basic player's rules, on the sampled state)."""

    s: Any = state
    if seat == s.turn and s.phase == PHASE_PLAY and not s.take_mode:
        hand = s.hands[seat]
        table = s.table_cards
        if table:
            led = s.led
            same = [c for c in hand if c >> 4 == led]
            if not same:
                return _PLAY[max(hand, key=lambda c: (c & 15, -(c >> 4)))]
            if len(same) == 1:
                return _PLAY[same[0]]
            best = max(c for c in table if c >> 4 == led)
            under = [c for c in same if c < best]
            if under:
                return _PLAY[max(under)]
            live = s.live
            hands = s.hands
            players_in = sum(1 for t in range(len(hands)) if live[t] and hands[t])
            return _PLAY[max(same) if len(table) + 1 >= players_in else min(same)]
        if hand and s.round_no != 1:
            by_suit: dict[int, list[int]] = {}
            for c in hand:
                by_suit.setdefault(c >> 4, []).append(c)
            group = min(by_suit.values(), key=lambda g: (len(g), min(g) & 15))
            return _PLAY[min(group)]
    legal = state.legal_actions(seat)
    for a in legal:
        if a.kind == "decline":
            return a
        if a.kind == "draw" and a.arg == "discards":
            return a
    plays = [a for a in legal if a.kind == "play"]
    if plays and s.phase != PHASE_PLAY:
        # the shootout: the lowest card, so the turned card is likelier higher
        return min(plays, key=lambda a: a.cards[0] & 15)
    others = [a for a in legal if a.kind != "take"]
    return rng.choice(others or legal)


# -- 22 --------------------------------------------------------------------------------------

# Exchanged away from this rank up (the basic player's EXCHANGE_FROM).
_EXCHANGE_FROM = 10


def _badness22(rest: list[int]) -> float:
    if not rest:
        return 0.0
    if len(rest) == 1:
        return 1000.0 * (rest[0] & 15)
    return float(sum((c & 15) ** 2 for c in rest)) + 10.0 * min(c & 15 for c in rest)


def twenty_two_rollout(state: State, seat: int, rng: random.Random) -> Action:
    """22: exchange high cards, lead the highest rank, follow with the cards that leave the
    lowest hand (the basic player's rules, on the sampled state's sorted card numbers)."""

    s: Any = state
    if s.finished or seat != s.turn:
        return state.random_action(seat, rng)
    hand: list[int] = s.hands[seat]
    phase = s.phase
    if phase == "exchange":
        high = [c for c in reversed(hand) if c & 15 >= _EXCHANGE_FROM][: len(s.stock)]
        return Action("exchange", None, tuple(_C[c] for c in high)) if high else _KEEP
    if phase != "play":
        return state.random_action(seat, rng)
    if len(hand) == 1:
        return Action("play", None, (_C[hand[0]],))
    if not s.trick:
        top = hand[-1] & 15
        group = [c for c in hand if c & 15 == top][: len(hand) - 1]
        return Action("play", None, tuple(_C[c] for c in group))
    options = s._follows(hand, s.decks > 1)
    best = options[0]
    best_score = float("inf")
    for combo in options:
        rest = list(hand)
        for c in combo:
            rest.remove(c)
        score = _badness22(rest)
        if score < best_score or (score == best_score and rng.random() < 0.5):
            best, best_score = combo, score
    return Action("play", None, tuple(_C[c] for c in best))


def twenty_two_judge(state: State, start_scores: list[float]) -> list[float]:
    """22: the deal's loser is judged by the size of the penalty (a 2 costs far less of the
    22-point life than an ace), still always below not losing."""
    if state.outcome is not None:
        return deal_rewards(state, start_scores)
    scores = state.scores()
    limit = float(getattr(state, "limit", 22) or 22)
    result = []
    for s in range(state.players):
        taken = scores[s] - start_scores[s]
        result.append(1.0 if taken <= 0 else 0.5 * max(0.0, 1.0 - taken / (limit / 2)))
    return result


def linear_judge(state: State, start_scores: list[float]) -> list[float]:
    """The score change scaled between the deal's worst (0) and best (1) seat, not ranked: in
    1234 the winner takes everyone's hand total, so winning outweighs paying a little less.

    A series that ended is judged by its places. A single game (``games = 1``) is judged like
    any deal: its places rank the losers by what they paid, and judged by places a second place
    would be worth two thirds of a win, so the search played to lose cheaply rather than to win.
    """
    if state.outcome is not None and getattr(state, "games", 0) != 1:
        return deal_rewards(state, start_scores)
    direction = state.score_direction()
    scores = state.scores()
    gains = [direction * (scores[s] - start_scores[s]) for s in range(state.players)]
    low, high = min(gains), max(gains)
    if high == low:
        return [0.5] * state.players
    return [(g - low) / (high - low) for g in gains]


def twenty_two_prior_decides(obs: Observation) -> bool:
    """22's exchange (any subset of the hand) and rebuy: the basic rule of thumb decides."""
    return obs.view.get("phase") in ("exchange", "rebuy")


# -- Sugekari 21 -----------------------------------------------------------------------------

def sugekari_rollout(state: State, seat: int, rng: random.Random) -> Action:
    """Sugekari: the basic player's score of each move (make 21, fight for the opponents'
    rounds, let the partner's ride, keep a card to go out with, hold jokers back), read from
    the sampled state; the chance of leaving an easy 21 is judged without counting cards."""

    s: Any = state
    if s.phase != "play":
        return state.random_action(seat, rng)
    legal: list[Action] = s.legal_actions(seat)
    if len(legal) == 1:
        return legal[0]
    side = seat & 1
    last = s.last
    total = s.total
    round_cards = s.round_cards
    pile = sum(JOKER_PENALTY if _IS_JOKER[c] else 1 for c in round_cards)
    ours = last >= 0 and last & 1 == side
    hand = s.hands[seat]
    four = s.players == 4
    used_values = {_VALUE[c] for c in round_cards if not _IS_JOKER[c]}
    # the cards worth keeping to go out with (the others are negative or jokers): a move
    # leaves none when every such card is the one played
    strong = {c for c in hand if _VALUE[c] >= 0 and not _IS_JOKER[c]}
    best = legal[0]
    best_score = -1e9
    for action in legal:
        if action.kind == "pass":
            score = 2.0 + pile if ours else -1.0 - pile
        else:
            card = action.cards[0]
            joker = _IS_JOKER[card]
            if joker:
                half = action.arg == "half"
                after = total // 2 if half else total + _NAME_VALUE[action.arg or "A"]
                gain = pile + JOKER_PENALTY
            else:
                after = total + _VALUE[card]
                gain = pile + 1
            if len(hand) == 1:
                score = 1000.0  # going out ends the game
            elif after == LIMIT:
                score = 100.0 + 10.0 * gain if gain > 0 else -10.0
            else:
                score = 0.0
                if ours and last != seat and four:
                    score -= 15.0
                elif not ours and round_cards:
                    score += max(gain, 0)
                if not strong or strong == {card}:
                    score -= 30.0
                if joker:
                    score -= 8.0
                need = LIMIT - after
                if 1 <= need <= 10 and need not in used_values and (
                        joker or need != _VALUE[card]):
                    score -= 20.0
                if not joker:
                    score += 0.3 * _VALUE[card]
        score += 0.01 * rng.random()
        if score > best_score:
            best, best_score = action, score
    return best


# -- Finesse ---------------------------------------------------------------------------------

# "Scoring each deal": 10 tricks are worth the most (the basic player's BEST_TRICKS).
_FINESSE_BEST = 10


def finesse_rollout_with(first_lead: Rollout) -> Rollout:
    """Finesse: never overtake a winning partner, win cheaply, lead trumps out of the partner's
    table cards, lead masters, refill with low plain cards, lose the rest after ten tricks (the
    basic player's rules on the sampled state); the deal's first lead (which names trumps)
    asks ``first_lead``."""
    from collections import Counter

    from games.finesse import _VALUES, PLAY, REFILL, TABLE

    in_pack = Counter(_VALUES)

    def rollout(state: State, seat: int, rng: random.Random) -> Action:
        s: Any = state
        hand: list[int] = s.hands[seat]
        trump: int = s.trump
        no_trumps = s.trumps == "NT"

        def trumpish(c: int) -> bool:
            return (c & 15) >= 11 if no_trumps else (trump >= 0 and c >> 4 == trump)

        def cheap(c: int) -> tuple[int, int]:
            return (1 if trump >= 0 and c >> 4 == trump else 0, c & 15)

        if s.refiller >= 0:
            return REFILL[min(hand, key=lambda c: (trumpish(c), c & 15))]
        tricks = s.tricks
        enough = tricks[seat & 1] + tricks[(seat & 1) + 2] >= _FINESSE_BEST
        plays = s.plays
        if plays:
            led = plays[0][1] >> 4
            options = sorted([c for c in hand if c >> 4 == led] or hand, key=cheap)
            won_by, best = plays[0]
            for p, c in plays[1:]:
                if c >> 4 == best >> 4:
                    if c > best:
                        won_by, best = p, c
                elif c >> 4 == trump:
                    won_by, best = p, c
            winners = [c for c in options
                       if (c > best if c >> 4 == best >> 4 else c >> 4 == trump)]
            losers = [c for c in options if c not in winners]
            if enough:
                pick = max(losers, key=cheap) if losers else winners[0]
            elif won_by == (seat + 2) % 4:
                pick = losers[0] if losers else options[0]
            elif winners:
                pick = winners[0]
            else:
                pick = options[0]
            return PLAY[pick]
        if s.trumps is None:
            return first_lead(state, seat, rng)
        if enough:
            return PLAY[min(hand, key=cheap)]
        costly = [c for c in s.table[(seat + 2) % 4] if trumpish(c)]
        if costly:
            return TABLE[max(costly, key=lambda c: c & 15)]
        seen = Counter(s.played)
        seen.update(hand)
        masters = [c for c in hand
                   if all(seen[(c & ~15) | r] >= in_pack[(c & ~15) | r]
                          for r in range((c & 15) + 1, 15))]
        if masters:
            return PLAY[max(masters, key=cheap)]
        return PLAY[min(hand, key=cheap)]

    return rollout


# -- 1234 ------------------------------------------------------------------------------------

def one_two_three_four_rollout(state: State, seat: int, rng: random.Random) -> Action:
    """1234: the basic player's choice, read from the sampled state's hand, stock, live
    players and the plays and passes it has already listed."""

    s: Any = state
    plays, passes = s._choices
    hand = s.hands[seat]
    if len(plays) + len(passes) == 1:
        idx = plays[0] if plays else passes[0]
        return Action("play" if plays else "pass", None, tuple([hand[i] for i in idx]))
    return one_two_three_four_pick(hand, s._choices, len(s.stock), sum(1 for x in s.live if x), rng)


def one_two_three_four_finish(state: State, rng: random.Random) -> None:
    """1234: the rest of the game played by the rollout's rules without building moves (the
    same game as applying the rollout's moves one by one, about 1.4 times as fast)."""
    from games.ai.one_two_three_four import play_out
    from games.one_two_three_four import OneTwoThreeFourState

    assert isinstance(state, OneTwoThreeFourState)
    play_out(state, rng)


_FINISHES: dict[str, Finish] = {"1234": one_two_three_four_finish}


def every_move(obs: Observation) -> list[Action] | None:
    """Every legal move, compared by paired playouts instead of the tree."""
    return list(obs.legal)


# Decisions compared side by side by paired playouts (common random numbers) instead of the
# tree: Bear's discard, and every move of Getaway and 1234 (docs/ai.md, sixth round).
_SHORTLISTS: dict[str, Shortlist] = {"bear": bear_shortlist, "bhabhi": every_move,
                                     "1234": every_move}

# Paired playouts that race their moves (SearchPlayer.race): a move trailing the leader by more
# than this many standard errors stops being played.
_RACE: dict[str, float] = {}

_ROLLOUTS: dict[str, Rollout] = {
    "bear": bear_rollout,
    "spar": spar_rollout,
    "bhabhi": bhabhi_rollout,
    "twenty-two": twenty_two_rollout,
    "sugekari-21": sugekari_rollout,
    "1234": one_two_three_four_rollout,
}

# Games whose playouts ask the basic player itself (through a view) a share of the time; the
# game-aware rollouts above are as sensible and several times faster, so none does now.
_BASIC_SHARE: dict[str, float] = {}

# Games whose search player asks its own rule of thumb instead of the basic player's.
_PRIORS: dict[str, Policy] = {"bear": bear_bold}

_PRIOR_DECIDES: dict[str, Decides] = {
    "bear": bear_prior_decides,
    "twenty-two": twenty_two_prior_decides,
}

_JUDGES: dict[str, Judge] = {"twenty-two": twenty_two_judge, "1234": linear_judge}

_EXPLORATION: dict[str, float] = {}

# How sure the search must be (in standard errors) to overrule the basic player's move.
CONFIDENCE = 1.0
_CONFIDENCE: dict[str, float] = {}

# Games whose tree holds only the searching seat's choices (the others play the rollout policy).
_OPEN_LOOP: dict[str, bool] = {}

# Games whose tree moves the other seats by the rollout policy (a model of how they play) while
# still telling their moves apart, so the searching seat's later choices follow what it saw.
_MODEL_OTHERS: dict[str, bool] = {}

# Games whose samples follow what the others' plays suggest about their hands (beliefs.py).
_BELIEFS: dict[str, Belief] = {"spar": spar_belief, "bhabhi": bhabhi_belief}
