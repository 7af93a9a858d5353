"""What keeps the bot's event loop busy, measured in the bot's process (benchmark only).

    # in the bot's process (benchmarks/botproc.py does this when DECKHAND_BENCH_LOOP is set)
    watch_loop(path)                 # before the event loop starts
    # in the benchmark, after the run
    for line in report(read_loop(path), since, until):
        print(line)

Written to ``path``, one line each, every stamp on ``time.monotonic()`` (the simulator's clock):

- ``stall <at> <wall ms> <cpu ms> <what> | <where>``: a callback of the event loop (a task's
  step, a timer, a transport's read) that ran for more than :data:`STALL_MS`, with the CPU time
  the loop's thread used meanwhile (wall well above CPU: the process waited for a core or for
  the GIL, the machine's load; CPU near wall: the bot's own work), what ran (the task's
  coroutine) and where the loop's thread was when a watchdog thread looked at it during the
  callback (the innermost frames of the project, discord.py, Pillow, asyncio, sqlite).
- ``gc <at> <generation> <ms>``: a garbage collection of more than :data:`GC_MS`, and
  ``gcsum <generation> <count> <ms>`` at the end (every collection).
- ``lag <at> <ms>``: a probe that sleeps :data:`PROBE` seconds woke this much late (only lags
  over :data:`LAG_MS` are written; ``probes <count>`` at the end).
- ``read <interaction id> <at> <cpu>``: an interaction's frame read and parsed by discord.py
  (the loop thread's CPU seconds then), and ``answer <interaction id> <at> <cpu>``: its first
  callback request issued. Between the two: the bot's own handling of the click, with the CPU
  its loop thread spent in that time (on the click or on anything else the loop ran).

None of this runs in production: only the benchmark's child process installs it.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import sys
import threading
import time
import traceback
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from benchmarks.waits import percentile

STALL_MS = 20.0  # a callback longer than this is written down
GC_MS = 5.0  # a collection longer than this is written down
LAG_MS = 20.0  # a probe's lag over this is written down
PROBE = 0.02  # seconds the lag probe sleeps between looks
WATCH = 0.005  # seconds between the watchdog's looks at a running callback
SAMPLE_AFTER = 0.03  # a callback running this long has its stack looked at
#: where a frame counts as telling what the loop's thread was doing
KNOWN = ("/bot/", "/cogs/", "/games/", "/discord/", "/PIL/", "/asyncio/", "/aiosqlite/",
         "/json/", "sqlite", "/aiohttp/", "/concurrent/", "/multiprocessing/")


def _where(frame: Any) -> str:
    """The innermost few frames of interest of a stack, innermost last."""
    found = []
    for summary in traceback.extract_stack(frame)[::-1]:
        name = summary.filename
        if any(part in name for part in KNOWN) and "loopwatch" not in name:
            short = name.split("/site-packages/")[-1].split("/lib/python3")[-1]
            for root in ("/bot/", "/cogs/", "/games/"):
                if root in short:
                    short = root[1:] + short.split(root, 1)[1]
            found.append(f"{short}:{summary.lineno} {summary.name}")
        if len(found) == 4:
            break
    return " < ".join(found) or "?"


def _what(handle: Any) -> str:
    """What an event loop callback runs: a task's coroutine, or the callback's name."""
    callback = getattr(handle, "_callback", None)
    task = getattr(callback, "__self__", None)
    if isinstance(task, asyncio.Task):
        coro = task.get_coro()
        return "task " + getattr(coro, "__qualname__", repr(coro))
    return getattr(callback, "__qualname__", repr(callback))


def watch_loop(path: str) -> None:
    """Install the loop's watch in this process (call before the event loop starts)."""
    out = open(path, "a", buffering=1)  # noqa: SIM115 - open as long as the process
    lock = threading.Lock()

    def write(line: str) -> None:
        with lock:
            out.write(line + "\n")

    main = threading.main_thread().ident
    running: list[Any] = [None, 0.0, 0.0, ""]  # handle, started at, cpu then, stack seen
    original = asyncio.events.Handle._run

    def run(self: asyncio.Handle) -> None:
        running[0], running[1], running[2], running[3] = self, time.monotonic(), \
            time.thread_time(), ""
        try:
            original(self)
        finally:
            began, cpu, where = running[1], running[2], running[3]
            running[0] = None
            wall = (time.monotonic() - began) * 1000
            if wall > STALL_MS:
                spent = (time.thread_time() - cpu) * 1000
                write(f"stall {began:.6f} {wall:.2f} {spent:.2f} {_what(self)} | {where}")

    asyncio.events.Handle._run = run  # type: ignore[method-assign]

    def watchdog() -> None:
        while True:
            time.sleep(WATCH)
            handle, began = running[0], running[1]
            if handle is None or running[3] or time.monotonic() - began < SAMPLE_AFTER:
                continue
            frame = sys._current_frames().get(main)  # a look at the loop's stack
            if frame is not None and running[0] is handle:
                running[3] = _where(frame)

    threading.Thread(target=watchdog, name="loopwatch", daemon=True).start()

    collecting: list[float] = [0.0, 0.0]
    totals: dict[int, list[float]] = {}

    def on_gc(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            collecting[:] = [time.perf_counter(), time.thread_time()]
            return
        ms = (time.perf_counter() - collecting[0]) * 1000
        cpu = (time.thread_time() - collecting[1]) * 1000
        entry = totals.setdefault(info["generation"], [0, 0.0, 0.0])
        entry[0] += 1
        entry[1] += ms
        entry[2] += cpu
        if ms > GC_MS:
            write(f"gc {time.monotonic():.6f} {info['generation']} {ms:.2f} {cpu:.2f}")

    gc.callbacks.append(on_gc)

    _WRITE[:] = [write]

    def summary() -> None:
        for generation, (count, ms, cpu) in sorted(totals.items()):
            write(f"gcsum {generation} {int(count)} {ms:.2f} {cpu:.2f}")
        write(f"probes {_PROBES[0]}")

    import atexit

    atexit.register(summary)

    from discord.state import ConnectionState
    from discord.webhook import async_ as webhook

    parse = ConnectionState.parse_interaction_create

    def read(self: Any, data: Any) -> None:
        write(f"read {data['id']} {time.monotonic():.6f} {time.thread_time():.6f}")
        parse(self, data)

    ConnectionState.parse_interaction_create = read  # type: ignore[method-assign]
    respond = webhook.AsyncWebhookAdapter.create_interaction_response
    answered = _ANSWERED

    def answer(self: Any, interaction_id: int, token: str, **kwargs: Any) -> Any:
        if interaction_id not in answered:
            answered.add(interaction_id)
            write(f"answer {interaction_id} {time.monotonic():.6f} {time.thread_time():.6f}")
        return respond(self, interaction_id, token, **kwargs)

    webhook.AsyncWebhookAdapter.create_interaction_response = answer  # type: ignore[method-assign]


_PROBES = [0]
_ANSWERED: set[int] = set()  # interactions whose first callback request was issued
_WRITE: list[Any] = []


async def probe_lag() -> None:
    """The loop-lag probe (run as a task of the bot's event loop after :func:`watch_loop`):
    sleeps :data:`PROBE` seconds again and again, writing down each wake-up that came late."""
    loop = asyncio.get_running_loop()
    while True:
        before = loop.time()
        await asyncio.sleep(PROBE)
        _PROBES[0] += 1
        lag = (loop.time() - before - PROBE) * 1000
        if lag > LAG_MS and _WRITE:
            _WRITE[0](f"lag {time.monotonic():.6f} {lag:.2f}")


#: the coroutines that answer an interaction (discord.py's dispatch of a command or of a
#: lesson's click); a table's click is answered by the table cog's listener (:func:`_answering`)
ANSWERING = ("schedule_dynamic_item_call", "_scheduled_task", "CommandTree")
ROUTER = "PlayCog.on_interaction"
SAMPLE_TASKS = 0.025  # seconds between looks at the interactions being answered


def _answering(coro: Any) -> Any:
    """The interaction a task's coroutine answers, or None (not one that answers one)."""
    name = getattr(coro, "__qualname__", "")
    frame = getattr(coro, "cr_frame", None)
    if frame is None:
        return None
    if any(part in name for part in ANSWERING):
        return frame.f_locals.get("interaction")
    listener = frame.f_locals.get("coro") if name.endswith("_run_event") else None
    args = frame.f_locals.get("args") or ()
    if getattr(listener, "__qualname__", "") == ROUTER and args:
        return args[0]
    return None


def _awaiting(coro: Any) -> str:
    """Where a suspended coroutine chain waits: its innermost frames of the project (and
    what it awaits at the bottom)."""
    chain = []
    bottom = ""
    while coro is not None:
        frame = getattr(coro, "cr_frame", None) or getattr(coro, "gi_frame", None)
        if frame is not None:
            name = frame.f_code.co_filename
            for root in ("/bot/", "/cogs/"):
                if root in name:
                    chain.append(f"{root[1:]}{name.split(root, 1)[1]}:{frame.f_lineno} "
                                 f"{frame.f_code.co_name}")
        nxt = getattr(coro, "cr_await", None) or getattr(coro, "gi_yieldfrom", None)
        if nxt is None:
            bottom = type(coro).__name__
        coro = nxt
    return " > ".join(chain[-3:]) + (f" > {bottom}" if bottom else "")


async def sample_answers() -> None:
    """Every :data:`SAMPLE_TASKS` seconds, where each interaction not answered yet is waiting
    (``waiting <at> <age ms> <where>``), once it has taken over 30 ms: a picture of the
    wall time to the first response, awaits included."""
    seen: dict[asyncio.Task[Any], float] = {}
    while True:
        await asyncio.sleep(SAMPLE_TASKS)
        now = time.monotonic()
        current = set()
        for task in asyncio.all_tasks():
            coro = task.get_coro()
            interaction = _answering(coro)
            if interaction is None:
                continue
            current.add(task)
            born = seen.setdefault(task, now)
            if getattr(interaction, "id", None) in _ANSWERED:
                continue  # answered: the rest is not the wait measured
            if now - born > 0.03 and _WRITE:
                _WRITE[0](f"waiting {now:.6f} {(now - born) * 1000:.0f} {_awaiting(coro)}")
        for gone in set(seen) - current:
            del seen[gone]


@dataclass
class LoopWatch:
    """What :func:`watch_loop` wrote."""

    stalls: list[tuple[float, float, float, str, str]] = field(default_factory=list)
    gcs: list[tuple[float, int, float, float]] = field(default_factory=list)
    gc_totals: dict[int, tuple[int, float, float]] = field(default_factory=dict)
    lags: list[tuple[float, float]] = field(default_factory=list)
    probes: int = 0
    reads: dict[str, tuple[float, float]] = field(default_factory=dict)
    answers: dict[str, tuple[float, float]] = field(default_factory=dict)
    waiting: list[tuple[float, float, str]] = field(default_factory=list)


def read_loop(path: str) -> LoopWatch:
    """Parse the file :func:`watch_loop` wrote."""
    found = LoopWatch()
    with contextlib.suppress(FileNotFoundError), open(path) as lines:
        for line in lines:
            kind, _, rest = line.rstrip("\n").partition(" ")
            parts = rest.split(" ")
            try:
                if kind == "stall":
                    head, _, where = rest.partition(" | ")
                    at, wall, cpu, what = head.split(" ", 3)
                    found.stalls.append((float(at), float(wall), float(cpu), what, where))
                elif kind == "gc":
                    found.gcs.append((float(parts[0]), int(parts[1]), float(parts[2]),
                                      float(parts[3])))
                elif kind == "gcsum":
                    found.gc_totals[int(parts[0])] = (int(parts[1]), float(parts[2]),
                                                      float(parts[3]))
                elif kind == "lag":
                    found.lags.append((float(parts[0]), float(parts[1])))
                elif kind == "probes":
                    found.probes = int(parts[0])
                elif kind == "read":
                    found.reads.setdefault(parts[0], (float(parts[1]), float(parts[2])))
                elif kind == "waiting":
                    at, age, where = rest.split(" ", 2)
                    found.waiting.append((float(at), float(age), where))
                elif kind == "answer":
                    found.answers.setdefault(parts[0], (float(parts[1]), float(parts[2])))
            except (ValueError, IndexError):
                continue
    return found


def _spread(values: Iterable[float]) -> str:
    ordered = sorted(values)
    if not ordered:
        return "none"
    return (f"p50 {percentile(ordered, 0.5):.1f} ms, p99 {percentile(ordered, 0.99):.1f} ms, "
            f"max {ordered[-1]:.1f} ms")


def report(watch: LoopWatch, since: float, until: float,
           dispatched: dict[str, float] | None = None, top: int = 8) -> list[str]:
    """Lines for the run between ``since`` and ``until`` (monotonic seconds)."""
    lines = []
    stalls = [s for s in watch.stalls if since <= s[0] <= until]
    big = [s for s in stalls if s[1] > 50]
    minutes = (until - since) / 60
    lines.append(
        f"event loop callbacks over 50 ms: {len(big)} ({len(big) / max(minutes, 1e-9):.1f} a "
        f"minute), their wall {sum(s[1] for s in big):.0f} ms, of it the loop thread's CPU "
        f"{sum(s[2] for s in big):.0f} ms; over {STALL_MS:.0f} ms: {len(stalls)}")
    busy = [s for s in stalls if s[2] > 50]
    lines.append(f"event loop callbacks whose own CPU time was over 50 ms (the bot's work, not "
                 f"the machine's load): {len(busy)}, max "
                 f"{max((s[2] for s in stalls), default=0):.0f} ms CPU")
    groups: dict[str, list[tuple[float, float]]] = {}
    for _, wall, cpu, what, where in stalls:
        groups.setdefault(f"{what} | {where}", []).append((wall, cpu))
    ranked = sorted(groups.items(), key=lambda kv: -sum(w for w, _ in kv[1]))
    for name, found in ranked[:top]:
        lines.append(f"  {len(found)}x, {sum(w for w, _ in found):.0f} ms wall "
                     f"({sum(c for _, c in found):.0f} CPU), max {max(w for w, _ in found):.0f}"
                     f" ms: {name[:260]}")
    lags = [ms for at, ms in watch.lags if since <= at <= until]
    lines.append(f"loop lag probe ({PROBE * 1000:.0f} ms sleeps, {watch.probes} in the whole "
                 f"process life): late by > 50 ms {sum(1 for x in lags if x > 50)} times, "
                 f"> 100 ms {sum(1 for x in lags if x > 100)} times, max "
                 f"{max(lags, default=0):.0f} ms")
    gcs = [g for g in watch.gcs if since <= g[0] <= until]
    lines.append(f"garbage collections over {GC_MS:.0f} ms in the run: {len(gcs)}, max "
                 f"{max((g[2] for g in gcs), default=0):.0f} ms (generation "
                 f"{max(gcs, key=lambda g: g[2])[1] if gcs else '-'}), max CPU "
                 f"{max((g[3] for g in gcs), default=0):.0f} ms; whole process life: "
                 + ", ".join(f"gen {g}: {n} taking {ms:.0f} ms ({cpu:.0f} ms CPU)"
                             for g, (n, ms, cpu) in sorted(watch.gc_totals.items())))
    inside = []
    cpu = []
    queued = []
    for key, (read_at, read_cpu) in watch.reads.items():
        if key in watch.answers and since <= read_at <= until:
            answer_at, answer_cpu = watch.answers[key]
            inside.append((answer_at - read_at) * 1000)
            cpu.append((answer_cpu - read_cpu) * 1000)
            if dispatched and key in dispatched:
                queued.append((read_at - dispatched[key]) * 1000)
    lines.append(f"in the bot's process, frame read -> first callback request ({len(inside)}): "
                 f"{_spread(inside)}; the loop thread's CPU meanwhile: {_spread(cpu)}")
    if queued:
        lines.append(f"dispatch -> frame read by the bot (its socket and loop): "
                     f"{_spread(queued)}")
    waiting: dict[str, int] = {}
    for at, _, where in watch.waiting:
        if since <= at <= until:
            waiting[where] = waiting.get(where, 0) + 1
    if waiting:
        lines.append(f"where interactions taking over 30 ms were, looked at every "
                     f"{SAMPLE_TASKS * 1000:.0f} ms (looks, most first):")
        for where, count in sorted(waiting.items(), key=lambda kv: -kv[1])[:top]:
            lines.append(f"  {count}: {where[:300]}")
    return lines
