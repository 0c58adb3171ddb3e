"""The notebook's web app: routes, forms and their checks over `sleuth.assist` sessions.

Every session operation runs on one worker thread, in arrival order: SQLite connections stay
on the thread that made them, and two tabs' changes never interleave. Security:
- without a token (on loopback), a request must name this computer (127.0.0.1, localhost) in
  its Host header, against DNS rebinding;
- with a token (any host but loopback), a request needs it in `?token=` (then kept in a
  cookie) or the cookie, else 403;
- every change is a POST carrying the page's CSRF token (and, when the browser sends one, an
  Origin of this server), else 403;
- every change carries the session version it was made on; a stale one is refused (409) with
  the session as it is now and the typed text kept in the box;
- names, numbers and texts are checked before use, bodies are limited in size, and an
  unexpected error shows a generic page (the traceback goes to the server's log only).
"""

from __future__ import annotations

import asyncio
import hmac
import secrets
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import parse_qsl, urlencode

import jinja2
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.base import BaseHTTPMiddleware, RequestResponseEndpoint
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.templating import Jinja2Templates

from engines import SleuthError
from sleuth.assist import Session, SessionError, StaleSession
from sleuth.assist.store import check_name
from sleuth.web import pages

HERE = Path(__file__).resolve().parent
MAX_BODY = 16 * 1024
"""Bytes a form may send: far more than any entry (a whole hand is a few hundred)."""
MAX_TEXT = 2000
"""Characters an entry may have."""
MAX_FIELD = 100
"""Characters any other field may have (names, options, numbers)."""
TOKEN_COOKIE = "sleuth_token"
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "::1", "[::1]")
OPS = ("add", "edit", "insert", "delete", "undo", "level")

T = TypeVar("T")


class Refused(Exception):
    """A request the app answers with an error page: its status and a message for people."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


class Notebooks:
    """The open sessions of one directory, used from the worker thread only."""

    def __init__(self, directory: Path | str | None) -> None:
        self.directory = directory
        self._open: dict[str, Session] = {}

    def get(self, name: str) -> Session:
        """Session `name`, caught up with changes made elsewhere (the terminal, another
        server). Raises SessionError for a name that is not one or no such session."""
        check_name(name)
        session = self._open.get(name)
        if session is None:
            session = self._open[name] = Session.open(name, self.directory)
        else:
            session.sync()
        return session

    def new(self, game: str, seat: str, name: str | None, level: str, options: dict) -> Session:
        made = pages.make_game(game, options)
        session = Session.new(
            game,
            made.seat_from_text(seat),
            dir=self.directory,
            name=name,
            level=level,
            entries=pages.setup_entries(made, seat, options),
            **pages.options_of(game, options),
        )
        self._open[session.name] = session
        return session

    def version(self, name: str) -> int:
        """The changes session `name` has stored now, without reading them."""
        check_name(name)
        session = self._open.get(name)
        if session is None:
            session = self._open[name] = Session.open(name, self.directory)
        return session.stored_version()

    def stored(self) -> list:
        return Session.stored(self.directory)


def create_app(directory: Path | str | None = None, token: str | None = None) -> Starlette:
    """The app over the sessions in `directory` (default: the user's data directory);
    `token`, when given, is required of every request."""
    worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sleuth-sessions")
    notebooks = Notebooks(directory)
    csrf = secrets.token_urlsafe(24)
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(HERE / "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
    )
    templates = Jinja2Templates(env=env)

    async def run(call: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(worker, call, *args)

    def page(request: Request, name: str, context: dict, status: int = 200) -> Response:
        return templates.TemplateResponse(
            request, name, {**context, "csrf": csrf}, status_code=status
        )

    async def form(request: Request) -> dict[str, str]:
        """The POSTed form, checked: size, CSRF token, origin; each field once."""
        length = request.headers.get("content-length")
        if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
            raise Refused(413, f"the form is too large (at most {MAX_BODY} bytes)")
        body = b""
        async for chunk in request.stream():
            body += chunk
            if len(body) > MAX_BODY:
                raise Refused(413, f"the form is too large (at most {MAX_BODY} bytes)")
        try:
            pairs = parse_qsl(body.decode("utf-8"), keep_blank_values=True, strict_parsing=False)
        except (UnicodeDecodeError, ValueError):
            raise Refused(400, "the form could not be read") from None
        fields: dict[str, str] = {}
        for key, value in pairs:
            if key in fields:
                raise Refused(400, f"the field {key[:MAX_FIELD]!r} is sent twice")
            fields[key] = value
        origin = request.headers.get("origin")
        own = f"{request.url.scheme}://{request.url.netloc}"
        sent = fields.get("csrf", "")
        if not hmac.compare_digest(sent.encode(), csrf.encode()) or origin not in (None, own):
            raise Refused(
                403,
                "this change did not come from a page of this notebook (or the page is from "
                "before the server restarted): reload the page and make it again",
            )
        for key, value in fields.items():
            limit = MAX_TEXT if key == "text" else MAX_FIELD
            if len(value) > limit:
                raise Refused(413, f"the field {key[:MAX_FIELD]!r} is too long (at most {limit})")
        return fields

    async def sessions(request: Request) -> Response:
        records = await run(notebooks.stored)
        return page(request, "list.html", pages.list_page(records))

    async def new_form(request: Request) -> Response:
        query = dict(request.query_params)
        for key, value in query.items():
            if len(key) > MAX_FIELD or len(value) > MAX_FIELD:
                raise Refused(413, f"the field {key[:MAX_FIELD]!r} is too long")
        game = query.pop("game", None)
        return page(request, "new.html", {**pages.new_page(game, query), "refused": None})

    async def new_session(request: Request) -> Response:
        fields = await form(request)
        fields.pop("csrf", None)
        game = fields.pop("game", "")
        seat = fields.pop("seat", "")
        name = fields.pop("name", "").strip() or None
        level = fields.pop("level", "odds")
        try:
            session = await run(notebooks.new, game, seat, name, level, fields)
        except SleuthError as error:
            context = {**pages.new_page(game, {**fields, "seat": seat}), "refused": str(error)}
            return page(request, "new.html", context, 400)
        return RedirectResponse(f"/s/{session.name}", status_code=303)

    async def session_view(request: Request) -> Response:
        name = request.path_params["name"]
        query = request.query_params
        why = query.get("why", "")
        seen = query.get("v", "")

        def build() -> dict:
            session = notebooks.get(name)
            asked = int(why) if why.isdigit() and len(why) < 6 else None
            stale = asked is not None and seen != str(session.version)
            context = pages.session_page(
                session, all_hints=query.get("all") == "1", why=None if stale else asked
            )
            message = "the hints changed since that page: here they are now" if stale else None
            return {**context, "refused": message, "typed": ""}

        return page(request, "session.html", await run(build))

    async def version(request: Request) -> Response:
        """The session's stored version, polled by the open page to refresh itself when the
        session changes elsewhere (another tab, the terminal)."""
        return JSONResponse({"version": await run(notebooks.version, request.path_params["name"])})

    async def change(request: Request) -> Response:
        name = request.path_params["name"]
        op = request.path_params["op"]
        if op not in OPS:
            raise Refused(404, f"there is no change {op[:MAX_FIELD]!r}")
        fields = await form(request)
        text = fields.get("text", "")

        def apply() -> tuple[int, dict | None]:
            session = notebooks.get(name)
            try:
                if op == "level":
                    session.level = fields.get("level", "")
                    return 303, None
                version = fields.get("version", "")
                if version != str(session.version):
                    raise StaleSession(
                        "this page was out of date: the session was changed elsewhere (another "
                        "tab or the terminal) since it was shown, so your change was not made; "
                        "here is the session now, redo the change if it still applies"
                    )
                if op == "add":
                    session.add(text)
                elif op == "undo":
                    session.undo()
                else:
                    number = _number(fields.get("number", ""), len(session.entries) + 1)
                    if op == "edit":
                        session.edit(number, text)
                    elif op == "insert":
                        session.insert(number, text)
                    else:
                        session.delete(number)
            except SleuthError as error:
                status = 409 if isinstance(error, StaleSession) else 400
                context = pages.session_page(session)
                return status, {**context, "refused": str(error), "typed": text, "op": op,
                                "number": fields.get("number", "")}  # fmt: skip
            return 303, None

        status, context = await run(apply)
        if context is None:
            return RedirectResponse(f"/s/{name}", status_code=303)
        return page(request, "session.html", context, status)

    async def refused(request: Request, error: Exception) -> Response:
        if isinstance(error, Refused):
            status, message = error.status, error.message
        elif isinstance(error, SleuthError):
            status, message = 404 if isinstance(error, SessionError) else 400, str(error)
        elif isinstance(error, HTTPException):
            status = error.status_code
            message = "there is no page here" if status == 404 else str(error.detail)
        else:  # uvicorn logs the traceback (Starlette raises it again after this page)
            status, message = 500, "something went wrong on the server; the entries are safe"
        return page(request, "error.html", {"status": status, "message": message}, status)

    class Guard(BaseHTTPMiddleware):
        """The access token and the headers every page gets."""

        async def dispatch(self, request: Request, call_next: RequestResponseEndpoint) -> Response:
            if token is None and request.url.hostname not in LOOPBACK_NAMES:
                # no token on loopback: a page elsewhere must not reach it by renaming itself
                # (DNS rebinding), so only this computer's own names are answered
                message = "this notebook answers only at 127.0.0.1 or localhost"
                return _headers(
                    page(request, "error.html", {"status": 403, "message": message}, 403)
                )
            if token is not None:
                given = request.query_params.get("token")
                if given is not None and hmac.compare_digest(given.encode(), token.encode()):
                    rest = [(k, v) for k, v in request.query_params.multi_items() if k != "token"]
                    url = request.url.path + (f"?{urlencode(rest)}" if rest else "")
                    response: Response = RedirectResponse(url, status_code=303)
                    response.set_cookie(
                        TOKEN_COOKIE, token, httponly=True, samesite="strict", max_age=86400 * 30
                    )
                    return response
                cookie = request.cookies.get(TOKEN_COOKIE, "")
                if not hmac.compare_digest(cookie.encode(), token.encode()):
                    response = page(
                        request,
                        "error.html",
                        {
                            "status": 403,
                            "message": "open the address with its token, as "
                            "`sleuth serve` printed it",
                        },
                        403,
                    )
                    return _headers(response)
            return _headers(await call_next(request))

    return Starlette(
        routes=[
            Route("/", sessions),
            Route("/new", new_form, methods=["GET"]),
            Route("/new", new_session, methods=["POST"]),
            Route("/s/{name}", session_view, methods=["GET"]),
            Route("/s/{name}/version", version, methods=["GET"]),
            Route("/s/{name}/{op}", change, methods=["POST"]),
            Mount("/static", StaticFiles(directory=HERE / "static"), name="static"),
        ],
        middleware=[Middleware(Guard)],
        exception_handlers={
            Refused: refused,
            SleuthError: refused,
            HTTPException: refused,
            Exception: refused,  # the last resort: a generic page, the traceback in the log
        },
    )


def _headers(response: Response) -> Response:
    response.headers["Content-Security-Policy"] = (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
    )
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Referrer-Policy"] = "same-origin"  # "no-referrer" makes Origin null
    response.headers.setdefault("Cache-Control", "no-store")
    return response


def _number(text: str, last: int) -> int:
    if not text.isdigit() or len(text) > 6:
        raise SessionError(f"expected an entry number from 1 to {last}, not {text[:20]!r}")
    return int(text)
