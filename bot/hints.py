"""Hints: the move the strong computer would make from a person's own view, and why.

A table's host allows hints in the lobby (``Table.hints``, off by default). A seated person
whose turn it is may then ask for one (the panel's Hint button): the seat's observation — never
the real state's hidden cards — is analysed (:func:`games.ai.analysis.analyse`) in an AI worker
process, through the thinking scheduler, with the hard level's budget or less when the workers
are busy. The answer names the move and a reason in words from the playouts: how often it wins
the trick now played, reaches the deal's goal (Spar's deal, getting away in Getaway, going out
in Sugekari 21, escaping 22's penalty card), or the points it is worth.

A hint shown is counted on the person's seat (stored with the game), and a game in which a hint
was used is unrated (:func:`bot.ratings.unrated_reason`). A hint whose position moved on before
it was ready is not shown (nor counted): the person is told the turn moved on.
"""

from __future__ import annotations

import pickle
import random
import secrets
from dataclasses import dataclass
from typing import Any

from bot.i18n import MESSAGES, t
from bot.lobby import Lobbies
from bot.model import LOBBY, PLAYING, Refusal, Table
from bot.results import points_text
from bot.scheduler import Dropped
from games.ai import observe
from games.ai.analysis import Analysis, MoveValue, Outlook, analyse
from games.core import Rules, State

#: games where taking the trick now played is what a move is about (Spar also has its goal)
TRICK_GAMES = frozenset({"spar", "finesse", "bear"})
#: games whose goal in a deal the hint names (the analysis' ``Outlook.goal``)
GOAL_GAMES = frozenset({"spar", "bhabhi", "sugekari-21", "twenty-two"})


def analyse_in_worker(blob: bytes, seat: int, seed: int, budget: float | None) -> Analysis:
    """The analysis of a seat's decision (in an AI worker process): only the seat's
    observation reaches the analysis, never the state."""
    state: State = pickle.loads(blob)
    obs = observe(state, seat)
    del state
    return analyse(obs, random.Random(seed), budget=budget)


@dataclass(frozen=True)
class Hint:
    """A hint shown: the analysis it came from and how many hints the person has used."""

    analysis: Analysis
    count: int


class HintTables(Lobbies):
    """The table manager's hints: the host's option, and a person's hint on their turn."""

    async def set_hints(self, table_id: int, user_id: int, allowed: bool) -> Table:
        """The host allows hints at a table (or not), in the lobby."""
        def set_it(table: Table) -> None:
            table.hints = allowed
        return await self._change_lobby(table_id, user_id, set_it)

    async def hint(self, table_id: int, user_id: int, version: int) -> Hint:
        """A hint for the person's seat at the position ``version``, counted once shown.

        Refusal 'hints-off', 'not-seated', 'not-started', 'hint-not-your-turn', 'hint-stale'
        (the position moved on, before or while it was thought) or 'hint-busy' (the workers
        could not fit it in)."""
        table = self.get(table_id)
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

        def current() -> bool:
            return table.version == version and table.status == PLAYING

        try:
            found = await self.thinker.offload(
                analyse_in_worker, blob, seat, secrets.randbits(62), current=current,
                label=f"hint {table.rules.id}")
        except Dropped:
            raise Refusal("hint-stale") from None
        if found is None:
            raise Refusal("hint-busy")
        async with table.lock:
            if not current():
                raise Refusal("hint-stale")
            person = table.seats[seat]
            person.hints += 1
            await self._save(table)
        return Hint(found, person.hints)


# -- the answer in words --------------------------------------------------------------------
def _share(value: float) -> int:
    return round(100 * value)


def reason_text(game: str, outlook: Outlook, side: bool, lang: str) -> str:
    """Why a move is good, in words from its playouts (``side``: the seat has a partner)."""
    parts: list[str] = []
    if game in TRICK_GAMES and outlook.trick is not None:
        parts.append(t("hint-trick-side" if side else "hint-trick", lang,
                       share=_share(outlook.trick)))
    if game in GOAL_GAMES and outlook.goal is not None:
        key = f"hint-goal-{game}"
        if side and f"{key}-side" in MESSAGES["en"]:
            key += "-side"
        parts.append(t(key, lang, share=_share(outlook.goal)))
    if not parts:
        parts.append(t("hint-points", lang, points=points_text(round(outlook.points, 1))))
    return t("hint-and", lang).join(parts)


def hint_text(rules: Rules, players: int, options: dict[str, Any], hint: Hint,
              lang: str) -> str:
    """The private answer: the move, why, the next best move, and what a hint costs."""
    analysis = hint.analysis
    teams = rules.teams(players, {**{o.name: o.default for o in rules.options}, **options})
    side = any(analysis.seat in team and len(team) > 1 for team in teams or ())
    best = analysis.moves[0]
    lines = []
    if len(analysis.moves) == 1:  # every legal move is measured: this one is forced
        reason = t("hint-forced", lang)
    else:
        reason = reason_text(rules.id, best.outlook, side, lang)
    lines.append(t("hint-answer", lang, move=rules.action_text(analysis.best, lang),
                   reason=reason))
    runner = _runner_up(analysis)
    if runner is not None:
        lines.append(t("hint-next", lang, move=rules.action_text(runner.action, lang),
                       reason=reason_text(rules.id, runner.outlook, side, lang)))
    lines.append(t("hint-footer", lang, samples=analysis.samples, count=hint.count))
    return "\n".join(lines)


def _runner_up(analysis: Analysis) -> MoveValue | None:
    """The best of the other moves measured (None when there is none)."""
    return analysis.moves[1] if len(analysis.moves) > 1 else None
