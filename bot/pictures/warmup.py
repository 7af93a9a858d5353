"""One picture drawn before the bot goes online, so that the fonts and the drawing workers are
loaded once at start rather than during the first game's first move."""

from __future__ import annotations

from bot.pictures import table_png_async
from games.core import Rules


async def warm_up(rules: Rules) -> None:
    """Draw the table of a fresh game of ``rules`` (at its fewest players) and throw it away."""
    state = rules.new_game(rules.min_players, seed=0)
    await table_png_async(state.view(None).to_dict(), ["-"] * rules.min_players)
