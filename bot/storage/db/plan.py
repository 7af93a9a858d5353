"""Database work written once for every back end: a *plan* is a generator of :class:`Step`.

A plan yields each statement it needs and receives its result, so the same Python code (with
its loops and decisions between statements) runs synchronously on a SQLite connection in a
worker thread, or awaits each statement on an aiosqlite or PostgreSQL connection::

    def count_games(guild_id: int) -> Plan[int]:
        row = yield Step.one("SELECT COUNT(*) FROM records WHERE guild_id=?", guild_id)
        return int(row[0])

Statements use ``?`` placeholders (the PostgreSQL back end numbers them ``$1, $2, ...``) and SQL
both back ends understand; a step may carry a PostgreSQL-only variant in ``pg``. Rows come back
as tuples.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Generator, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

T = TypeVar("T")
Row = tuple[Any, ...]

#: the kinds of step: one row (or None), every row, a row count, a statement per argument tuple
ONE, ALL, RUN, MANY = "one", "all", "run", "many"


@dataclass(frozen=True, slots=True)
class Step:
    """One statement of a plan, and what the plan wants back from it."""

    kind: str
    sql: str
    args: Sequence[Any] = ()
    pg: str | None = None  # the statement for PostgreSQL, when it must differ

    @classmethod
    def one(cls, sql: str, *args: Any, pg: str | None = None) -> Step:
        """The first row as a tuple, or None."""
        return cls(ONE, sql, args, pg)

    @classmethod
    def all(cls, sql: str, *args: Any, pg: str | None = None) -> Step:
        """Every row, as a list of tuples."""
        return cls(ALL, sql, args, pg)

    @classmethod
    def run(cls, sql: str, *args: Any, pg: str | None = None) -> Step:
        """A statement without rows; how many rows it changed."""
        return cls(RUN, sql, args, pg)

    @classmethod
    def many(cls, sql: str, rows: Iterable[Sequence[Any]], pg: str | None = None) -> Step:
        """The statement once per argument tuple; returns None."""
        return cls(MANY, sql, list(rows), pg)


#: a plan: yields steps, is sent each step's result, returns its answer
Plan = Generator[Step, Any, T]


def single(step: Step) -> Plan[Any]:
    """A plan of one step, answering that step's result."""
    return (yield step)


def drive_sync(plan: Plan[T], do: Callable[[Step], Any]) -> T:
    """Run a plan, each step by ``do``; a step's error is raised inside the plan."""
    try:
        step = next(plan)
        while True:
            try:
                result = do(step)
            except Exception as error:
                step = plan.throw(error)
            else:
                step = plan.send(result)
    except StopIteration as done:
        return done.value  # type: ignore[no-any-return]
    finally:
        plan.close()


async def drive(plan: Plan[T], do: Callable[[Step], Awaitable[Any]]) -> T:
    """Run a plan, awaiting each step by ``do``; a step's error is raised inside the plan."""
    try:
        step = next(plan)
        while True:
            try:
                result = await do(step)
            except Exception as error:
                step = plan.throw(error)
            else:
                step = plan.send(result)
    except StopIteration as done:
        return done.value  # type: ignore[no-any-return]
    finally:
        plan.close()
