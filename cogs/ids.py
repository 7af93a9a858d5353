"""Custom ids of Deckhand's components: ``dh:<verb>:<table>:<version>:<arg>``.

The table id and state version travel in the id, so a button keeps working after a restart
and a click on an older position is recognised as stale. A table's clicks are routed by
:func:`parse` alone; a lesson's buttons are discord.py dynamic items matched by
:data:`LEARN_TEMPLATE`.
"""

from __future__ import annotations

import re
from typing import NamedTuple

PREFIX = "dh"
BUTTON_VERBS = (
    "join", "leave", "addc", "remc", "opts", "start", "cancel",  # lobby
    "hand", "back", "manage",  # public table
    "open",  # the public table's Open table: the Activity, in that channel
    "act", "page", "view",  # a player's hand
    "hint",  # a player's hint (bot/tables/hints.py)
    "mine",  # a person's own hand, from /tables, a reminder, an alert or the digest
    "tjoin", "tleave", "tcheck",  # a tournament's sign-up message (``table``: the tournament)
)
SELECT_VERBS = (
    "opt", "timer", "ondl", "swap", "level", "hints",  # option menus
    "over",  # the host's manage menu
    "pick", "set", "part",  # a player's hand
)
LEARN_VERBS = (
    "learn", "lplay",  # a guided deal's move, and its button that opens a real table
    "lhint",  # a guided deal's hint
)
#: a hand sent by direct message carries these alone: the only verbs a click from outside a
#: server may name (a click in a server must come from its table's server and channel)
DM_VERBS = frozenset(("act", "page", "view", "hint", "pick", "set", "part"))
#: verbs that act for the clicking person's own seat alone (the handler checks the seat) and
#: answer privately: taken from a DM or from any channel of the table's server, since a hand
#: opened from /tables or a reminder lives wherever that message is, not in the table's channel
SEAT_VERBS = DM_VERBS | {"mine"}
#: a tournament's sign-up buttons: their number is a tournament's, not a table's, and the
#: tournament cog (cogs/tournaments.py) answers them, not the table cog
TOURNAMENT_VERBS = frozenset(("tjoin", "tleave", "tcheck"))
VERBS = frozenset(BUTTON_VERBS + SELECT_VERBS + LEARN_VERBS)
_REST = r":(?P<table>\d{1,18}):(?P<version>\d{1,9}):(?P<arg>[A-Za-z0-9_.=,\-]{0,60})"
#: a guided deal's buttons (cogs/learn.py); ``table`` is the lesson, ``version`` its step
LEARN_TEMPLATE = re.compile(rf"dh:(?P<verb>{'|'.join(LEARN_VERBS)}){_REST}")
_PATTERN = re.compile(r"dh:([a-z]{1,8}):(\d{1,18}):(\d{1,9}):([A-Za-z0-9_.=,\-]{0,60})")


class ComponentId(NamedTuple):
    """A parsed custom id."""

    verb: str
    table: int
    version: int
    arg: str

    def __str__(self) -> str:
        return f"{PREFIX}:{self.verb}:{self.table}:{self.version}:{self.arg}"


def make(verb: str, table: int, version: int = 0, arg: object = "") -> str:
    """The custom id text for a component."""
    assert verb in VERBS, verb
    text = str(ComponentId(verb, table, version, str(arg)))
    assert len(text) <= 100
    return text


def parse(custom_id: str) -> ComponentId | None:
    """The parts of one of our custom ids, or None when it is malformed or forged."""
    found = _PATTERN.fullmatch(custom_id or "")
    if found is None or found.group(1) not in VERBS:
        return None
    return ComponentId(found.group(1), int(found.group(2)), int(found.group(3)), found.group(4))


def from_match(found: re.Match[str]) -> ComponentId:
    """The parts of an id matched by :data:`LEARN_TEMPLATE`."""
    return ComponentId(found["verb"], int(found["table"]), int(found["version"]), found["arg"])

