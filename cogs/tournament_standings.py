"""The standings after a round of a tournament and an elimination's bracket, as Discord shows
them: an embed listing every row with why it is below the one above (its tie-break named), the
tie-breaks explained, the standings picture and, for an elimination, the bracket picture
(:mod:`bot.pictures.standings`). A part of the tournament cog (cogs/tournaments.py), given what
it reads: the service's stored rounds and the games' names.
"""

from __future__ import annotations

import asyncio
import io
from collections.abc import Callable
from typing import Any

import discord

from bot.i18n import t
from bot.names import plain
from bot.pictures import standings as pictures
from bot.tournaments import Bracket, Seating, Standing, TableResult, bracket
from bot.tournaments.runner import Tournaments, TournamentView


def names_of(view: TournamentView) -> dict[int, str]:
    """Each entrant's name as shown (plain: no Markdown)."""
    return {e.user_id: plain(e.name) for e in view.entrants}


class StandingsBoard:
    """The standings and bracket messages of the tournaments of one service."""

    def __init__(self, service: Tournaments, title_of: Callable[[str, str], str]) -> None:
        self.service = service
        #: a game's name in a language
        self.title_of = title_of

    # -- standings --------------------------------------------------------------------------
    def reason_text(self, row: Standing, lang: str) -> str:
        """Why a row is below the one above: its tie-break named (``first`` for rank 1)."""
        return t(f"tournament-reason-{row.reason}", lang)

    async def standings_message(self, view: TournamentView, rows: tuple[Standing, ...],
                                lang: str,
                                round_number: int | None = None, final: bool = False
                                ) -> dict[str, Any]:
        """The standings as an embed and a picture, the tie-breaks explained; an
        elimination's bracket as a second picture."""
        names = names_of(view)
        game = self.title_of(view.game, lang)
        if final:
            title = t("tournament-final-title", lang, game=game)
        elif round_number is not None:
            title = t("tournament-round-title", lang, game=game, round=round_number)
        else:
            title = t("tournament-standings-title", lang, game=game)
        lines = []
        for row in rows:
            name = names.get(row.player, str(row.player))
            key = "tournament-row-dropped" if row.dropped else "tournament-row"
            lines.append(t(key, lang, rank=row.rank, name=name,
                           points=pictures.amount(row.points),
                           why=self.reason_text(row, lang)))
        embed = discord.Embed(title=title[:256], description="\n".join(lines)[:4000]
                              or t("tournament-nobody", lang))
        embed.add_field(name=t("tournament-tie-breaks", lang), inline=False,
                        value=t("tournament-tie-breaks-about", lang)[:1024])
        if view.fmt == "elimination":  # ranked by the bracket first (by_stage)
            embed.add_field(name=t("tournament-fmt-elimination", lang), inline=False,
                            value=t("tournament-stage-about", lang)[:1024])
        shown = [pictures.Row(r.rank, names.get(r.player, str(r.player)), r.points,
                              r.opponents, r.beaten, r.wins, r.dropped) for r in rows]
        headers = (t("tournament-col-rank", lang), t("tournament-col-player", lang),
                   t("tournament-col-points", lang), t("tournament-col-opponents", lang),
                   t("tournament-col-beaten", lang), t("tournament-col-wins", lang))
        picture = await asyncio.to_thread(pictures.standings_png, shown, title, headers,
                                          t("tournament-dropped-mark", lang),
                                          t("tournament-tie-breaks-short", lang))
        files = [discord.File(io.BytesIO(picture), filename="standings.png",
                              description=title[:1024])]
        embed.set_image(url="attachment://standings.png")
        embeds = [embed]
        drawn = await self.bracket_file(view, lang, names, round_number)
        if drawn is not None:
            files.append(drawn)
            more = discord.Embed(title=t("tournament-bracket-title", lang, game=game)[:256])
            more.set_image(url="attachment://bracket.png")
            embeds.append(more)
        return {"embeds": embeds, "files": files}

    async def bracket_file(self, view: TournamentView, lang: str, names: dict[int, str],
                           until: int | None = None) -> discord.File | None:
        """An elimination's bracket picture after round ``until`` (None: every round in so
        far); None for a Swiss, or before round 1."""
        if view.fmt != "elimination":
            return None
        found = await self.bracket_of(view.id, until)
        if found is None:
            return None
        columns = []
        for number, tables in enumerate(found.rounds, start=1):
            through = set(found.through[number - 1]) if number <= len(found.through) else None
            heading = (t("tournament-bracket-final", lang) if number == len(found.plan)
                       else t("tournament-bracket-round", lang, round=number))
            columns.append((heading, [pictures.BracketTable(
                t("tournament-bracket-table", lang, table=s.number),
                tuple((names.get(p, str(p)) if p is not None else t("tournament-computer", lang),
                       None if through is None else p in through) for p in s.seats))
                for s in tables]))
        champion = ("" if found.champion is None else t(
            "tournament-champion", lang, name=names.get(found.champion, str(found.champion))))
        title = t("tournament-bracket-title", lang, game=self.title_of(view.game, lang))
        picture = await asyncio.to_thread(pictures.bracket_png, columns, title, champion)
        return discord.File(io.BytesIO(picture), filename="bracket.png",
                            description=title[:1024])

    async def bracket_of(self, tid: int, until: int | None) -> Bracket | None:
        """The engine's bracket from the stored rounds (those all in, up to ``until``): the
        players seeded as the service seeds them (round 1's players in sign-up order), with
        the event's seed. None before round 1 was seated."""
        rows = self.service.rows
        event = await rows.event(tid)
        tables = await rows.tables(tid)
        if event is None or not tables:
            return None
        first = {p for row in tables if row.round == 1 for p in row.seats if p is not None}
        seeded = [e.user_id for e in await rows.entrants(tid) if e.user_id in first]
        results: list[tuple[TableResult, ...]] = []
        for number in range(1, max(row.round for row in tables) + 1):
            group = [row for row in tables if row.round == number]
            if (until is not None and number > until) or not all(r.done for r in group):
                break
            results.append(tuple(TableResult(Seating(r.number, r.seats), r.places, r.absent)
                                 for r in group))
        return bracket(seeded, results, size=event.size, advance=event.advance,
                       seed=event.seed)
