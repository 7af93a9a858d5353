"""The gateway websocket of the simulated Discord: HELLO, IDENTIFY, READY, dispatches."""

from __future__ import annotations

import asyncio
import json
import secrets
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

if TYPE_CHECKING:
    from .server import SimulatedDiscord

# Gateway opcodes.
DISPATCH = 0
HEARTBEAT = 1
IDENTIFY = 2
PRESENCE_UPDATE = 3
VOICE_STATE_UPDATE = 4
RESUME = 6
RECONNECT = 7
REQUEST_GUILD_MEMBERS = 8
INVALID_SESSION = 9
HELLO = 10
HEARTBEAT_ACK = 11

# Privileged intents: GUILD_MEMBERS, GUILD_PRESENCES, MESSAGE_CONTENT.
PRIVILEGED_INTENTS = (1 << 1) | (1 << 8) | (1 << 15)
GUILD_MESSAGES = 1 << 9
DIRECT_MESSAGES = 1 << 12


class GatewaySession:
    """One websocket connection of a client, from HELLO to close."""

    def __init__(self, sim: SimulatedDiscord, ws: web.WebSocketResponse) -> None:
        self.sim = sim
        self.ws = ws
        self.session_id = secrets.token_hex(16)
        self.sequence = 0
        self.intents = 0
        self.identified = False
        self.ready_sent = asyncio.Event()
        self.closed = asyncio.Event()
        self.received: list[dict[str, Any]] = []
        #: the ``shard`` of IDENTIFY: [shard_id, shard_count]; None: unsharded (every guild)
        self.shard: tuple[int, int] | None = None

    def serves(self, guild_id: str | None) -> bool:
        """Whether this connection carries a guild's events (DMs and unsharded: shard 0)."""
        if self.shard is None:
            return True
        shard_id, count = self.shard
        if guild_id is None:
            return shard_id == 0
        return (int(guild_id) >> 22) % count == shard_id

    async def send(self, op: int, data: Any, event: str | None = None) -> None:
        """Send one gateway payload (dispatches get the next sequence number)."""
        payload: dict[str, Any] = {"op": op, "d": data, "s": None, "t": None}
        if op == DISPATCH:
            self.sequence += 1
            payload["s"] = self.sequence
            payload["t"] = event
        if self.ws.closed:
            return
        await self.ws.send_str(json.dumps(payload))

    async def dispatch(self, event: str, data: Any) -> None:
        """Send a DISPATCH event."""
        await self.send(DISPATCH, data, event)

    async def run(self) -> None:
        """Serve the connection until either side closes it."""
        await self.send(HELLO, {"heartbeat_interval": 41250})
        try:
            async for message in self.ws:
                if message.type != WSMsgType.TEXT:
                    continue
                payload = json.loads(message.data)
                self.received.append(payload)
                await self._handle(payload)
        finally:
            self.closed.set()
            self.sim._gateway_closed(self)

    async def _handle(self, payload: dict[str, Any]) -> None:
        op = payload.get("op")
        data = payload.get("d")
        if not isinstance(data, dict):
            data = {}
        if op == HEARTBEAT:
            await self.send(HEARTBEAT_ACK, None)
        elif op == IDENTIFY:
            await self._identify(data)
        elif op == RESUME:
            await self._resume(data)
        elif op == REQUEST_GUILD_MEMBERS:
            await self._request_members(data)
        elif op in (PRESENCE_UPDATE, VOICE_STATE_UPDATE):
            return
        else:
            await self.ws.close(code=4001, message=b"Unknown opcode.")

    async def _identify(self, data: dict[str, Any]) -> None:
        if self.identified:
            await self.ws.close(code=4005, message=b"Already authenticated.")
            return
        if data.get("token") != self.sim.token:
            await self.ws.close(code=4004, message=b"Authentication failed.")
            return
        intents = int(data.get("intents", 0))
        if intents & PRIVILEGED_INTENTS & ~self.sim.privileged_intents:
            await self.ws.close(code=4014, message=b"Disallowed intent(s).")
            return
        shard = data.get("shard")
        if shard is not None:
            if (not isinstance(shard, list) or len(shard) != 2
                    or not all(isinstance(n, int) for n in shard)
                    or not 0 <= shard[0] < shard[1]):
                await self.ws.close(code=4010, message=b"Invalid shard.")
                return
            self.shard = (shard[0], shard[1])
        self.intents = intents
        self.identified = True
        self.sim._gateway_identified(self)
        guilds = [g for g in self.sim.guilds.values() if self.serves(g.id)]
        await self.dispatch(
            "READY",
            {
                "v": 10,
                "user": self.sim.bot_user.payload(),
                "guilds": [{"id": g.id, "unavailable": True} for g in guilds],
                "session_id": self.session_id,
                "resume_gateway_url": str(self.sim.gateway_url),
                "shard": list(self.shard or (0, 1)),
                "application": {"id": self.sim.application_id, "flags": 0},
                "private_channels": [],
                "relationships": [],
                "user_settings": {},
                "presences": [],
                "guild_join_requests": [],
                "geo_ordered_rtc_regions": [],
            },
        )
        for guild in guilds:
            await self.dispatch("GUILD_CREATE", self.sim.guild_create_payload(guild))
        self.ready_sent.set()

    async def _resume(self, data: dict[str, Any]) -> None:
        known = self.sim._sessions.get(data.get("session_id", ""))
        if data.get("token") != self.sim.token or known is None:
            await self.send(INVALID_SESSION, False)
            return
        self.session_id = known.session_id
        self.sequence = known.sequence
        self.intents = known.intents
        self.shard = known.shard
        self.identified = True
        self.sim._gateway_identified(self)
        await self.dispatch("RESUMED", {})
        self.ready_sent.set()

    async def _request_members(self, data: dict[str, Any]) -> None:
        guild_id = str(data.get("guild_id"))
        guild = self.sim.guilds.get(guild_id)
        if guild is None:
            return
        members = [self.sim.member_payload(m) for m in self.sim.members_of(guild)]
        await self.dispatch(
            "GUILD_MEMBERS_CHUNK",
            {
                "guild_id": guild_id,
                "members": members,
                "chunk_index": 0,
                "chunk_count": 1,
                "nonce": data.get("nonce"),
                "not_found": [],
            },
        )

    def wants_message(self, guild_message: bool) -> bool:
        """Whether the client's intents subscribe to MESSAGE_CREATE of this kind."""
        return bool(self.intents & (GUILD_MESSAGES if guild_message else DIRECT_MESSAGES))
