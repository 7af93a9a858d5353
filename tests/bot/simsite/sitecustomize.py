"""Points discord.py at a simulated Discord, for tests that run the real ``python -m bot``.

Python imports ``sitecustomize`` at start from its path; the tests put this folder on
``PYTHONPATH`` with ``DECKHAND_SIM_BASE`` (the simulator's REST base) and
``DECKHAND_SIM_GATEWAY`` (its gateway) set, so the bot's own start-up runs unchanged and talks
to the simulator. Without those variables it does nothing.
"""

import os

if os.environ.get("DECKHAND_SIM_BASE"):
    import discord.gateway
    import discord.http
    import yarl

    discord.http.Route.BASE = os.environ["DECKHAND_SIM_BASE"]
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(
        os.environ["DECKHAND_SIM_GATEWAY"])
