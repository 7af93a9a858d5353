"""People's settings as the table's front end reads them: read once from the store, then
kept (the /settings commands, through :meth:`Preferences.change`, are their only writer)."""

from __future__ import annotations

import dataclasses
from typing import Any

from bot.storage.store import Storage, UserSettings


class Preferences:
    """Every person's settings, read once."""

    def __init__(self, store: Storage) -> None:
        self.store = store
        self.kept: dict[int, UserSettings] = {}

    async def of(self, user_id: int) -> UserSettings:
        """A person's settings."""
        found = self.kept.get(user_id)
        if found is None:
            found = self.kept[user_id] = await self.store.user_settings(user_id)
        return found

    async def wants_dm(self, user_id: int) -> bool:
        """Whether a person gets their hands by direct message."""
        return (await self.of(user_id)).dm

    async def change(self, user_id: int, **changes: Any) -> UserSettings:
        """Store some of a person's settings (the others as stored) and keep them."""
        chosen = dataclasses.replace(await self.store.user_settings(user_id), **changes)
        await self.store.set_user_settings(user_id, chosen)
        self.kept[user_id] = chosen
        return chosen

    def forget(self, user_id: int) -> None:
        """Let a person's settings go (/privacy forget-me removed them from the store)."""
        self.kept.pop(user_id, None)
