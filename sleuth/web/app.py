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
- names, numbers (ASCII digits only) and texts are checked before use, bodies are limited in
  size, and an unexpected error shows a generic page (the traceback goes to the server's log
  only);
- a refused change or new session (a SleuthError, a bad field, a stale CSRF token) shows its
  page again with the message and what was typed, and stores nothing.
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
from sleuth.assist import DEFAULT_LEVEL, Session, SessionError, StaleSession
from sleuth.assist.store import DamagedStore, check_name
from sleuth.web import pages, review_page

HERE = Path(__file__).resolve().parent
MAX_BODY = 16 * 1024
"""Bytes a form may send: far more than any entry (a whole hand is a few hundred)."""
MAX_TEXT = 2000
"""Characters an entry may have."""
MAX_FIELD = 100
"""Characters any other field may have (names, options, numbers)."""
TOKEN_COOKIE = "sleuth_token"
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "::1", "[::1]")
NOT_OURS = (
    "this change did not come from a page of this notebook (or its page is from before the "
    "server restarted), so it was not made: make it again from this page"
)
OPS = ("add", "edit", "insert", "delete", "undo", "level", "model")

T = TypeVar("T")


class Refused(SleuthError):
    """A request the app refuses: its status and a message for people."""

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
    web = _Web(directory, token)
    return Starlette(
        routes=[
            Route("/", web.sessions),
            Route("/new", web.new_form, methods=["GET"]),
            Route("/new", web.new_session, methods=["POST"]),
            Route("/s/{name}", web.session_view, methods=["GET"]),
            Route("/s/{name}/version", web.version, methods=["GET"]),
            Route("/s/{name}/review", web.review, methods=["GET"]),
            Route("/s/{name}/{op}", web.change, methods=["POST"]),
            Mount("/static", StaticFiles(directory=HERE / "static"), name="static"),
        ],
        middleware=[Middleware(BaseHTTPMiddleware, dispatch=web.guard)],
        exception_handlers={
            Refused: web.refused,
            SleuthError: web.refused,
            HTTPException: web.refused,
            Exception: web.refused,  # the last resort: a generic page, the traceback in the log
        },
    )


class _Web:
    """What the routes share (the worker thread, the open sessions, this run's CSRF token,
    the templates, the access token), and the route handlers, the guard every request
    passes and the page of a refusal."""

    def __init__(self, directory: Path | str | None, token: str | None) -> None:
        self.worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sleuth-sessions")
        self.notebooks = Notebooks(directory)
        self.csrf = secrets.token_urlsafe(24)
        env = jinja2.Environment(
            loader=jinja2.FileSystemLoader(HERE / "templates"),
            autoescape=True,
            undefined=jinja2.StrictUndefined,
        )
        self.templates = Jinja2Templates(env=env)
        self.token = token

    async def run(self, call: Callable[..., T], *args: Any) -> T:
        """`call(*args)` on the worker thread, awaited."""
        return await asyncio.get_running_loop().run_in_executor(self.worker, call, *args)

    def page(self, request: Request, name: str, context: dict, status: int = 200) -> Response:
        """Template `name` with `context` and the CSRF token."""
        return self.templates.TemplateResponse(
            request, name, {**context, "csrf": self.csrf}, status_code=status
        )

    async def form(self, request: Request) -> dict[str, str]:
        """The POSTed form, read: its size, its encoding, each field once, and the Origin of
        this server when the browser sends one (a foreign page gets nothing more). The CSRF
        token and the fields' lengths are `check_form`'s, so a refusal of those can show the
        page again with what was typed."""
        length = request.headers.get("content-length")
        if length is not None:
            size = _whole_number(length, digits=18)
            if size is None:
                raise Refused(400, f"the Content-Length header {length[:MAX_FIELD]!r} is not "
                                   "a number of bytes")  # fmt: skip
            if size > MAX_BODY:
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
        own = f"{request.url.scheme}://{request.url.netloc}"
        origin = request.headers.get("origin")
        if origin not in (None, own):
            raise Refused(403, f"this change came from another site ({origin[:MAX_FIELD]!r}), "
                               "not from a page of this notebook, so it was not made")  # fmt: skip
        return fields

    def check_form(self, fields: dict[str, str]) -> None:
        """Refuse a form without this server's CSRF token, or with a field too long."""
        if not hmac.compare_digest(fields.get("csrf", "").encode(), self.csrf.encode()):
            raise Refused(403, NOT_OURS)
        for key, value in fields.items():
            limit = MAX_TEXT if key == "text" else MAX_FIELD
            if len(value) > limit:
                raise Refused(413, f"the field {key[:MAX_FIELD]!r} is too long (at most {limit})")

    async def sessions(self, request: Request) -> Response:
        """The list of sessions."""
        records = await self.run(self.notebooks.stored)
        return self.page(request, "list.html", pages.list_page(records))

    async def new_form(self, request: Request) -> Response:
        """The new-session form, for the game (and options) the query names."""
        query = dict(request.query_params)
        for key, value in query.items():
            if len(key) > MAX_FIELD or len(value) > MAX_FIELD:
                raise Refused(413, f"the field {key[:MAX_FIELD]!r} is too long")
        game = query.pop("game", None)
        shown = query.pop("shown", None)
        if shown is not None and shown != game:
            # the game was changed: the options (and seat, picks) chosen were the other
            # game's, so its form starts again from this game's defaults
            query = {key: query[key] for key in ("name", "level") if key in query}
        return self.page(request, "new.html", {**pages.new_page(game, query), "refused": None})

    async def new_session(self, request: Request) -> Response:
        """A new session from the form, then its page; a refused form is shown again."""
        fields = await self.form(request)
        chosen = {key: value for key, value in fields.items() if key != "csrf"}
        game = chosen.pop("game", "")
        seat = chosen.pop("seat", "")
        name = chosen.pop("name", "")
        level = chosen.pop("level", DEFAULT_LEVEL)
        try:
            self.check_form(fields)
            session = await self.run(
                self.notebooks.new, game, seat, name.strip() or None, level, chosen
            )
        except SleuthError as error:
            typed = {**chosen, "seat": seat, "name": name, "level": level}
            context = {**pages.new_page(game, typed), "refused": str(error)}
            return self.page(request, "new.html", context, _status(error))
        return RedirectResponse(f"/s/{session.name}", status_code=303)

    async def session_view(self, request: Request) -> Response:
        """A session's page (with the reasons of hint `why`, unless the session changed since
        the page asking for them)."""
        name = request.path_params["name"]
        query = request.query_params
        why = _whole_number(query.get("why", ""))
        seen = query.get("v", "")

        def build() -> dict:
            session = self.notebooks.get(name)
            stale = why is not None and seen != str(session.version)
            context = pages.session_page(
                session, all_hints=query.get("all") == "1", why=None if stale else why
            )
            message = "the hints changed since that page: here they are now" if stale else None
            return {**context, "refused": message, **NOTHING_TYPED}

        return self.page(request, "session.html", await self.run(build))

    async def version(self, request: Request) -> Response:
        """The session's stored version, polled by the open page to refresh itself when the
        session changes elsewhere (another tab, the terminal)."""
        version = await self.run(self.notebooks.version, request.path_params["name"])
        return JSONResponse({"version": version})

    async def review(self, request: Request) -> Response:
        """A session's review: each decision of its seat beside the solver's. On the worker
        thread like every session operation (a long game's takes seconds); no session of that
        name is the usual not-found page, a review refused (a SleuthError) a message on it."""
        name = request.path_params["name"]

        def build() -> dict:
            return review_page.review_page(self.notebooks.get(name))

        return self.page(request, "review.html", await self.run(build))

    async def change(self, request: Request) -> Response:
        """A change to a session, then its page; a refused one shows the page again with
        the message and what was typed."""
        name = request.path_params["name"]
        op = request.path_params["op"]
        if op not in OPS:
            raise Refused(404, f"there is no change {op[:MAX_FIELD]!r}")
        fields = await self.form(request)

        def apply() -> tuple[int, dict | None]:
            session = self.notebooks.get(name)
            try:
                self.check_form(fields)
                _make_change(session, op, fields)
            except SleuthError as error:
                context = pages.session_page(session)
                return _status(error), {**context, "refused": str(error),
                                        **_typed(session, op, fields)}  # fmt: skip
            return 303, None

        status, context = await self.run(apply)
        if context is None:
            return RedirectResponse(f"/s/{name}", status_code=303)
        return self.page(request, "session.html", context, status)

    async def refused(self, request: Request, error: Exception) -> Response:
        """The error page of a request refused or failed, with its status."""
        if isinstance(error, Refused):
            status, message = error.status, error.message
        elif isinstance(error, SleuthError):
            status, message = _error_status(error), str(error)
        elif isinstance(error, HTTPException):
            status = error.status_code
            message = "there is no page here" if status == 404 else str(error.detail)
        else:  # uvicorn logs the traceback (Starlette raises it again after this page)
            status, message = 500, "something went wrong on the server; the entries are safe"
        return self.page(request, "error.html", {"status": status, "message": message}, status)

    async def guard(self, request: Request, call_next: RequestResponseEndpoint) -> Response:
        """The access token and the headers every page gets."""
        if self.token is None and request.url.hostname not in LOOPBACK_NAMES:
            # no token on loopback: a page elsewhere must not reach it by renaming itself
            # (DNS rebinding), so only this computer's own names are answered
            message = "this notebook answers only at 127.0.0.1 or localhost"
            return _headers(
                self.page(request, "error.html", {"status": 403, "message": message}, 403)
            )
        if self.token is not None:
            answer = self._token_answer(request, self.token)
            if answer is not None:
                return answer
        return _headers(await call_next(request))

    def _token_answer(self, request: Request, token: str) -> Response | None:
        """With a token: the address without it, as a redirect that keeps it in a cookie,
        when the address gives it; a 403 page when the cookie lacks it; else None (the
        request goes on)."""
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
            response = self.page(
                request,
                "error.html",
                {
                    "status": 403,
                    "message": "open the address with its token, as `sleuth serve` printed it",
                },
                403,
            )
            return _headers(response)
        return None


def _headers(response: Response) -> Response:
    response.headers["Content-Security-Policy"] = (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
    )
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Referrer-Policy"] = "same-origin"  # "no-referrer" makes Origin null
    response.headers.setdefault("Cache-Control", "no-store")
    return response


def _status(error: SleuthError) -> int:
    """The status a refused form is answered with (the page is shown again all the same)."""
    if isinstance(error, Refused):
        return error.status
    return 409 if isinstance(error, StaleSession) else 400


def _make_change(session: Session, op: str, fields: dict[str, str]) -> None:
    """Make change `op` of the session page's forms, or raise the SleuthError refusing it."""
    if op == "level":
        session.level = fields.get("level", "")
        return
    if op == "model":
        session.model = fields.get("model", "")
        return
    if fields.get("version", "") != str(session.version):
        raise StaleSession(
            "this page was out of date: the session was changed elsewhere (another tab or the "
            "terminal) since it was shown, so your change was not made; here is the session "
            "now, redo the change if it still applies"
        )
    text = fields.get("text", "").strip()  # a line built by taps ends with no space
    if op == "add":
        session.add(text)
    elif op == "undo":
        session.undo()
    elif op == "insert":
        session.insert(_number(fields.get("number", ""), len(session.entries) + 1), text)
    elif op == "edit":
        session.edit(_number(fields.get("number", ""), len(session.entries)), text)
    else:
        session.delete(_number(fields.get("number", ""), len(session.entries)))


NOTHING_TYPED = {"typed": "", "typed_in": "add", "open_entry": None}
"""A page that is no answer to a refused change: an empty add box, every entry closed."""


def _typed(session: Session, op: str, fields: dict[str, str]) -> dict[str, Any]:
    """Where the page answering a refused change shows what was typed, so it is never lost:
    in the edit or insert box of the entry the form named (opened) when there is one, else
    in the add box."""
    number = _whole_number(fields.get("number", ""))
    named = number if number is not None and 1 <= number <= len(session.entries) else None
    text = fields.get("text", "") if op in ("add", "edit", "insert") else ""
    typed_in = op if op in ("edit", "insert") and named is not None else "add"
    return {"typed": text, "typed_in": typed_in, "open_entry": named}


def _whole_number(text: str, digits: int = 6) -> int | None:
    """`text` as a whole number when it is 1 to `digits` ASCII digits, else None. ASCII only:
    str.isdigit() is also true of '²' and '①', which int() refuses (issue 42, finding 7)."""
    if 0 < len(text) <= digits and text.isascii() and text.isdigit():
        return int(text)
    return None


def _number(text: str, last: int) -> int:
    """The entry number a form names; SessionError unless it is one (whether that entry
    exists is the session's to say)."""
    number = _whole_number(text)
    if number is None:
        raise SessionError(f"expected an entry number from 1 to {last}, not {text[:20]!r}")
    return number


def _error_status(error: SleuthError) -> int:
    """A damaged sessions file is the server's trouble (503, with the message naming the file
    and the salvage command); another session error is a page not found; the rest is a bad
    request."""
    if isinstance(error, DamagedStore):
        return 503
    return 404 if isinstance(error, SessionError) else 400
