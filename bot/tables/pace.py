"""A table's pace and the arithmetic of correspondence time (pure: no I/O, no clock).

Every instant is epoch seconds (UTC) on the service's clock (:mod:`bot.tables.clock`); every
length is seconds. The timer scale is the clock's, not applied here.

Paces
    Live (:data:`LIVE_PACES`, the turn timers as before): ``off``, ``relaxed`` (300 s),
    ``normal`` (90 s), ``fast`` (30 s). Correspondence (:data:`CORRESPONDENCE_PACES`): ``1h``,
    ``8h``, ``24h``, ``3d``, ``7d``, a deadline per move. Anything else is refused with
    ``Refusal("bad-option", reason=...)`` (:func:`check_pace`).

At a deadline (:data:`DEADLINE_CHOICES`, the table's ``on_deadline``)
    ``computer``: the computer moves once for the person at every deadline they miss (the live
    tables' rule of keeping the seat after :data:`bot.tables.model.AWAY_AFTER` misses in a row
    is the service's, unchanged). ``drop``: the first miss in a row, the computer moves once;
    the second (:data:`DROP_AFTER`), the person is dropped from the table. Misses in a row are
    the seat's ``timeouts`` (a person's own move sets them to 0). :func:`at_deadline` answers
    :data:`MOVE` or :data:`DROP`.

The reminder
    At 80 % of the time (:data:`REMIND_AT`) from the turn's start to its deadline. When that
    instant falls in the person's quiet hours it moves forward to their end; when that end is
    at or past the deadline there is no reminder (None). After a restart or a pause the turn's
    start is taken as ``deadline - seconds(pace)``: 80 % of the pace before the deadline.

Quiet hours (:class:`Quiet`)
    A start and an end hour (0–23, whole hours, start ≠ end) of local time in an IANA time zone
    (``zoneinfo``): from ``start:00`` inclusive to ``end:00`` exclusive, crossing midnight when
    start > end (22–07: from 22:00 to 07:00 the next morning). Local time is the zone's at the
    instant, so a DST change is followed: on a night whose clocks go back the quiet hours last
    an hour longer in real time, on one whose clocks go forward an hour shorter. An end hour
    that the clocks skip (02:00 on a spring-forward night) ends the quiet hours when the clocks
    jump; an end hour that occurs twice (fall back) ends them at its first occurrence.

Away (a person's clocks paused, as chess.com's vacation)
    The budget is per calendar year in UTC: 7 days on 1 January, 2 more on the first of every
    later month (9 on 1 February, … 29 on 1 December); what is unused lapses at the year's end.
    An away period counts whole against the year it starts in (one starting on 30 December
    spends that year's days, even the part in January). :func:`away_allowance` gives what is
    left; :func:`away_limit` the latest instant a period starting now may last until.
    :func:`pause` pushes a deadline by the time the clock stood still: it stops at the later
    of the away period's start and the turn's start, and runs again when the period ends, so
    the time left when the person went away is all still there when they come back.

Downtime
    Time the bot was down is added to every running clock (:func:`shift_for_downtime`): a
    deadline later than the last instant the bot was known alive is pushed by the downtime; one
    that had already passed while it was alive is left (it is due at once).

The digest
    Once a day at :data:`DIGEST_HOUR` (09:00) local time in the person's zone
    (:func:`next_digest`, strictly after the given instant; an hour the clocks skip is taken as
    the instant they jump).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from bot.config import TIMER_CHOICES, TIMER_SECONDS
from bot.tables.model import Refusal

DAY = 86_400.0
#: the live turn timers, as before (seconds per move in ``bot.config.TIMER_SECONDS``)
LIVE_PACES: tuple[str, ...] = TIMER_CHOICES
#: seconds per move of the correspondence paces
CORRESPONDENCE_SECONDS: dict[str, float] = {
    "1h": 3_600.0,
    "8h": 8 * 3_600.0,
    "24h": DAY,
    "3d": 3 * DAY,
    "7d": 7 * DAY,
}
CORRESPONDENCE_PACES: tuple[str, ...] = tuple(CORRESPONDENCE_SECONDS)
PACES: tuple[str, ...] = LIVE_PACES + CORRESPONDENCE_PACES

#: what happens when a person's deadline passes (a table's ``on_deadline``)
DEADLINE_CHOICES = ("computer", "drop")
#: what :func:`at_deadline` answers: the computer moves once, or the person is dropped
MOVE, DROP = "move", "drop"
#: misses in a row at which ``drop`` drops the person
DROP_AFTER = 2

#: the share of a turn's time after which its person is reminded
REMIND_AT = 0.8
#: the local hour of the daily digest
DIGEST_HOUR = 9

#: away days on 1 January, and the days added on the first of each later month
AWAY_DAYS_A_YEAR = 7
AWAY_DAYS_A_MONTH = 2


# -- paces ----------------------------------------------------------------------------------
def is_correspondence(pace: str) -> bool:
    """Whether ``pace`` is a correspondence pace (a deadline per move of an hour or more)."""
    return pace in CORRESPONDENCE_SECONDS


def seconds(pace: str) -> float | None:
    """Seconds a person has for a move at ``pace`` (None: no timer); refused when unknown."""
    check_pace(pace)
    if pace in CORRESPONDENCE_SECONDS:
        return CORRESPONDENCE_SECONDS[pace]
    return TIMER_SECONDS[pace]


def check_pace(pace: str) -> str:
    """``pace`` when it is one offered; else ``Refusal("bad-option")`` naming them."""
    if pace not in PACES:
        raise Refusal("bad-option", reason=f"the pace must be one of {', '.join(PACES)}")
    return pace


def check_on_deadline(choice: str) -> str:
    """``choice`` when it is one of :data:`DEADLINE_CHOICES`; else ``Refusal("bad-option")``."""
    if choice not in DEADLINE_CHOICES:
        raise Refusal("bad-option", reason="at a deadline the choice is "
                      f"{' or '.join(DEADLINE_CHOICES)}")
    return choice


def at_deadline(on_deadline: str, misses: int) -> str:
    """What a missed deadline does: :data:`MOVE` (the computer moves once) or :data:`DROP`.

    ``misses``: deadlines missed in a row by the seat's person, this one included (1 for the
    first)."""
    check_on_deadline(on_deadline)
    if on_deadline == "drop" and misses >= DROP_AFTER:
        return DROP
    return MOVE


# -- time zones and quiet hours -------------------------------------------------------------
def zone(name: str) -> ZoneInfo:
    """The IANA time zone ``name`` (``Europe/Paris``, ``UTC``); ``Refusal("bad-option")`` when
    there is none of that name."""
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, TypeError):
        # ValueError: a name that is no key at all ("../etc", an absolute path)
        raise Refusal("bad-option", reason=f"{name!r} is not a time zone (like Europe/Paris)"
                      ) from None


def check_hour(hour: int) -> int:
    """A whole hour of the day, 0 to 23; else ``Refusal("bad-option")``."""
    if isinstance(hour, bool) or not isinstance(hour, int) or not 0 <= hour <= 23:
        raise Refusal("bad-option", reason=f"an hour is a whole number from 0 to 23, not "
                      f"{hour!r}")
    return hour


@dataclass(frozen=True)
class Quiet:
    """A person's quiet hours: ``start:00`` to ``end:00`` local time in ``tz`` (see the
    module's docstring). Made with :meth:`of`, which checks them."""

    tz: str
    start: int
    end: int

    @classmethod
    def of(cls, tz: str, start: int, end: int) -> Quiet:
        """Checked quiet hours; ``Refusal("bad-option")`` for a bad zone or hour, or when the
        start and end are the same hour (quiet all day, or never: neither is meant)."""
        zone(tz)
        check_hour(start)
        check_hour(end)
        if start == end:
            raise Refusal("bad-option", reason="quiet hours must start and end at different "
                          "hours")
        return cls(tz, start, end)

    def contains(self, instant: float) -> bool:
        """Whether ``instant`` falls in these quiet hours."""
        local = datetime.fromtimestamp(instant, zone(self.tz))
        second = local.hour * 3600 + local.minute * 60 + local.second + local.microsecond / 1e6
        begin, finish = self.start * 3600, self.end * 3600
        if self.start < self.end:
            return begin <= second < finish
        return second >= begin or second < finish

    def end_after(self, instant: float) -> float:
        """The instant the quiet hours that hold ``instant`` end (``instant`` itself when it is
        not in quiet hours)."""
        if not self.contains(instant):
            return instant
        where = zone(self.tz)
        local = datetime.fromtimestamp(instant, where)
        day = local.date()
        if self.start > self.end and local.hour >= self.start:
            day += timedelta(days=1)  # the evening part: they end tomorrow morning
        return _local(day, self.end, where)


def _local(day: date, hour: int, where: ZoneInfo) -> float:
    """The instant of ``hour``:00 on ``day`` in ``where`` (fold 0: an hour the clocks skip is
    the instant they jump, one they repeat its first occurrence)."""
    return datetime.combine(day, time(hour), tzinfo=where).timestamp()


def remind_at(start: float, deadline: float, quiet: Quiet | None) -> float | None:
    """The instant to remind the person of a turn from ``start`` to ``deadline``: at
    :data:`REMIND_AT` of it, moved forward out of ``quiet`` hours; None when there is no time
    for one (the moved reminder would not come before the deadline)."""
    if not deadline > start:
        return None
    when = start + REMIND_AT * (deadline - start)
    if quiet is not None:
        when = quiet.end_after(when)
    return when if when < deadline else None


def next_digest(now: float, tz: str, hour: int = DIGEST_HOUR) -> float:
    """The next instant strictly after ``now`` at ``hour``:00 local time in ``tz``."""
    where = zone(tz)
    day = datetime.fromtimestamp(now, where).date()
    when = _local(day, hour, where)
    while when <= now:
        day += timedelta(days=1)
        when = _local(day, hour, where)
    return when


# -- away -----------------------------------------------------------------------------------
def _year(instant: float) -> int:
    return datetime.fromtimestamp(instant, UTC).year


def away_accrued(now: float) -> float:
    """Seconds of away the year (UTC) has given by ``now``: 7 days, 2 more a month begun."""
    month = datetime.fromtimestamp(now, UTC).month
    return (AWAY_DAYS_A_YEAR + AWAY_DAYS_A_MONTH * (month - 1)) * DAY


def away_used(used_periods: Iterable[tuple[float, float]], now: float) -> float:
    """Seconds of away spent in ``now``'s year: the periods ``(from, until)`` that start in it,
    each whole."""
    year = _year(now)
    return sum(max(0.0, until - begin) for begin, until in used_periods
               if _year(begin) == year)


def away_allowance(used_periods: Iterable[tuple[float, float]], now: float) -> float:
    """Seconds of away left at ``now`` (0 or more), the year's periods so far ``used``."""
    return max(0.0, away_accrued(now) - away_used(used_periods, now))


def away_left(used_seconds: float, used_year: int | None, now: float) -> float:
    """Seconds of away left at ``now`` for a person whose stored count is ``used_seconds``
    spent in ``used_year`` (a count of another year is spent no more: it lapsed)."""
    spent = used_seconds if used_year == _year(now) else 0.0
    return max(0.0, away_accrued(now) - spent)


def away_limit(used_periods: Iterable[tuple[float, float]], now: float) -> float:
    """The latest instant an away period starting at ``now`` may last until."""
    return now + away_allowance(used_periods, now)


def pause(deadline: float, away_from: float, away_until: float,
          started: float = -math.inf) -> float:
    """``deadline`` pushed by an away period ``away_from``–``away_until`` of a turn that began
    at ``started``: the clock stops at the later of the two starts, unless the time had run
    out by then, and runs again at ``away_until``."""
    stop = max(away_from, started)
    if stop >= deadline or away_until <= stop:
        return deadline
    return deadline + (away_until - stop)


def shift_for_downtime(deadline: float, down_from: float, up_at: float) -> float:
    """``deadline`` after the bot was down from ``down_from`` (its last instant known alive) to
    ``up_at``: pushed by the downtime when it was still running at ``down_from``."""
    if deadline <= down_from or up_at <= down_from:
        return deadline
    return deadline + (up_at - down_from)
