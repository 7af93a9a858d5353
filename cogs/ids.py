"""Custom ids of Deckhand's components: ``dh:<verb>:<table>:<version>:<arg>``.

The table id and state version travel in the id, so a button keeps working after a restart
and a click on an older position is recognised as stale.
"""

from __future__ import annotations

import re
from typing import NamedTuple

PREFIX = "dh"
_PATTERN = re.compile(r"dh:([a-z]{1,8}):(\d{1,18}):(\d{1,9}):([A-Za-z0-9_.=,\-]{0,60})")
VERBS = frozenset({
    "join", "leave", "addc", "remc", "opts", "start", "cancel",  # lobby
    "opt", "timer", "swap",  # option menus
    "hand", "back", "manage", "over",  # public table
    "act", "pick", "set", "page", "view",  # a player's hand
})


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
