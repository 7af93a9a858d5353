"""Who is at the web table: Discord's OAuth2 code exchange, the person it names, signed
sessions, and the check that the Activity instance they opened is in the channel they ask for.

The page never names a person itself: the server exchanges the code the Discord client gave it
(``POST {api}/oauth2/token``), reads the person with the token (``GET {api}/users/@me``) and
hands back a session, an opaque value signed with the client secret (HMAC-SHA256) naming the
person and an expiry. Before a socket is served, the instance is checked with the bot's token
(``GET {api}/applications/{app}/activity-instances/{id}``): it exists, it is in the channel
asked for, and the person is in it.

``{api}`` is discord.py's REST base (``discord.http.Route.BASE``) unless given: the tests'
simulated Discord points discord.py there, and so this client too. No token, code or secret is
ever written to a log line.

Nobody can multiply these calls (bot/web/discord_calls.py): each costs a token of the client
address's bucket, Discord's 429s are honoured and its refusals counted, a code Discord has
answered is never sent again (it is single-use: a second exchange can only fail), and an
instance Discord does not know is remembered as unknown for :data:`UNKNOWN_KEPT` seconds.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import logging
import re
import time
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

import aiohttp
import discord.http

from bot.i18n import lang_of
from bot.web.discord_calls import Buckets, Clock, Gate
from bot.web.viewers import Person

log = logging.getLogger(__name__)

#: how long a session lasts (seconds): a long game, then the page signs in again
SESSION_SECONDS = 12 * 3600
#: how long a passed instance check is remembered (a reconnect does not ask Discord again)
INSTANCE_KEPT = 60.0
#: how long an instance Discord does not know is remembered as unknown (seconds)
UNKNOWN_KEPT = 30.0
#: how long a code Discord answered is remembered, never to be sent again (seconds: a code
#: lives ten minutes)
CODE_KEPT = 600.0
#: how long a request to Discord may take (seconds)
REQUEST_SECONDS = 10.0
#: an Activity instance id as Discord makes them (``i-<id>-gc-<guild>-<channel>``): letters,
#: digits and hyphens, nothing a URL reads otherwise
INSTANCE_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9-]{0,99}")
#: why an Activity instance lets no one watch (the sentence's key, each its own cause): it is
#: not one Discord knows (ended, or never was), it was launched in another channel than the
#: page names, the person is not among its people, or Discord could not be asked
UNKNOWN_INSTANCE = "web-instance-unknown"
ELSEWHERE = "web-instance-elsewhere"
NOT_IN_IT = "web-not-in-instance"
UNCHECKED = "web-instance-unchecked"
INSTANCE_REFUSALS = (UNKNOWN_INSTANCE, ELSEWHERE, NOT_IN_IT, UNCHECKED)
#: the most entries a remembered answer table holds before it is emptied
MOST_KEPT = 10_000


class SignInFailed(Exception):
    """Discord did not confirm a person (a bad or used code, a refused token, no answer)."""


def activity_origins(client_id: int) -> frozenset[str]:
    """The origins the Activity's page runs at inside Discord: its proxy's host for the
    application (``https://<client id>.discordsays.com``)."""
    return frozenset({f"https://{client_id}.discordsays.com"})


def origin_allowed(origin: str | None, client_id: int, own: str) -> bool:
    """Whether a request's ``Origin`` is one of the Activity's own: Discord's proxy for the
    application, or a page of this server itself (``own``: the development page, a test's
    stand-in for Discord's client). Another site's page is refused. A request without one is
    no browser's cross-site request (browsers send it with every POST) and is let through: a
    script can write any Origin anyway, which the rate limits are for."""
    if origin is None:
        return True
    return origin in activity_origins(client_id) or origin == own


def lang_of_locale(locale: object) -> str:
    """The page's language from a Discord locale: any language with catalogues, else
    English."""
    return lang_of(locale)


def dev_user_id(name: str) -> int:
    """A stable user id for a development sign-in by name (never a real Discord id: those
    are snowflakes of at most 2**63; these are set apart above 2**62)."""
    digest = hashlib.sha256(name.strip().casefold().encode("utf-8")).digest()
    return (1 << 62) | (int.from_bytes(digest[:8], "big") >> 2)


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def seal(key: bytes, person: Person, expiry: int, **more: str) -> str:
    """A person (and ``more`` fields) signed with HMAC-SHA256 until ``expiry`` (epoch
    seconds): base64url JSON, a dot, the MAC. Sessions and the vouches one process gives
    another are such seals, each with a key of its own."""
    body = json.dumps({"u": str(person.user_id), "n": person.name, "l": person.lang,
                       "e": expiry, **more}, separators=(",", ":"), ensure_ascii=False)
    payload = _b64(body.encode("utf-8"))
    mac = hmac.new(key, payload.encode("ascii"), hashlib.sha256).digest()
    return f"{payload}.{_b64(mac)}"


def unseal(key: bytes, sealed: str, now: float | None = None
           ) -> tuple[Person, dict[str, Any]] | None:
    """The person of a seal still valid at ``now``, with all its fields; None when it is
    forged, altered, expired or malformed."""
    payload, dot, mac = sealed.partition(".")
    if not dot or len(sealed) > 2048:
        return None
    try:
        wanted = hmac.new(key, payload.encode("ascii"), hashlib.sha256).digest()
        if not hmac.compare_digest(wanted, _unb64(mac)):
            return None
        data = json.loads(_unb64(payload))
        expiry = int(data["e"])
        person = Person(int(data["u"]), str(data["n"]), str(data["l"]))
    except (ValueError, KeyError, TypeError, UnicodeError):
        return None
    if expiry < (time.time() if now is None else now):
        return None
    return person, data


@dataclass(frozen=True)
class SignedIn:
    """A sign-in's answer: the Discord access token (for the page's SDK), the session and
    the person."""

    access_token: str
    session: str
    person: Person


class Auth:
    """OAuth2, sessions and the instance check, for one Discord application."""

    def __init__(self, client_id: int, client_secret: str, bot_token: str, *,
                 api_base: str | None = None, session_seconds: float = SESSION_SECONDS,
                 clock: Clock = time.monotonic, buckets: Buckets | None = None,
                 gate: Gate | None = None) -> None:
        self.client_id = client_id
        self._secret = client_secret
        self._key = hashlib.sha256(b"deckhand-web-session:" + client_secret.encode()).digest()
        self._bot_token = bot_token
        self._api_base = api_base
        self.session_seconds = session_seconds
        self._http: aiohttp.ClientSession | None = None
        self._instances: dict[tuple[str, int, int], float] = {}
        #: the clock the remembered answers, the buckets and the gate read (monotonic seconds)
        self.clock = clock
        #: a page's calls per client address
        self.buckets = buckets if buckets is not None else Buckets(clock=clock)
        #: Discord's 429s and refusals
        self.gate = gate if gate is not None else Gate(clock)
        self._spent: dict[str, float] = {}  # a code's digest -> until when it is remembered
        self._unknown: dict[str, float] = {}  # an unknown instance -> until when

    def __repr__(self) -> str:
        return f"Auth(client_id={self.client_id}, secret=<hidden>)"

    @property
    def api(self) -> str:
        """Discord's REST base: the one given, else discord.py's (a test's simulator)."""
        return (self._api_base or discord.http.Route.BASE).rstrip("/")

    def http(self) -> aiohttp.ClientSession:
        """The HTTP client (made when first needed, on the running loop)."""
        if self._http is None or self._http.closed:
            self._http = aiohttp.ClientSession(
                timeout=aiohttp.ClientTimeout(total=REQUEST_SECONDS))
        return self._http

    async def close(self) -> None:
        """Close the HTTP client."""
        if self._http is not None:
            await self._http.close()

    # -- sessions -----------------------------------------------------------------------------
    def sign(self, person: Person, now: float | None = None) -> str:
        """A session naming a person, valid for ``session_seconds``."""
        expiry = int((time.time() if now is None else now) + self.session_seconds)
        return seal(self._key, person, expiry)

    def expiry(self, session: str, now: float | None = None) -> int | None:
        """When a session still valid at ``now`` ends (epoch seconds), or None."""
        found = unseal(self._key, session, now)
        return None if found is None else int(found[1]["e"])

    def read(self, session: str, now: float | None = None) -> Person | None:
        """The person a session names, or None (forged, altered, expired or malformed)."""
        found = unseal(self._key, session, now)
        return None if found is None else found[0]

    # -- Discord ------------------------------------------------------------------------------
    async def sign_in(self, code: str, address: str = "") -> SignedIn:
        """Exchange an authorization code for a token, read the person it belongs to and sign
        them a session; SignInFailed when Discord does not confirm them, TryLater when no call
        may be made now (``address``: the client's, whose bucket the calls cost)."""
        digest = hashlib.sha256(code.encode("utf-8", "surrogatepass")).hexdigest()
        now = self.clock()
        if self._spent.get(digest, 0.0) > now:
            log.info("sign-in refused: that code was exchanged already")
            raise SignInFailed("code")
        self.gate.check("oauth2/token")
        self.buckets.take(address)
        form = {"client_id": str(self.client_id), "client_secret": self._secret,
                "grant_type": "authorization_code", "code": code}
        try:
            status, grant = await self._ask("oauth2/token", "POST", f"{self.api}/oauth2/token",
                                            data=form)
            if status < 500:  # Discord read the code: used or refused, it is spent either way
                _remember(self._spent, digest, now + CODE_KEPT)
            token = grant.get("access_token") if isinstance(grant, dict) else None
            if not isinstance(token, str) or not token:
                log.info("sign-in refused: Discord answered the code exchange with %s", status)
                raise SignInFailed("code")
            headers = {"Authorization": f"Bearer {token}"}
            status, user = await self._ask("users/@me", "GET", f"{self.api}/users/@me",
                                           headers=headers)
        except (aiohttp.ClientError, TimeoutError, ValueError) as exc:
            log.warning("sign-in failed: Discord could not be asked (%s)", type(exc).__name__)
            raise SignInFailed("unreachable") from None
        if not isinstance(user, dict) or not str(user.get("id", "")).isdigit():
            log.info("sign-in refused: Discord answered /users/@me with %s", status)
            raise SignInFailed("user")
        name = str(user.get("global_name") or user.get("username") or user["id"])
        person = Person(int(user["id"]), name[:80], lang_of_locale(user.get("locale")))
        log.info("signed in user %s to the web table", person.user_id)
        return SignedIn(token, self.sign(person), person)

    async def _ask(self, route: str, method: str, url: str, **kwargs: Any) -> tuple[int, Any]:
        """One call to Discord, past the gate: its status and (when 200) its JSON body;
        TryLater when Discord answers 429."""
        self.gate.check(route)
        async with self.http().request(method, url, **kwargs) as answer:
            status = answer.status
            body: Any = None
            if status in (200, 429):
                try:
                    body = await answer.json(content_type=None)
                except ValueError:
                    if status == 200:
                        raise
            self.gate.answered(route, status, answer.headers, body)
        return status, body

    async def in_instance(self, instance_id: str, channel_id: int, user_id: int,
                          address: str = "") -> bool:
        """Whether the Activity instance exists, sits in the channel and has the person in it
        (:meth:`instance_refusal` finds none)."""
        return await self.instance_refusal(instance_id, channel_id, user_id, address) is None

    async def instance_refusal(self, instance_id: str, channel_id: int, user_id: int,
                               address: str = "") -> str | None:
        """Why the person may not watch the channel from this Activity instance, as the key
        of its sentence (:data:`INSTANCE_REFUSALS`), or None when the instance exists, sits in
        the channel and has the person in it (asked with the bot's token; a pass is
        remembered a minute, an unknown instance half a minute); TryLater when no call may
        be made now (``address``: the client's)."""
        key = (instance_id, channel_id, user_id)
        now = self.clock()
        if self._instances.get(key, 0.0) > now:
            return None
        if not INSTANCE_ID.fullmatch(instance_id):
            return UNKNOWN_INSTANCE
        if self._unknown.get(instance_id, 0.0) > now:
            return UNKNOWN_INSTANCE
        self.gate.check("activity-instances")
        self.buckets.take(address)
        url = (f"{self.api}/applications/{self.client_id}/activity-instances/"
               f"{quote(instance_id, safe='')}")
        try:
            status, found = await self._ask(
                "activity-instances", "GET", url,
                headers={"Authorization": f"Bot {self._bot_token}"})
        except (aiohttp.ClientError, TimeoutError, ValueError) as exc:
            log.warning("activity instance check failed: Discord could not be asked (%s)",
                        type(exc).__name__)
            return UNCHECKED
        if status == 404:
            _remember(self._unknown, instance_id, now + UNKNOWN_KEPT)
            return UNKNOWN_INSTANCE
        if not isinstance(found, dict):
            log.info("activity instance check: Discord answered %s", status)
            return UNCHECKED
        location = found.get("location")
        where = location.get("channel_id") if isinstance(location, dict) else None
        users = {str(u) for u in found.get("users") or []}
        if str(where) != str(channel_id):
            return ELSEWHERE
        if str(user_id) not in users:
            return NOT_IN_IT
        _remember(self._instances, key, now + INSTANCE_KEPT)
        return None

    async def message_picture(self, channel_id: int, message_id: int) -> str | None:
        """The address of a message's first picture on Discord's CDN (the table picture the
        bot drew, to share: bot/web/social.py), read with the bot's token; None when it has
        none or Discord does not answer it; TryLater when no call may be made now."""
        url = f"{self.api}/channels/{int(channel_id)}/messages/{int(message_id)}"
        status, found = await self._ask("channels/messages", "GET", url,
                                        headers={"Authorization": f"Bot {self._bot_token}"})
        if status != 200 or not isinstance(found, dict):
            log.info("the table message's picture: Discord answered %s", status)
            return None
        for attachment in found.get("attachments") or []:
            if not isinstance(attachment, dict):
                continue
            kind = str(attachment.get("content_type") or "")
            name = str(attachment.get("filename") or "")
            if kind.startswith("image/") or name.lower().endswith(".png"):
                address = attachment.get("url")
                return address if isinstance(address, str) and address else None
        return None

    def secrets(self) -> list[str]:
        """What must never reach a log line (for the log filter)."""
        return [self._secret, self._bot_token]


def _remember(table: dict[Any, float], key: Any, until: float) -> None:
    """Keep ``key`` until a time in a bounded table (emptied when full: what it held is only
    asked of Discord again)."""
    if len(table) >= MOST_KEPT:
        table.clear()
    table[key] = until
