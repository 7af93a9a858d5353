"""Hints: the move the strong computer would make from a person's own view, and why.

A table's host allows hints in the lobby (``Table.hints``, off by default). A seated person
whose turn it is may then ask for one (the panel's Hint button): the seat's observation — never
the real state's hidden cards — is analysed (:func:`games.ai.analysis.analyse`) in an AI worker
process, through the thinking scheduler, with the hard level's budget or less when the workers
are busy. The answer names the move and a reason in words from the playouts: how often it wins
the trick now played, reaches the deal's goal (Spar's deal, getting away in Getaway, going out
in Sugekari 21, escaping 22's penalty card), or the points it is worth.

A hint shown is counted on the person's seat (stored with the game), and a game in which a hint
was used is unrated (:func:`bot.storage.ratings.unrated_reason`); a hint at a forced move (the only
legal
one) tells nothing the panel does not, so it is not counted. A hint whose position moved on before
it was ready is not shown (nor counted): the person is told the turn moved on.
"""

from __future__ import annotations

import pickle
import secrets
from dataclasses import dataclass, field
from typing import Any

from bot.i18n import t
from bot.tables.lobby import Lobby
from bot.tables.model import LOBBY, PLAYING, Refusal, Table
from bot.tables.registry import Registry
from bot.tables.results import points_text
from bot.tables.scheduler import Dropped
from bot.tables.thinking import Thinker
from games import wording
from games.ai.analysis import Analysis, MoveValue, Outlook, analyse_pickled
from games.core import Rules

#: games where taking the trick now played is what a move is about (Spar also has its goal)
TRICK_GAMES = frozenset({"spar", "finesse", "bear"})
#: games whose goal in a deal the hint names (the analysis' ``Outlook.goal``)
GOAL_GAMES = frozenset({"spar", "bhabhi", "sugekari-21", "twenty-two", "bear"})
#: the share of playouts from which taking the trick is given as a reason for a move (a move
#: that mostly lets the trick go is explained by the deal instead)
TRICK_WORTH = 0.5


@dataclass(frozen=True)
class Hint:
    """A hint shown: the analysis it came from, how many hints the person has used, the
    seat's view of the position it was asked at (for its words), and whether this one counted
    (not at a forced move)."""

    analysis: Analysis
    count: int
    view: dict[str, Any] = field(default_factory=dict)
    counted: bool = True


class Hints:
    """The host's option, and a person's hint on their turn; depends on the registry, the
    lobby (the option is a lobby change) and the thinker (the analysis runs in its workers)."""

    def __init__(self, registry: Registry, lobby: Lobby, thinker: Thinker) -> None:
        self.registry = registry
        self.lobby = lobby
        self.thinker = thinker

    async def set_hints(self, table_id: int, user_id: int, allowed: bool) -> Table:
        """The host allows hints at a table (or not), in the lobby."""
        def set_it(table: Table) -> None:
            table.hints = allowed
        return await self.lobby.change(table_id, user_id, set_it)

    async def hint(self, table_id: int, user_id: int, version: int) -> Hint:
        """A hint for the person's seat at the position ``version``, counted once shown.

        Refusal 'hints-off', 'not-seated', 'not-started', 'hint-not-your-turn', 'hint-stale'
        (the position moved on, before or while it was thought) or 'hint-busy' (the workers
        could not fit it in)."""
        table = self.registry.get(table_id)
        if not table.hints:
            raise Refusal("hints-off")
        seat = table.seat_of(user_id)
        if seat is None:
            raise Refusal("not-seated")
        if table.status == LOBBY:
            raise Refusal("not-started")
        state = table.state
        if table.status != PLAYING or state is None or state.over:
            raise Refusal("not-started")
        if version != table.version:
            raise Refusal("hint-stale")
        if seat not in state.to_act or table.seats[seat].auto:
            raise Refusal("hint-not-your-turn")
        # taken now, before any await: the position asked about
        blob = pickle.dumps(state, pickle.HIGHEST_PROTOCOL)
        seen = state.view(seat).to_dict()
        forced = len(state.legal_actions(seat)) == 1

        def current() -> bool:
            return table.version == version and table.status == PLAYING

        try:
            found = await self.thinker.offload(
                analyse_pickled, blob, seat, secrets.randbits(62), current=current,
                label=f"hint {table.rules.id}")
        except Dropped:
            raise Refusal("hint-stale") from None
        if found is None:
            raise Refusal("hint-busy")
        async with self.registry.locked(table):
            if not current():
                raise Refusal("hint-stale")
            person = table.seats[seat]
            if not forced:  # the only move: the hint tells nothing, the game stays rated
                # stored before it is shown (a hint makes the game unrated): when the count
                # cannot be stored it is undone and the hint refused ('not-saved')
                async with self.registry.saving(table):
                    person.hints += 1
        return Hint(found, person.hints, seen, counted=not forced)


# -- the answer in words --------------------------------------------------------------------
def _share(value: float) -> int:
    return round(100 * value)


def goal_key(game: str, seat: int, view: dict[str, Any], side: bool) -> str | None:
    """The words of the deal's goal for this seat (None: the hint does not name one)."""
    if game == "bear":  # the contract: once there is a declarer
        declarer = view.get("declarer")
        if declarer is None:
            return None
        return "hint-goal-bear-declarer" if declarer == seat else "hint-goal-bear"
    if game not in GOAL_GAMES:
        return None
    key = f"hint-goal-{game}"
    return f"{key}-side" if side and wording.has(f"{key}-side") else key


def measures(game: str, outlook: Outlook, goal: str | None) -> tuple[str, ...]:
    """What the words of a hint measure, chosen by the best move's outlook: the trick now
    played (when the move is likely to take it), the deal's goal, else the points."""
    found: list[str] = []
    if game in TRICK_GAMES and outlook.trick is not None and outlook.trick >= TRICK_WORTH:
        found.append("trick")
    if goal is not None and outlook.goal is not None:
        found.append("goal")
    return tuple(found) or ("points",)


def reason_text(outlook: Outlook, kinds: tuple[str, ...], goal: str | None, side: bool,
                lang: str) -> str:
    """Why a move is good, in words from its playouts (``kinds`` from :func:`measures`,
    ``goal`` from :func:`goal_key`; ``side``: the seat has a partner)."""
    if kinds == ("points",):
        return t("hint-points", lang, points=points_text(round(outlook.points, 1)))
    clauses: list[str] = []
    for kind in kinds:
        if kind == "trick":
            clauses.append(t("hint-trick-side" if side else "hint-trick", lang,
                             share=_share(outlook.trick or 0.0)))
        elif goal is not None:
            clauses.append(t(goal, lang, share=_share(outlook.goal or 0.0)))
    return t("hint-reason", lang, clauses=t("hint-and", lang).join(clauses))


def hint_text(rules: Rules, players: int, options: dict[str, Any], hint: Hint,
              lang: str) -> str:
    """The private answer: the move, why, the next best move, and what a hint costs."""
    analysis = hint.analysis
    teams = rules.teams(players, {**{o.name: o.default for o in rules.options}, **options})
    side = any(analysis.seat in team and len(team) > 1 for team in teams or ())
    goal = goal_key(rules.id, analysis.seat, hint.view, side)
    best = analysis.moves[0]
    lines = []
    kinds = measures(rules.id, best.outlook, goal)
    if len(analysis.moves) == 1 or not hint.counted:  # every legal move measured: forced
        reason = t("hint-forced", lang)
    else:
        reason = reason_text(best.outlook, kinds, goal, side, lang)
    lines.append(t("hint-answer", lang, move=rules.action_text(analysis.best, lang),
                   reason=reason))
    runner = _runner_up(analysis)
    if runner is not None:
        lines.append(t("hint-next", lang, move=rules.action_text(runner.action, lang),
                       reason=reason_text(runner.outlook, kinds, goal, side, lang)))
    lines.append(t("hint-footer", lang, samples=analysis.samples, count=hint.count)
                 if hint.counted else t("hint-footer-forced", lang, count=hint.count))
    return "\n".join(lines)


def _runner_up(analysis: Analysis) -> MoveValue | None:
    """The best of the other moves measured, when it measured no better than the search's
    choice (the search may prefer a move whose few measuring playouts fell short: a runner-up
    that looks better would only confuse)."""
    if len(analysis.moves) < 2 or analysis.moves[1].value > analysis.moves[0].value:
        return None
    return analysis.moves[1]
