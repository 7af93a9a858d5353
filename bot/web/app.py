"""The web table's server: an aiohttp application composed of what it is given.

:func:`create_app` builds the application from its parts (the table service, the settings, the
sign-in, the avatars, the viewers) — no globals; :class:`WebServer` runs it beside the bot, in
the same process and on its event loop. Every path is served as itself and under ``/.proxy/``
(Discord's prefix inside an Activity):

    GET  /                 the client (bot/web/static/, built from web/), or a page saying
                           it is not built and how to build it
    GET  /api/config       {"client_id", "dev", "words"}: what the page needs before signing in
    POST /api/token        {"code"} → {"access_token", "session", "user"}
    POST /api/dev-login    {"name"} → {"session", "user"} (development mode only)
    GET  /api/avatar/{id}  a person's avatar (PNG), 404 until it is fetched
    GET  /ws               the table's socket (bot/web/viewers.py): ?instance_id=…&channel_id=…,
                           the session in Sec-WebSocket-Protocol (``deckhand``,
                           ``session.<session>``), never in the URL: proxies log URLs

Development mode (``DECKHAND_WEB_DEV``) adds the sign-in by name and skips the instance check,
nothing else; it is logged at start.
"""

from __future__ import annotations

import errno
import ipaddress
import json
import logging
import math
from pathlib import Path
from typing import Any, Protocol

from aiohttp import web

from bot.config import dev_mode_refused, loopback_host
from bot.pictures.avatars import CACHE
from bot.tables import TableManager
from bot.web.auth import Auth, SignInFailed, dev_user_id, lang_of_locale, origin_allowed
from bot.web.discord_calls import TryLater
from bot.web.routing import HEADER, router_of
from bot.web.routing import ServeFailed as ServeFailed  # (where the bot catches it)
from bot.web.social import Social
from bot.web.viewers import (
    NO_CHANNEL,
    NOT_VOUCHED,
    OPENS_RATE,
    Person,
    Viewers,
    client_words,
    error,
)
from games import wording

log = logging.getLogger(__name__)

#: where the client's build lands (web/ is built into it)
STATIC = Path(__file__).resolve().parent / "static"
#: Discord's prefix for an Activity's own server
PROXY = "/.proxy"
#: the largest request body the API reads
MAX_BODY = 4096
#: the socket's subprotocol (the one the server answers with) and the prefix of the other
#: one the page offers, which carries its session
PROTOCOL = "deckhand"
SESSION_PROTOCOL = "session."
#: the largest socket frame read (a viewer's message is at most viewers.MAX_MESSAGE; a bigger
#: frame closes the socket with 1009 before it is buffered whole)
MAX_FRAME = 8 * 1024
#: a ping every HEARTBEAT seconds; a socket whose pong is not back within half of it is
#: closed (a peer gone without a word, or one that never reads)
HEARTBEAT = 30.0
#: seconds a connection may stay without a whole request: a connection sending nothing, or a
#: request's head a byte at a time, is closed after it (aiohttp's keepalive_timeout, which it
#: also starts when a connection opens); also how long an idle keep-alive connection is kept
REQUEST_SECONDS = 10.0
#: where the Activity may be framed: Discord's client and its Activity domain (and the
#: server itself, for a development page)
FRAME_ANCESTORS = "'self' https://discord.com https://*.discord.com https://*.discordsays.com"
SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
        "img-src 'self' data: blob: https://cdn.discordapp.com; "
        "connect-src 'self' wss: https://discord.com; font-src 'self' data:; "
        "object-src 'none'; base-uri 'self'; form-action 'self'; "
        f"frame-ancestors {FRAME_ANCESTORS}"),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Resource-Policy": "same-site",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=()",
}
NOT_BUILT = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Deckhand: the web table is not built</title>
</head><body>
<h1>The web table's client is not built</h1>
<p>The server runs, but <code>bot/web/static/index.html</code> is missing. Build the client
from <code>web/</code> (it writes <code>bot/web/static/</code>):</p>
<pre>cd web &amp;&amp; npm ci &amp;&amp; npm run build</pre>
<p>then reload this page.</p>
</body></html>
"""

class Avatars(Protocol):
    """Where avatars come from: kept PNG bytes by user id (None: not kept yet)."""

    def get(self, user_id: int | None) -> bytes | None:
        """The kept avatar (a missing one starts being fetched)."""


class Activity(Protocol):
    """The settings the web table needs (bot.config.ActivitySettings)."""

    @property
    def client_id(self) -> int: ...

    @property
    def dev(self) -> bool: ...


VIEWERS = web.AppKey("viewers", Viewers)


def request_lang(request: web.Request) -> str:
    """The page's language before sign-in: its first Accept-Language tag."""
    first = request.headers.get("Accept-Language", "").split(",")[0].split(";")[0]
    return lang_of_locale(first.strip())


async def _json_body(request: web.Request) -> dict[str, Any] | None:
    """A small JSON object body, or None."""
    if request.content_length is not None and request.content_length > MAX_BODY:
        return None
    raw = await request.content.read(MAX_BODY + 1)
    if len(raw) > MAX_BODY:
        return None
    try:
        found = json.loads(raw)
    except (ValueError, RecursionError):  # not JSON, or nested past the parser's depth
        return None
    return found if isinstance(found, dict) else None


def session_of(request: web.Request) -> str:
    """The session a socket's page offered among its subprotocols ('' when none)."""
    offered = request.headers.get("Sec-WebSocket-Protocol", "")
    for protocol in offered.split(","):
        protocol = protocol.strip()
        if protocol.startswith(SESSION_PROTOCOL):
            return protocol[len(SESSION_PROTOCOL):]
    return ""


def session_protocols(session: str) -> tuple[str, str]:
    """The subprotocols a client offers to open a socket with a session."""
    return (PROTOCOL, SESSION_PROTOCOL + session)


def own_origin(request: web.Request) -> str:
    """The origin of the server's own pages, as a browser on it names it."""
    return f"{request.scheme}://{request.host}"


def client_address(request: web.Request) -> str:
    """The address a request comes from, whose bucket its calls to Discord cost: the peer's,
    or, when the peer is a reverse proxy on this machine or the private network (a loopback or
    private address, which nobody on the internet has), the address that proxy added last to
    ``X-Forwarded-For`` (the one it saw; earlier ones are the client's own word)."""
    peer = request.remote or ""
    forwarded = request.headers.get("X-Forwarded-For", "")
    if forwarded:
        try:
            found = ipaddress.ip_address(peer)
            proxied = found.is_loopback or found.is_private
        except ValueError:
            proxied = False
        last = forwarded.rsplit(",", 1)[-1].strip()
        if proxied and last:
            return last[:64]
    return peer


def _try_later(busy: TryLater, lang: str) -> web.Response:
    """429 with Retry-After: the page's calls to Discord wait (its own, or Discord's limit)."""
    seconds = max(1, math.ceil(busy.seconds))
    return web.json_response(
        {"error": "busy", "message": wording.text("web-busy", lang), "retry_after": seconds},
        status=429, headers={"Retry-After": str(seconds)})


def _user(person: Person) -> dict[str, str]:
    return {"id": str(person.user_id), "name": person.name, "locale": person.lang}


class Handlers:
    """The application's routes, over the parts they are given."""

    def __init__(self, manager: TableManager, settings: Activity, auth: Auth, avatars: Avatars,
                 viewers: Viewers, static: Path) -> None:
        self.manager = manager
        self.settings = settings
        self.auth = auth
        self.avatars = avatars
        self.viewers = viewers
        self.static = static.resolve()

    async def token(self, request: web.Request) -> web.Response:
        """POST /api/token: the code from the SDK's authorize → the session."""
        lang = request_lang(request)
        if not origin_allowed(request.headers.get("Origin"), self.settings.client_id,
                              own_origin(request)):
            log.info("a sign-in from another site's page was refused")
            return web.json_response(
                {"error": "bad-origin", "message": wording.text("web-bad-origin", lang)},
                status=403)
        body = await _json_body(request)
        code = body.get("code") if body else None
        if not isinstance(code, str) or not code or len(code) > 512:
            return web.json_response({"error": "bad-request"}, status=400)
        try:
            signed = await self.auth.sign_in(code, client_address(request))
        except TryLater as busy:
            return _try_later(busy, lang)
        except SignInFailed:
            return web.json_response(
                {"error": "sign-in-failed",
                 "message": wording.text("web-signin-failed", request_lang(request))},
                status=401)
        return web.json_response({"access_token": signed.access_token,
                                  "session": signed.session, "user": _user(signed.person)})

    async def dev_login(self, request: web.Request) -> web.Response:
        """POST /api/dev-login (development mode): a session for a local person by name."""
        if request.headers.get("Origin", own_origin(request)) != own_origin(request):
            return web.json_response(
                {"error": "bad-origin",
                 "message": wording.text("web-bad-origin", request_lang(request))}, status=403)
        body = await _json_body(request)
        name = body.get("name") if body else None
        if not isinstance(name, str) or not name.strip() or len(name) > 80:
            return web.json_response({"error": "bad-request"}, status=400)
        locale = body.get("locale") if body else None
        lang = lang_of_locale(locale) if isinstance(locale, str) else request_lang(request)
        person = Person(dev_user_id(name), name.strip(), lang)
        return web.json_response({"session": self.auth.sign(person), "user": _user(person)})

    async def config(self, request: web.Request) -> web.Response:
        """GET /api/config: what the page needs before signing in (the application's id for
        Discord's SDK; whether the development sign-in is offered; its words in the browser's
        language, until the socket's hello brings the person's own)."""
        return web.json_response({"client_id": str(self.settings.client_id),
                                  "dev": self.settings.dev,
                                  "words": client_words(request_lang(request))},
                                 headers={"Cache-Control": "no-cache"})

    async def avatar(self, request: web.Request) -> web.Response:
        """GET /api/avatar/{user_id}: the kept avatar, or 404 (the page draws initials). Only
        a person seated at an open table is looked up: nobody makes the bot fetch avatars of
        whomever they like from Discord."""
        raw = request.match_info["user_id"]
        user_id = int(raw) if raw.isdigit() and len(raw) <= 20 else None
        seated = user_id is not None and self.manager.is_seated(user_id)
        found = self.avatars.get(user_id) if seated else None
        if found is None:
            return web.Response(status=404, headers={"Cache-Control": "max-age=30"})
        return web.Response(body=found, content_type="image/png",
                            headers={"Cache-Control": "max-age=600"})

    async def socket(self, request: web.Request) -> web.StreamResponse:
        """GET /ws: check the person and the instance, then serve the viewer."""
        query = request.query
        router = router_of(request.app)  # several processes: bot/web/routing.py
        session = session_of(request)
        # another process's vouch is taken on the processes' own listener only (routing.py)
        vouching = HEADER in request.headers
        person = None if vouching else self.auth.read(session)
        lang = person.lang if person is not None else request_lang(request)
        channel = query.get("channel_id", "")
        try:  # asked before the upgrade: a page told to wait backs off instead of reopening
            why_not = None if person is None else await self._instance_refusal(
                request, person, channel)
        except TryLater as busy:
            return _try_later(busy, lang)
        allowed = person is not None and why_not is None
        turned_away = self.viewers.refusal(person) if person is not None and allowed else None
        if turned_away is not None and turned_away[0] == "too-many-opens":
            # a page opening socket after socket is answered before the upgrade, the cheapest
            # answer there is (a socket made, told and closed costs several times more); the
            # page's backoff waits, as for any socket that did not open
            wait = math.ceil(1 / OPENS_RATE)
            return web.json_response(
                {"error": "too-many-opens", "message": wording.text("web-too-many-opens", lang),
                 "retry_after": wait}, status=429, headers={"Retry-After": str(wait)})
        # only a socket that is served gets aiohttp's heartbeat: a heartbeat outlives a close
        # the server begins by 30 to 45 s (the peer's closing frame arms it again), and a page
        # opening socket after socket would hold that many
        ws = web.WebSocketResponse(
            heartbeat=HEARTBEAT if person is not None and allowed and turned_away is None
            else None,
            max_msg_size=MAX_FRAME, protocols=(PROTOCOL,))
        await ws.prepare(request)
        if vouching:
            log.warning("a socket on the public web table carried a process's vouch: refused")
            await ws.send_json(error("forbidden", lang, wording.text(NOT_VOUCHED, lang)))
            await ws.close(code=4403)
            return ws
        if person is None:
            await ws.send_json(error("signed-out", lang))
            await ws.close(code=4401)
            return ws
        if why_not is not None:  # each cause in its own words (the code is the same)
            await ws.send_json(error("forbidden", lang, wording.text(why_not, lang)))
            await ws.close(code=4403)
            return ws
        if turned_away is not None:
            await self.viewers.refuse(ws, person, turned_away)
            return ws
        if router is not None and await router.forward(ws, request, person, int(channel),
                                                       self.auth.expiry(session)):
            return ws
        await self.viewers.serve(ws, person, int(channel),
                                 lambda now: self.auth.read(session, now) is not None,
                                 admitted=True)
        return ws

    async def _instance_refusal(self, request: web.Request, person: Person, channel: str
                                ) -> str | None:
        """Why the person may not watch the channel's tables (its sentence's key), or None:
        they are in an Activity instance there (development mode: no check); TryLater when
        Discord cannot be asked now."""
        if not (channel.isdigit() and len(channel) <= 20):
            return NO_CHANNEL
        if self.settings.dev:
            return None
        return await self.auth.instance_refusal(
            request.query.get("instance_id", ""), int(channel), person.user_id,
            client_address(request))

    async def page(self, request: web.Request) -> web.StreamResponse:
        """GET /{path}: a file of the client's build (index.html for the page itself)."""
        tail = request.match_info.get("tail", "")
        name = tail or "index.html"
        path = (self.static / name).resolve()
        if not path.is_relative_to(self.static):
            raise web.HTTPNotFound()
        if not path.is_file():
            if name == "index.html":
                return web.Response(text=NOT_BUILT, content_type="text/html", status=503)
            raise web.HTTPNotFound()
        cache = "no-cache" if name.endswith(".html") else "max-age=300"
        return web.FileResponse(path, headers={"Cache-Control": cache})


async def _security_headers(request: web.Request, response: web.StreamResponse) -> None:
    for name, value in SECURITY_HEADERS.items():
        response.headers.setdefault(name, value)


def create_app(manager: TableManager, settings: Activity, auth: Auth, avatars: Avatars,
               viewers: Viewers | None = None, static: Path = STATIC) -> web.Application:
    """The web table's application over its parts (``viewers``: made here when not given;
    either way it receives the service's events once the application starts)."""
    chosen = viewers if viewers is not None else Viewers(manager)
    if chosen.social is None:  # a free seat taken, the table's picture shared
        chosen.social = Social(manager, lambda at, message: auth.message_picture(at, message))
    handlers = Handlers(manager, settings, auth, avatars, chosen, static)
    app = web.Application(client_max_size=MAX_BODY * 4)
    app[VIEWERS] = chosen
    for prefix in (PROXY, ""):  # the prefixed first: the page's catch-all would take them
        app.router.add_post(prefix + "/api/token", handlers.token)
        if settings.dev:
            app.router.add_post(prefix + "/api/dev-login", handlers.dev_login)
        app.router.add_get(prefix + "/api/config", handlers.config)
        app.router.add_get(prefix + "/api/avatar/{user_id}", handlers.avatar)
        app.router.add_get(prefix + "/ws", handlers.socket)
        app.router.add_get(prefix + "/{tail:(?!api/|ws$).*}", handlers.page)
    app.on_response_prepare.append(_security_headers)

    async def begin(_app: web.Application) -> None:
        chosen.start()

    async def end(_app: web.Application) -> None:
        chosen.stop()
        await chosen.close()
        await auth.close()

    app.on_startup.append(begin)
    app.on_shutdown.append(end)
    return app



class WebServer:
    """The web table beside the bot: started after the tables are resumed, stopped first."""

    def __init__(self, app: web.Application, host: str, port: int, dev: bool = False, *,
                 request_seconds: float = REQUEST_SECONDS) -> None:
        self.app = app
        self.host = host
        self.port = port
        self.dev = dev
        self.request_seconds = request_seconds
        self._runner: web.AppRunner | None = None

    @property
    def viewers(self) -> Viewers:
        """The sockets being served."""
        return self.app[VIEWERS]

    async def start(self) -> None:
        """Listen (port 0: any free port, then ``port`` is the one taken); ServeFailed when
        the address cannot be taken, or development mode is asked for on an address other
        machines reach."""
        if self.dev and not loopback_host(self.host):
            raise ServeFailed(dev_mode_refused(self.host))
        # no access log: a socket's address carries its session
        runner = web.AppRunner(self.app, access_log=None, handle_signals=False,
                               shutdown_timeout=1.0, keepalive_timeout=self.request_seconds)
        await runner.setup()
        try:
            await web.TCPSite(runner, self.host, self.port).start()
        except OSError as exc:
            await runner.cleanup()
            if exc.errno == errno.EADDRINUSE:
                raise ServeFailed(
                    f"The web table cannot listen on port {self.port}: it is in use by another "
                    "program; set DECKHAND_WEB_PORT to a free port (or stop that program), "
                    "then start again.") from None
            raise ServeFailed(
                f"The web table cannot listen on {self.host}:{self.port} "
                f"({exc.strerror or type(exc).__name__}): check DECKHAND_WEB_HOST and "
                "DECKHAND_WEB_PORT, then start again.") from None
        self._runner = runner
        addresses = runner.addresses
        if addresses:
            self.port = int(addresses[0][1])
        if self.dev:
            log.warning("the web table runs in DEVELOPMENT mode on %s:%s: anyone who can reach "
                        "it may sign in by name (POST /api/dev-login) and no Activity instance "
                        "is checked; never use it on a public address", self.host, self.port)
        else:
            log.info("the web table listens on %s:%s", self.host, self.port)

    async def stop(self) -> None:
        """Close every socket and stop listening."""
        runner, self._runner = self._runner, None
        if runner is not None:
            await runner.cleanup()



def web_server(manager: TableManager, settings: Activity, client_secret: str, bot_token: str,
               host: str, port: int, avatars: Avatars = CACHE) -> WebServer:
    """The web table of a bot, composed: its sign-in (the application's id and secret, the
    bot's token for the instance check), the bot's avatars, its viewers."""
    auth = Auth(settings.client_id, client_secret, bot_token)
    app = create_app(manager, settings, auth, avatars)
    return WebServer(app, host, port, settings.dev)
