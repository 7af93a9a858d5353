"""Paces and correspondence arithmetic: deadlines, reminders out of quiet hours (midnight and
DST included), the away budget, pauses, downtime, the digest."""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest

from bot.config import TIMER_CHOICES
from bot.tables import pace
from bot.tables.model import Refusal
from bot.tables.pace import DAY, Quiet

HOUR = 3600.0
PARIS, NEW_YORK, TOKYO = "Europe/Paris", "America/New_York", "Asia/Tokyo"


def at(tz: str, *when: int) -> float:
    """The instant of a local time (year, month, day, hour[, minute]) in ``tz``."""
    return datetime(*when, tzinfo=ZoneInfo(tz)).timestamp()  # type: ignore[arg-type, misc]


def utc(*when: int) -> float:
    return datetime(*when, tzinfo=UTC).timestamp()  # type: ignore[arg-type, misc]


# -- paces ----------------------------------------------------------------------------------
def test_every_pace_has_its_seconds_and_the_live_ones_are_the_timers_of_before() -> None:
    offered = pace.PACES
    assert offered == (*TIMER_CHOICES, "1h", "8h", "24h", "3d", "7d")
    assert [pace.seconds(p) for p in pace.PACES] == [
        None, 300.0, 90.0, 30.0, HOUR, 8 * HOUR, DAY, 3 * DAY, 7 * DAY]
    assert [pace.is_correspondence(p) for p in pace.PACES] == [False] * 4 + [True] * 5
    assert not pace.is_correspondence("2d")


@pytest.mark.parametrize("bad", ["2d", "", "7D", "24", "slow"])
def test_a_pace_not_offered_is_refused_naming_those_that_are(bad: str) -> None:
    with pytest.raises(Refusal) as refused:
        pace.check_pace(bad)
    assert refused.value.key == "bad-option"
    assert "off, relaxed, normal, fast, 1h, 8h, 24h, 3d, 7d" in refused.value.params["reason"]
    with pytest.raises(Refusal):
        pace.seconds(bad)
    assert pace.check_pace("3d") == "3d"


def test_at_a_deadline_the_computer_moves_or_the_second_miss_drops_the_person() -> None:
    assert pace.DEADLINE_CHOICES == ("computer", "drop")
    assert [pace.at_deadline("computer", n) for n in (1, 2, 3)] == ["move"] * 3
    assert [pace.at_deadline("drop", n) for n in (1, 2, 3)] == ["move", "drop", "drop"]
    with pytest.raises(Refusal) as refused:
        pace.check_on_deadline("kick")
    assert refused.value.key == "bad-option"
    with pytest.raises(Refusal):
        pace.at_deadline("kick", 1)


# -- quiet hours ----------------------------------------------------------------------------
@pytest.mark.parametrize("tz, start, end", [
    ("Mars/Olympus_Mons", 22, 7), ("../../etc/passwd", 22, 7), ("", 22, 7),
    (PARIS, 24, 7), (PARIS, -1, 7), (PARIS, 22, True), (PARIS, 7, 7)])
def test_quiet_hours_that_are_not_are_refused(tz: str, start: int, end: int) -> None:
    with pytest.raises(Refusal) as refused:
        Quiet.of(tz, start, end)
    assert refused.value.key == "bad-option"


def test_quiet_hours_crossing_midnight() -> None:
    quiet = Quiet.of(PARIS, 22, 7)
    inside = [(2026, 6, 10, 22, 0), (2026, 6, 10, 23, 59), (2026, 6, 11, 0, 0),
              (2026, 6, 11, 3, 0), (2026, 6, 11, 6, 59)]
    outside = [(2026, 6, 10, 21, 59), (2026, 6, 11, 7, 0), (2026, 6, 11, 12, 0)]
    assert all(quiet.contains(at(PARIS, *w)) for w in inside)
    assert not any(quiet.contains(at(PARIS, *w)) for w in outside)
    # the evening part ends the next morning, the morning part the same morning
    assert quiet.end_after(at(PARIS, 2026, 6, 10, 23, 0)) == at(PARIS, 2026, 6, 11, 7)
    assert quiet.end_after(at(PARIS, 2026, 6, 11, 3, 0)) == at(PARIS, 2026, 6, 11, 7)
    noon = at(PARIS, 2026, 6, 11, 12)
    assert quiet.end_after(noon) == noon


def test_quiet_hours_within_a_day() -> None:
    quiet = Quiet.of(TOKYO, 13, 15)
    assert quiet.contains(at(TOKYO, 2026, 1, 5, 14, 30))
    assert not quiet.contains(at(TOKYO, 2026, 1, 5, 15, 0))
    assert not quiet.contains(at(TOKYO, 2026, 1, 5, 12, 59))
    assert quiet.end_after(at(TOKYO, 2026, 1, 5, 13)) == at(TOKYO, 2026, 1, 5, 15)


# -- the reminder ---------------------------------------------------------------------------
def test_the_reminder_comes_at_eighty_percent() -> None:
    start = at(PARIS, 2026, 6, 10, 9)
    assert pace.remind_at(start, start + DAY, None) == start + 0.8 * DAY
    # 80 % of a day from 09:00 is 04:12 the next morning: quiet, moved to 07:00
    assert pace.remind_at(start, start + DAY, Quiet.of(PARIS, 22, 7)) == \
        at(PARIS, 2026, 6, 11, 7)
    # out of quiet hours it stays
    assert pace.remind_at(start, start + DAY, Quiet.of(PARIS, 13, 15)) == start + 0.8 * DAY


def test_no_reminder_when_moving_it_out_of_quiet_hours_would_pass_the_deadline() -> None:
    start = at(PARIS, 2026, 6, 10, 21)
    # an 8-hour turn from 21:00: 80 % is 03:24, quiet until 07:00, past the 05:00 deadline
    assert pace.remind_at(start, start + 8 * HOUR, Quiet.of(PARIS, 22, 7)) is None
    # ending exactly at the deadline is no reminder either
    start = at(PARIS, 2026, 6, 10, 23)
    assert pace.remind_at(start, start + 8 * HOUR, Quiet.of(PARIS, 22, 7)) is None
    assert pace.remind_at(start, start, None) is None


def test_quiet_hours_follow_a_spring_forward_night() -> None:
    # New York's clocks go from 02:00 to 03:00 on 8 March 2026: 22:00-07:00 is 8 real hours
    quiet = Quiet.of(NEW_YORK, 22, 7)
    evening = at(NEW_YORK, 2026, 3, 7, 23)
    assert evening == utc(2026, 3, 8, 4)  # EST, UTC-5
    assert quiet.end_after(evening) == utc(2026, 3, 8, 11)  # 07:00 EDT, UTC-4
    assert quiet.end_after(evening) - at(NEW_YORK, 2026, 3, 7, 22) == 8 * HOUR
    start = evening - 0.8 * 8 * HOUR  # a turn whose reminder falls at 23:00
    assert pace.remind_at(start, start + 8 * HOUR, quiet) is None  # deadline 00:36: before 07:00
    start = evening - 0.8 * 3 * DAY  # a three-day turn: its deadline 14:12 on Sunday
    assert pace.remind_at(start, start + 3 * DAY, quiet) == utc(2026, 3, 8, 11)


def test_quiet_hours_follow_a_fall_back_night() -> None:
    # the clocks go back from 02:00 to 01:00 on 1 November 2026: 22:00-07:00 is 10 real hours
    quiet = Quiet.of(NEW_YORK, 22, 7)
    evening = at(NEW_YORK, 2026, 10, 31, 22)
    assert quiet.end_after(evening) == utc(2026, 11, 1, 12)  # 07:00 EST
    assert quiet.end_after(evening) - evening == 10 * HOUR
    # the repeated hour is quiet both times
    first, second = utc(2026, 11, 1, 5, 30), utc(2026, 11, 1, 6, 30)  # 01:30 EDT, 01:30 EST
    assert quiet.contains(first) and quiet.contains(second)


def test_quiet_hours_ending_in_the_skipped_hour_end_when_the_clocks_jump() -> None:
    quiet = Quiet.of(NEW_YORK, 23, 2)
    assert quiet.end_after(at(NEW_YORK, 2026, 3, 8, 1, 30)) == utc(2026, 3, 8, 7)  # 03:00 EDT
    assert not quiet.contains(utc(2026, 3, 8, 7))


# -- the digest -----------------------------------------------------------------------------
def test_the_digest_comes_at_nine_local_time_strictly_after_now() -> None:
    assert pace.next_digest(at(TOKYO, 2026, 5, 1, 8, 59), TOKYO) == at(TOKYO, 2026, 5, 1, 9)
    assert pace.next_digest(at(TOKYO, 2026, 5, 1, 9), TOKYO) == at(TOKYO, 2026, 5, 2, 9)
    assert pace.next_digest(at(TOKYO, 2026, 5, 1, 23), TOKYO) == at(TOKYO, 2026, 5, 2, 9)
    assert pace.next_digest(utc(2026, 5, 1, 0), "UTC", hour=18) == utc(2026, 5, 1, 18)


def test_the_digest_keeps_its_local_hour_over_a_dst_change() -> None:
    saturday = at(NEW_YORK, 2026, 3, 7, 9)
    sunday = pace.next_digest(saturday, NEW_YORK)
    assert sunday == utc(2026, 3, 8, 13)  # 09:00 EDT
    assert sunday - saturday == 23 * HOUR
    assert pace.next_digest(at(NEW_YORK, 2026, 10, 31, 9), NEW_YORK) - \
        at(NEW_YORK, 2026, 10, 31, 9) == 25 * HOUR
    with pytest.raises(Refusal):
        pace.next_digest(saturday, "Nowhere/Town")


# -- away -----------------------------------------------------------------------------------
def test_the_away_budget_is_seven_days_and_two_more_each_month_of_the_utc_year() -> None:
    assert pace.away_accrued(utc(2026, 1, 1)) == 7 * DAY
    assert pace.away_accrued(utc(2026, 1, 31, 23, 59)) == 7 * DAY
    assert pace.away_accrued(utc(2026, 2, 1)) == 9 * DAY
    assert pace.away_accrued(utc(2026, 12, 31, 23, 59)) == 29 * DAY
    assert pace.away_accrued(utc(2027, 1, 1)) == 7 * DAY  # the unused lapsed


def test_away_periods_count_against_the_year_they_start_in() -> None:
    now = utc(2026, 3, 10)  # 11 days accrued
    periods = [
        (utc(2025, 12, 30), utc(2026, 1, 4)),  # last year's, though it ran into this one
        (utc(2026, 1, 10), utc(2026, 1, 13)),  # 3 days
        (utc(2026, 2, 20), utc(2026, 2, 22)),  # 2 days
    ]
    assert pace.away_used(periods, now) == 5 * DAY
    assert pace.away_allowance(periods, now) == 6 * DAY
    assert pace.away_limit(periods, now) == now + 6 * DAY
    assert pace.away_allowance([(utc(2026, 1, 2), utc(2026, 1, 30))], now) == 0.0
    assert pace.away_allowance([(utc(2026, 1, 2), utc(2026, 1, 1))], now) == 11 * DAY
    # the stored count: this year's is spent, an earlier year's has lapsed
    assert pace.away_left(5 * DAY, 2026, now) == 6 * DAY
    assert pace.away_left(5 * DAY, 2025, now) == 11 * DAY
    assert pace.away_left(0.0, None, now) == 11 * DAY


def test_away_pauses_the_clock_from_its_start_to_its_end() -> None:
    # 200 s left when the person goes away at 800; back at 2000: 200 s left still
    assert pace.pause(1000.0, 800.0, 2000.0) == 2200.0
    # away since before the turn began: the clock stood still from the turn's start
    assert pace.pause(1000.0, 500.0, 950.0, started=900.0) == 1050.0
    # a period over before the turn began, or beginning after the time ran out: nothing
    assert pace.pause(1000.0, 100.0, 800.0, started=900.0) == 1000.0
    assert pace.pause(1000.0, 1000.0, 3000.0) == 1000.0


def test_downtime_is_added_to_the_clocks_that_were_running() -> None:
    assert pace.shift_for_downtime(1000.0, 900.0, 1500.0) == 1600.0
    assert pace.shift_for_downtime(850.0, 900.0, 1500.0) == 850.0  # it ran out while alive
    assert pace.shift_for_downtime(1000.0, 900.0, 900.0) == 1000.0
