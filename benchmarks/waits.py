"""How long a computer's move keeps a table waiting, measured in the bot's process.

    # in the bot's process (benchmarks/botproc.py does this when DECKHAND_BENCH_WAITS is set)
    stamp_waits(client.manager, path)
    # in the benchmark, after the run
    waits = read_waits(path)
    for line in report(waits, shown=table_edits(sim)):
        print(line)

A computer's wait runs from the moment one of its seats is to act (the update after which the
game waits for a computer: the table's start, a person's move, the computer's own previous
move) to its move being applied (the update carrying it), and on to the table message first
showing that position (the simulated Discord's edit, when the benchmark has the requests).
It includes the computer's pause (``DECKHAND_AI_DELAY``), so a wait is at least that.
Every stamp reads ``time.monotonic()``, the clock the simulator stamps with too.

Also written: where each wait went (the turn's start to asking the computer player: its pause
and the event loop; asking to the choice: the queue, the search and the hand-over; the choice to
the move applied: the table's lock, storing, the listeners), the search queue (moves waiting
for a worker, moves being searched) at each change, and the scheduler's counts of moves
searched, dropped as stale and played at the normal level for want of time (none of this when
the scheduler is off).
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

#: the table and position a table message shows (its Hand button)
TABLE_VERSION = re.compile(r"dh:hand:(\d+):(\d+):")


def stamp_waits(manager: Any, path: str) -> None:
    """In the bot's process: append a line to ``path`` for every computer move applied
    (``move <table> <level> <version after> <due at> <applied at>``) and for every change
    of the search queue (``queue <at> <waiting> <running> <searched> <dropped> <fallbacks>``)."""
    from bot.tables import PLAYING, TableEvent

    out = open(path, "a", buffering=1)  # noqa: SIM115 - open as long as the process
    due: dict[int, tuple[int, float]] = {}
    due_people: dict[int, frozenset[int]] = {}  # table -> people it waits for
    # the computer player's seed of a move (table seed, version, seat) -> (asked, chosen)
    thought: dict[str, tuple[float, float]] = {}
    thinker = manager.thinker
    choose = thinker.choose

    async def timed(state: Any, seat: int, seed: str, *args: Any, **kwargs: Any) -> Any:
        asked = time.monotonic()
        action = await choose(state, seat, seed, *args, **kwargs)
        thought[seed] = (asked, time.monotonic())
        return action

    thinker.choose = timed

    async def listener(update: TableEvent) -> None:
        now = time.monotonic()
        at = update.position  # the table when the event happened
        for move in update.moves:
            if move.how == "computer" and at.table_id in due:
                version, since = due.pop(at.table_id)
                if version == at.version - 1:
                    out.write(f"move {at.table_id} {at.level} {at.version} {since} {now}\n")
                    table = manager.live(at.table_id)  # its seed is the service's own
                    seed = None if table is None else table.seed
                    split = thought.pop(f"{seed}:{version}:{move.seat}", None)
                    if split is not None:
                        out.write(f"split {at.table_id} {at.version} {split[0]} {split[1]}\n")
        people = at.people_due
        for user in people - due_people.get(at.table_id, frozenset()):
            out.write(f"turn {at.table_id} {user} {at.version} {now}\n")
        due_people[at.table_id] = people
        waiting = (at.status == PLAYING and not at.over
                   and any(at.seats[s].auto for s in at.to_act))
        if not waiting:
            due.pop(at.table_id, None)
        elif due.get(at.table_id, (-1, 0.0))[0] != at.version:
            due[at.table_id] = (at.version, now)

    manager.listeners.append(listener)
    queue = manager.thinker.scheduler
    if queue is not None:
        def changed(_at: float, waiting: int) -> None:
            out.write(f"queue {time.monotonic()} {waiting} {queue.running} {queue.searched} "
                      f"{queue.dropped} {queue.fallbacks}\n")

        queue.on_change = changed


@dataclass
class Waits:
    """What :func:`stamp_waits` wrote."""

    #: (table, level, version after the move, due at, applied at)
    moves: list[tuple[int, str, int, float, float]] = field(default_factory=list)
    #: (at, waiting, running, searched, dropped, fallbacks)
    queue: list[tuple[float, int, int, int, int, int]] = field(default_factory=list)
    #: (table, version after the move) -> (asked the computer player at, its choice at)
    splits: dict[tuple[int, int], tuple[float, float]] = field(default_factory=dict)
    #: (table, user, version, at): a person's turn began
    turns: list[tuple[int, int, int, float]] = field(default_factory=list)


def read_waits(path: str) -> Waits:
    """The stamps of :func:`stamp_waits` (none when the file is missing)."""
    found = Waits()
    try:
        with open(path) as lines:
            for line in lines:
                parts = line.split()
                if parts[:1] == ["move"] and len(parts) == 6:
                    found.moves.append((int(parts[1]), parts[2], int(parts[3]),
                                        float(parts[4]), float(parts[5])))
                elif parts[:1] == ["turn"] and len(parts) == 5:
                    found.turns.append((int(parts[1]), int(parts[2]), int(parts[3]),
                                        float(parts[4])))
                elif parts[:1] == ["split"] and len(parts) == 5:
                    found.splits[int(parts[1]), int(parts[2])] = (float(parts[3]),
                                                                  float(parts[4]))
                elif parts[:1] == ["queue"] and len(parts) == 7:
                    at, *counts = parts[1:]
                    found.queue.append((float(at), *map(int, counts)))  # type: ignore[arg-type]
    except FileNotFoundError:
        pass
    return found


def table_edits(requests: Iterable[Any]) -> dict[int, list[tuple[float, int]]]:
    """Table id → (time, version shown) of every edit of its table message, from the
    simulated Discord's captured requests."""
    shown: dict[int, list[tuple[float, int]]] = {}
    for q in requests:
        if q.method == "PATCH" and "/messages/" in q.path and "/webhooks/" not in q.path:
            found = TABLE_VERSION.search(json.dumps(q.json) if q.json is not None else "")
            if found:
                shown.setdefault(int(found.group(1)), []).append((q.time, int(found.group(2))))
    return shown


#: a control that makes a move, and the table and position it belongs to
MOVE_CONTROL = re.compile(r"dh:(?:act|pick|set|part):(\d+):(\d+):")


def turn_notices(waits: Waits, requests: Iterable[Any]) -> list[str]:
    """Lines to print: from a person's turn beginning to their live panel being edited to
    show its moves (a token's edit, not an answer to their click) and to their turn alert
    being posted, from the simulated Discord's captured requests."""
    panels: dict[tuple[int, int], float] = {}  # (table, version) -> first panel edit
    alerts: dict[tuple[int, int], list[tuple[float, int]]] = {}  # (table, user) -> posts
    for q in requests:
        body = json.dumps(q.json) if q.json is not None else ""
        if (q.method == "PATCH" and q.path.endswith("/messages/@original")) or (
                q.method == "POST" and q.path.endswith("/callback")):
            answer = q.method == "POST"  # shown by an answer to the person's click
            for table, version in {(int(a), int(b)) for a, b in MOVE_CONTROL.findall(body)}:
                panels.setdefault((table, version), -1.0 if answer else q.time)
        elif q.method == "POST" and isinstance(q.json, dict) and q.json.get("message_reference"):
            found = TABLE_VERSION.search(body)
            for user in (q.json.get("allowed_mentions") or {}).get("users") or []:
                if found:
                    alerts.setdefault((int(found.group(1)), int(user)), []).append(
                        (q.time, int(found.group(2))))
    to_panel, to_alert = [], []
    for table, user, version, at in waits.turns:
        if panels.get((table, version), -1.0) >= at:
            to_panel.append(panels[table, version] - at)
        later = [t for t, v in alerts.get((table, user), []) if v >= version and t >= at]
        if later:
            to_alert.append(min(later) - at)
    lines = [f"  {len(waits.turns)} turns of people"]
    if to_panel:
        lines.append(f"  to the live panel edited with the moves ({len(to_panel)} turns not "
                     f"begun by the person's own click): {_spread(to_panel)}")
    if to_alert:
        lines.append(f"  to the turn alert posted ({len(to_alert)}): {_spread(to_alert)}")
    return lines


def percentile(ordered: list[float], share: float) -> float:
    """The value below which ``share`` of the sorted values lie (nearest rank)."""
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))]


def _spread(values: list[float]) -> str:
    ordered = sorted(values)
    return (f"p50 {percentile(ordered, 0.5):.2f} s, p99 {percentile(ordered, 0.99):.2f} s, "
            f"max {ordered[-1]:.2f} s")


def report(waits: Waits, shown: dict[int, list[tuple[float, int]]] | None = None,
           started_at: float | None = None, width: float = 10.0) -> list[str]:
    """Lines to print: per level, the waits to the move applied (and shown), then the queue
    over time in ``width``-second windows from ``started_at``."""
    lines = []
    for level in sorted({m[1] for m in waits.moves}):
        mine = [m for m in waits.moves if m[1] == level]
        applied = [at - since for _, _, _, since, at in mine]
        line = f"  {level} computers: {len(mine)} moves; applied {_spread(applied)}"
        if shown is not None:
            seen = []
            for table, _, version, since, at in mine:
                later = [t for t, v in shown.get(table, []) if v >= version and t >= at]
                if later:
                    seen.append(min(later) - since)
            if seen:
                line += f"; shown ({len(seen)}) {_spread(seen)}"
        lines.append(line)
        split = [(since, *waits.splits[table, version], at)
                 for table, _, version, since, at in mine if (table, version) in waits.splits]
        if split:
            lines.append(f"    where it went ({len(split)} moves): turn to asking (pause, event "
                         f"loop) {_spread([b - a for a, b, _, _ in split])}; asking to the choice "
                         f"(queue, search, hand-over) {_spread([c - b for _, b, c, _ in split])}; "
                         f"choice to applied (lock, storing, listeners) "
                         f"{_spread([d - c for _, _, c, d in split])}")
    if not waits.moves:
        lines.append("  no computer moves were stamped")
    begin = started_at if started_at is not None else min(
        [m[3] for m in waits.moves] + [q[0] for q in waits.queue] or [0.0])
    # computers whose turn had begun and whose move was not yet applied, at most at once
    events = sorted([(m[3], 1) for m in waits.moves] + [(m[4], -1) for m in waits.moves])
    most: dict[int, int] = {}
    ending: dict[int, int] = {}
    count = 0
    for at, step in events:
        count += step
        k = max(0, int((at - begin) // width))
        most[k] = max(most.get(k, 0), count)
        ending[k] = count
    if most:
        carried, shown_counts = 0, []
        for k in range(max(most) + 1):
            shown_counts.append(str(max(most.get(k, carried), carried)))
            carried = ending.get(k, carried)
        lines.append(f"  computers due at once (turn begun, move not yet applied), max per "
                     f"{width:.0f} s: " + ", ".join(shown_counts))
    if waits.queue:
        windows: dict[int, list[int]] = {}
        for at, waiting, *_ in waits.queue:
            windows.setdefault(int((at - begin) // width), []).append(waiting)
        lines.append(f"  search queue (moves waiting for a worker), max per {width:.0f} s: "
                     + ", ".join(str(max(windows.get(k, [0]))) for k in range(max(windows) + 1)))
        _, _, _, searched, dropped, fallbacks = waits.queue[-1]
        lines.append(f"  scheduler: {searched} moves searched, {dropped} dropped as stale, "
                     f"{fallbacks} played at the normal level for want of time")
    else:
        lines.append("  scheduler: off (every search move waits for a worker, full budget)")
    return lines
