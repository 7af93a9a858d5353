"""/settings for long games: away, back, quiet hours, time zone and the daily digest.

Quiet hours, the time zone and the digest are the person's settings (stored through
:class:`cogs.prefs.Preferences`; the table service reads them when it schedules reminders and
digests). Away and back are the service's (:meth:`bot.tables.TableManager.set_away`), since
they pause the person's clocks at every table; the kept settings are read afresh after them.
Each answer says what is now set, in the person's language.
"""

from __future__ import annotations

from datetime import datetime
from functools import cache
from zoneinfo import available_timezones

from discord import app_commands

from bot.client.tree import reply
from bot.i18n import lang_of, t
from bot.tables import Refusal, TableManager
from bot.tables.pace import Quiet, zone
from cogs.board import Interaction
from cogs.prefs import Preferences

#: the days /settings away offers (the service also refuses more than the year's budget left)
AWAY_DAYS = tuple(range(1, 15))
#: zones offered first when nothing is typed yet: one or two per region, the most populous
COMMON_ZONES = (
    "UTC", "Europe/London", "Europe/Paris", "Europe/Berlin", "Europe/Moscow",
    "America/New_York", "America/Chicago", "America/Denver", "America/Los_Angeles",
    "America/Sao_Paulo", "America/Mexico_City", "America/Toronto", "Asia/Tokyo",
    "Asia/Seoul", "Asia/Shanghai", "Asia/Kolkata", "Asia/Singapore", "Asia/Jakarta",
    "Asia/Dubai", "Australia/Sydney", "Pacific/Auckland", "Africa/Lagos", "Africa/Cairo",
    "Africa/Johannesburg", "Pacific/Honolulu",
)
#: Discord offers at most 25 autocomplete choices
MOST_CHOICES = 25


@cache
def _zones() -> tuple[str, ...]:
    return tuple(sorted(available_timezones()))


def zone_choices(current: str) -> list[app_commands.Choice[str]]:
    """The zones that match what is typed (the common ones first), at most 25."""
    typed = current.strip().lower().replace(" ", "_")
    if not typed:
        found = list(COMMON_ZONES)
    else:
        common = [z for z in COMMON_ZONES if typed in z.lower()]
        found = common + [z for z in _zones() if typed in z.lower() and z not in common]
    return [app_commands.Choice(name=z, value=z) for z in found[:MOST_CHOICES]]


def hour_text(hour: int) -> str:
    """An hour of the day as it is written (``07:00``)."""
    return f"{hour:02d}:00"


def days_text(days: int) -> str:
    """A choice of /settings away as it is listed (its words are the catalogues')."""
    return "1 day" if days == 1 else f"{days} days"


def _days(value: object) -> int:
    """A count of days as the service gives it (days, perhaps with a fraction) in whole days
    left: a part of a day cannot be taken."""
    try:
        return max(0, int(float(value)))  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return 0


class TimeSettings:
    """The /settings commands of long games."""

    def __init__(self, manager: TableManager, prefs: Preferences) -> None:
        self.manager = manager
        self.prefs = prefs

    async def away(self, interaction: Interaction, days: int) -> None:
        """/settings away: the person's clocks paused at all their tables for some days."""
        lang = lang_of(interaction.locale)
        user_id = interaction.user.id
        try:
            until = await self.manager.set_away(user_id, days)
        except Refusal as refusal:
            if refusal.key != "bad-away":
                raise
            left = _days(refusal.params.get("left"))
            await reply(interaction, t("away-over", lang, days=days, left=left))
            return
        self.prefs.forget(user_id)  # the service stored the away period: read afresh
        await self.prefs.change(user_id, locale=lang)
        await reply(interaction, t("away-set", lang, days=days, until=f"<t:{int(until)}:F>"))

    async def back(self, interaction: Interaction) -> None:
        """/settings back: the away period ends now."""
        lang = lang_of(interaction.locale)
        await self.manager.end_away(interaction.user.id)
        self.prefs.forget(interaction.user.id)
        await self.prefs.change(interaction.user.id, locale=lang)
        await reply(interaction, t("away-back", lang))

    async def quiet(self, interaction: Interaction, start: int | None, end: int | None) -> None:
        """/settings quiet: no reminders from one hour to another (both left out: none)."""
        lang = lang_of(interaction.locale)
        if start is None and end is None:
            await self.prefs.change(interaction.user.id, locale=lang, quiet_from=None,
                                    quiet_to=None)
            await reply(interaction, t("quiet-off", lang))
            return
        if start is None or end is None:
            await reply(interaction, t("quiet-both", lang))
            return
        tz = (await self.prefs.of(interaction.user.id)).tz
        try:
            Quiet.of(tz, start, end)
        except Refusal:
            await reply(interaction, t("quiet-bad", lang))
            return
        await self.prefs.change(interaction.user.id, locale=lang, quiet_from=start, quiet_to=end)
        await reply(interaction, t("quiet-set", lang, start=hour_text(start), end=hour_text(end),
                                   tz=tz))

    async def timezone(self, interaction: Interaction, name: str) -> None:
        """/settings timezone: the zone of the person's quiet hours and digest."""
        lang = lang_of(interaction.locale)
        try:
            where = zone(name.strip())
        except Refusal:
            await reply(interaction, t("tz-unknown", lang, name=name[:64]))
            return
        tz = str(where.key)
        await self.prefs.change(interaction.user.id, locale=lang, tz=tz)
        await self.manager.refresh_person(interaction.user.id)  # the digest's hour moves
        # the service's clock, which quiet hours and the digest are reckoned on (a test's, or
        # one run faster by the timer scale), not the wall clock
        now = datetime.fromtimestamp(self.manager.clock.now(), where).strftime("%H:%M")
        await reply(interaction, t("tz-set", lang, tz=tz, now=now))

    async def zones(self, interaction: Interaction, current: str
                    ) -> list[app_commands.Choice[str]]:
        """The time zone's autocomplete."""
        return zone_choices(current)

    async def digest(self, interaction: Interaction, enabled: bool) -> None:
        """/settings digest: a DM each morning listing the tables where it is your move."""
        lang = lang_of(interaction.locale)
        chosen = await self.prefs.change(interaction.user.id, locale=lang, digest=enabled)
        await self.manager.refresh_person(interaction.user.id)  # scheduled, or no longer
        await reply(interaction, t("digest-on" if enabled else "digest-off", lang, tz=chosen.tz))
