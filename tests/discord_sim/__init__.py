"""A simulated Discord (REST and gateway) that a real discord.py client runs against in tests."""

from .interactions import InteractionResult
from .models import (
    CapturedRequest,
    SimChannel,
    SimGuild,
    SimMember,
    SimMessage,
    SimModal,
    SimUser,
    SpecError,
)
from .server import SimulatedDiscord

__all__ = [
    "CapturedRequest",
    "InteractionResult",
    "SimChannel",
    "SimGuild",
    "SimMember",
    "SimMessage",
    "SimModal",
    "SimUser",
    "SimulatedDiscord",
    "SpecError",
]
