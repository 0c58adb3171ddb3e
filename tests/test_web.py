"""`sleuth serve` in a real browser (Playwright driving Debian's Chromium, headless), and its
security checks over plain HTTP. The server runs as a subprocess on 127.0.0.1 (so it can be
killed with SIGKILL); screenshots at phone size go to tests/output/ (git-ignored)."""

from __future__ import annotations

import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import pytest

import engines
from sleuth.assist import Session, StaleSession
from sleuth.assist.transcribe import typed_lines
from tests.browser import CHROMIUM, OUTPUT, PHONE

pytest.importorskip("starlette", reason="the web extra is not installed")
sync_api = pytest.importorskip("playwright.sync_api")


if not CHROMIUM.exists():
    if os.environ.get("CI"):
        raise RuntimeError(f"no Chromium at {CHROMIUM}: .ci/run installs Debian's chromium")
    pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium)", allow_module_level=True)


class Server:
    """`sleuth serve` in a subprocess, on a free port of 127.0.0.1 unless told otherwise."""

    def __init__(self, directory: Path, host: str = "127.0.0.1", fault: str = "") -> None:
        """`fault`: Python run in the server before it starts (a bug planted for a test)."""
        self.directory = directory
        start = f"{fault}\nfrom sleuth.cli import main\nraise SystemExit(main(sys.argv[1:]))"
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-c",
                f"import sys\n{start}",
                "serve",
                "--port",
                "0",
                "--host",
                host,
                "--dir",
                str(directory),
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        found = re.search(r"http://(\S+?):(\d+)/(\?token=(\S+))?", line)
        assert found, (line, self.process.stderr.read() if self.process.stderr else "")
        self.url = f"http://127.0.0.1:{found[2]}"
        self.token = found[4]

    def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)

    def stop(self) -> str:
        """End it; its stderr (where an unexpected error's traceback would be logged)."""
        if self.process.poll() is None:
            self.process.terminate()
        _, err = self.process.communicate(timeout=10)
        return err


def _lines(name: str, seed: int, **options) -> list[str]:
    game = engines.make(name, **options)
    return typed_lines(game, game.random_game(seed).information_set(game.seats[0]))


def _add(page, text: str) -> None:
    page.fill("#text", text)
    _submit(page, "#entry button[type=submit]")


def _submit(page, selector: str) -> None:
    """Click a button or link that loads a page, and wait for it (and its script) to load."""
    with page.expect_navigation():
        page.click(selector)


def _no_horizontal_scroll(page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page is {width}px wide on a {PHONE['width']}px phone"


def _shoot(page, name: str) -> None:
    OUTPUT.mkdir(exist_ok=True)
    page.screenshot(path=str(OUTPUT / f"{name}.png"))
    page.screenshot(path=str(OUTPUT / f"{name}-full.png"), full_page=True)


# --- the whole loop at the table ----------------------------------------------------------
def test_an_alibi_game_at_the_table_survives_a_typo_and_sigkill(phone, tmp_path) -> None:
    lines = _lines("alibi", 1, players=4)
    server = Server(tmp_path)
    try:
        page = phone.new_page()
        page.goto(server.url + "/")
        _submit(page, "text=New session")  # a link: waits for the page and its script
        for game in ("noir", "alibi"):  # the pickers follow the game chosen
            with page.expect_navigation():
                page.select_option("select[name=game]", game)
        assert page.input_value("input[name=players]") == "4"
        with page.expect_navigation():
            page.fill("input[name=players]", "5")
            page.press("input[name=players]", "Enter")
        assert page.locator("#choose input[name=seat]").count() == 5
        with page.expect_navigation():
            page.fill("input[name=players]", "4")
            page.press("input[name=players]", "Enter")
        page.check("#choose input[name=seat][value='0']")
        page.fill("input[name=name]", "table")
        _submit(page, "#create button[type=submit]")
        assert page.url.endswith("/s/table"), page.inner_text("main")
        _add(page, lines[0])  # the seating
        page.type("#text", "deal ")  # the deal, tapped on the board's cards
        for card in lines[1].split()[1:]:
            page.click(f"#board [data-word='{card}']")
        assert page.input_value("#text") == lines[1] + " "
        _submit(page, "#entry button[type=submit]")
        for line in lines[2:4]:  # the hand sizes, a question
            _add(page, line)
        assert page.locator(".entries > li").count() == 4
        mine = lines[1].split()[1]  # a card of the deal: certainly not in the box
        fact = page.locator(".hints > li", has_text=re.compile(r"is not in the box")).first
        with page.expect_navigation():
            fact.locator("a.why").click()
        assert "It follows from entries" in page.inner_text(".because")
        assert "2. deal" in page.inner_text(".because")
        # a line the seat's own hand contradicts (player 2 has "seen" a card this seat was
        # dealt and never passed on) is refused on the spot; typed with a completion chip
        # and a tap on the card in the board
        page.fill("#text", "")
        page.type("#text", "1 as")
        page.click(".suggest button:text-is('asks')")
        page.type("#text", "2 seen ")
        page.click(f"#board [data-word='{mine}']")
        page.type("#text", ": 1")
        assert page.input_value("#text") == f"1 asks 2 seen {mine} : 1"
        _submit(page, "#entry button[type=submit]")
        assert "never passed on" in page.inner_text("#refused")
        assert page.locator(".entries > li").count() == 4
        # the typo: players 2 and 3 both hold a card this seat does not
        theirs = next(c for c in engines.make("alibi", players=4).deck.ids if c not in lines[1])
        _add(page, f"1 asks 2 hand {theirs}: 1")
        _add(page, f"2 asks 3 hand {theirs}: 1")
        banner = page.inner_text("#conflict")
        assert "entries 5 and 6 contradict" in banner and "entry 6, entry 5" in banner
        assert page.locator(".entries > li.blamed").count() == 2
        assert page.locator("#conflict").is_visible()
        assert (
            page.evaluate("document.getElementById('conflict').getBoundingClientRect().bottom")
            <= PHONE["height"]
        )  # seen without scrolling
        _shoot(page, "alibi-conflict")
        page.click("#conflict a[href='#e6']")  # the banner's link opens the entry's forms
        entry = page.locator("#e6")
        entry.locator("form[action$='/edit'] input[name=text]").fill(f"2 asks 3 hand {theirs}: 0")
        _submit(page, "#e6 form[action$='/edit'] button")
        assert page.locator("#conflict").count() == 0
        for number in (6, 5):
            page.locator(f"#e{number}").locator("summary").click()
            _submit(page, f"#e{number} form[action$='/delete'] button")
        for line in lines[4:12]:
            _add(page, line)
        assert page.locator(".entries > li").count() == 12
        shown = page.locator(".hints > li").all_inner_texts()
        _no_horizontal_scroll(page)
        _shoot(page, "alibi")

        server.kill()
        server = Server(tmp_path)
        page.goto(f"{server.url}/s/table")
        texts = page.locator(".entries .text").all_inner_texts()
        assert texts == lines[:12]
        assert page.locator(".hints > li").all_inner_texts() == shown
    finally:
        err = server.stop()
    assert "Traceback" not in err

    # the same session in the terminal front end: the same hints
    terminal = subprocess.run(
        [
            sys.executable,
            "-m",
            "sleuth.cli",
            "assist",
            "--resume",
            "table",
            "--dir",
            str(tmp_path),
            "--no-board",
        ],
        input="hints\nquit\n",
        capture_output=True,
        text=True,
        env={**os.environ, "COLUMNS": "400"},
        timeout=120,
    )
    said = " ".join(terminal.stdout.split())
    for hint in shown:
        text = " ".join(hint.replace("why", "").split())
        assert text in said, text


def test_the_new_session_pickers_make_the_setup_entries(phone, tmp_path) -> None:
    game = engines.make("alibi", players=4)
    lines = typed_lines(game, game.random_game(2).information_set(1))
    dealer, cards = lines[0].split()[1], lines[1].split()[1:]
    server = Server(tmp_path)
    try:
        page = phone.new_page()
        page.goto(f"{server.url}/new?game=alibi")
        assert page.locator("[name^='pick-deal:']").count() == 0  # its size waits for the dealer
        with page.expect_navigation():
            page.check("#choose input[name=seat][value='1']")
        with page.expect_navigation():
            page.check(f"input[name=pick-dealer][value='{dealer}']")
        assert page.is_checked("#choose input[name=seat][value='1']")  # kept across the reload
        assert page.locator("#create [name^='pick-deal:']").count() == 78
        assert page.inner_text("#create .count") == f"0 of {len(cards)} picked"
        for card in cards:
            page.check(f"#create [name='pick-deal:{card}']")
        assert page.inner_text("#create .count") == f"{len(cards)} of {len(cards)} picked"
        _no_horizontal_scroll(page)
        page.locator("#create fieldset.picks").scroll_into_view_if_needed()
        _shoot(page, "new-alibi-deal")
        page.fill("input[name=name]", "picked")
        _submit(page, "#create button[type=submit]")
        assert page.url.endswith("/s/picked"), page.inner_text("main")
        texts = page.locator(".entries .text").all_inner_texts()
        assert texts[0] == f"dealer {dealer}" and texts[2] == "hands", texts
        assert texts[1].startswith("deal ") and sorted(texts[1].split()[1:]) == sorted(cards)
        assert page.locator("#conflict, #refused").count() == 0
        assert page.locator(".hints > li").count() > 0  # the start reads: deductions shown
        # a wrong pick is refused by the notation's rules, the picks kept to fix
        page.goto(f"{server.url}/new?game=alibi&seat=1&pick-dealer={dealer}")
        for card in cards[:-1]:
            page.check(f"#create [name='pick-deal:{card}']")
        _submit(page, "#create button[type=submit]")
        assert "refused" in page.inner_text(".banner.bad") and "entry 2" in page.inner_text(
            ".banner.bad"
        )
        assert page.locator("#create [name^='pick-deal:']:checked").count() == len(cards) - 1
        assert [r.name for r in Session.stored(tmp_path)] == ["picked"]
    finally:
        assert "Traceback" not in server.stop()


def test_two_tabs_and_the_terminal_live_refresh_and_stale_changes(browser, tmp_path) -> None:
    lines = _lines("blue-lion", 3)
    session = Session.new("blue-lion", dir=tmp_path, name="tabs")
    for line in lines[:3]:
        session.add(line)
    session.close()
    server = Server(tmp_path)
    try:
        context = browser.new_context(viewport=PHONE)
        first, second = context.new_page(), context.new_page()
        first.goto(f"{server.url}/s/tabs")
        second.goto(f"{server.url}/s/tabs")
        status, body, _ = _request(f"{server.url}/s/tabs", headers={"Host": "evil.example"})
        assert status == 403 and "answers only at 127.0.0.1" in body  # DNS rebinding
        status, body, _ = _request(f"{server.url}/s/tabs/version")
        assert status == 200 and json.loads(body) == {"version": 3}
        # the terminal adds an entry: both open pages notice and refresh themselves
        terminal = Session.open("tabs", tmp_path)
        terminal.add(lines[3])
        for page in (first, second):
            page.wait_for_selector("#e4", timeout=10_000)
            assert page.locator("#changed").is_hidden()
        # a tab changes it while the other has text typed: that one keeps the text and says
        # the session changed; its change, made on the old version, is refused, not lost
        second.fill("#text", lines[5])
        _add(first, lines[4])
        second.wait_for_selector("#changed:not([hidden])", timeout=10_000)
        _shoot(second, "changed-elsewhere")
        assert second.input_value("#text") == lines[5]
        assert second.locator(".entries > li").count() == 4  # not reloaded under the typing
        _submit(second, "#entry button[type=submit]")
        assert "out of date" in second.inner_text("#refused")
        assert second.input_value("#text") == lines[5]  # not lost: still in the box
        assert second.locator(".entries > li").count() == 5  # the first tab's change shows
        _add(second, lines[5])
        assert second.locator(".entries > li").count() == 6
        first.wait_for_selector("#e6", timeout=10_000)
        assert first.locator("#changed").is_hidden()
        # the terminal's change made on what it saw before the tabs' changes is refused
        with pytest.raises(StaleSession):
            terminal.add(lines[4])  # reads on what it saw: t1 to t4
        assert terminal.sync() and [e.text for e in terminal.entries] == lines[:6]
        terminal.close()
        context.close()
    finally:
        assert "Traceback" not in server.stop()


@pytest.mark.parametrize(
    "name, options, count",
    [
        ("blue-lion", {}, 11),
        ("noir", {}, 14),
        ("alibi", {"players": 4}, 40),
        ("city-killer", {}, 14),
        ("serial-killer", {}, 30),
    ],
)
def test_each_games_session_page_fits_a_phone(phone, tmp_path, name, options, count) -> None:
    session = Session.new(name, dir=tmp_path, name="shot", **options)
    for line in _lines(name, 5, **options)[:count]:
        session.add(line)
    session.close()
    server = Server(tmp_path)
    try:
        page = phone.new_page()
        page.goto(f"{server.url}/s/shot")
        assert page.locator(".entries > li").count() == count
        assert page.locator("#board").count() == 1
        assert page.locator(".hints > li").count() > 0
        _no_horizontal_scroll(page)
        if name == "city-killer":  # the 4x4 city, each resident with a chance of being the killer
            assert page.locator("table.city td").count() == 16
            living = page.locator("table.city .resident").count()
            assert living > 10 and page.locator("table.city .pct").count() == living
        page.locator("#board").scroll_into_view_if_needed()
        _shoot(page, f"session-{name}")
        # the advice level: what to do (or the answer and its plan) leads the hints
        _submit(page, ".levels button:text-is('advice')")
        assert "(advice)" in page.inner_text("#hints h2")
        first = page.locator(".hints > li").first.get_attribute("class")
        assert first in {"answer", "move", "suggestion", "question", "danger"}, first
        _shoot(page, f"session-{name}-advice")
        print(f"screenshot: {OUTPUT / f'session-{name}-advice.png'}")
        # completion: typing the start of a name offers it as a button
        page.fill("#text", "")
        page.type("#text", lines_start := _lines(name, 5, **options)[0][:3])
        assert page.locator(".suggest button").count() > 0, lines_start
        _submit(page, ".levels button:text-is('notepad')")  # the level switch
        assert "(notepad)" in page.inner_text("#hints h2")
        assert page.locator(".levels button.on").inner_text() == "notepad"
        if name == "alibi":  # the plain notepad instead of the box odds
            assert "H in hand" in page.inner_text("#board .caption")
        assert Session.open("shot", tmp_path).level == "notepad"
        if name == "noir":  # the odds read under a model of the other player
            _submit(page, ".models button:text-is('random')")
            assert "read as random players, estimated" in page.inner_text("#hints h2")
            assert page.locator(".models button.on").inner_text() == "random"
            _no_horizontal_scroll(page)
            assert Session.open("shot", tmp_path).model == "random"
        else:  # the choice shows where the seat's odds can read one (not City Killer's killer)
            offered = Session.open("shot", tmp_path).models
            assert page.locator(".models").count() == (1 if offered else 0)
            assert bool(offered) == (name in ("blue-lion", "serial-killer"))
    finally:
        assert "Traceback" not in server.stop()


# --- security, over plain HTTP -----------------------------------------------------------
def _request(url: str, data: bytes | None = None, headers: dict | None = None):
    request = urllib.request.Request(url, data=data, headers=headers or {})
    opener = urllib.request.build_opener(_NoRedirect)
    try:
        with opener.open(request, timeout=30) as response:
            return response.status, response.read().decode(), response.headers
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode(), error.headers


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def test_tokens_forged_posts_bad_names_and_oversized_fields_are_refused(tmp_path) -> None:
    session = Session.new("blue-lion", dir=tmp_path, name="safe")
    session.add(_lines("blue-lion", 3)[0])
    session.close()
    server = Server(tmp_path, host="0.0.0.0")
    bodies = []
    try:
        assert server.token
        for path in ("/s/safe", "/s/safe/version"):
            status, body, _ = _request(f"{server.url}{path}")
            assert status == 403 and "token" in body, path
        status, body, _ = _request(f"{server.url}/?token=wrong")
        assert status == 403
        status, _, headers = _request(f"{server.url}/s/safe?token={server.token}")
        assert status == 303 and headers["Location"] == "/s/safe"
        cookie = headers["Set-Cookie"].split(";")[0]
        assert "HttpOnly" in headers["Set-Cookie"] and "SameSite=strict" in headers["Set-Cookie"]
        status, page, _ = _request(f"{server.url}/s/safe", headers={"Cookie": cookie})
        assert status == 200 and "1." in page
        status, body, _ = _request(f"{server.url}/s/safe/version", headers={"Cookie": cookie})
        assert status == 200 and json.loads(body) == {"version": 1}
        status, body, _ = _request(f"{server.url}/s/.hidden/version", headers={"Cookie": cookie})
        assert status == 404 and "not a session name" in body
        csrf = re.search(r'name="csrf" value="([^"]+)"', page)[1]
        form = {"Cookie": cookie, "Content-Type": "application/x-www-form-urlencoded"}

        def post(path: str, body: str, **extra: str):
            status, text, _ = _request(f"{server.url}{path}", body.encode(), {**form, **extra})
            bodies.append(text)
            return status, text

        line = _lines("blue-lion", 3)[1].replace(" ", "+")
        assert post("/s/safe/add", f"version=1&text={line}")[0] == 403  # no CSRF token
        assert post("/s/safe/add", f"csrf=forged&version=1&text={line}")[0] == 403
        status, _ = post("/s/safe/add", f"csrf={csrf}&version=1&text={line}",
                         Origin="http://evil.example")  # fmt: skip
        assert status == 403
        status, _, _ = _request(f"{server.url}/s/safe/add", f"csrf={csrf}".encode(), {
            "Content-Type": "application/x-www-form-urlencoded"})  # fmt: skip
        assert status == 403  # the right CSRF token but no access token
        assert post("/s/safe/add", f"csrf={csrf}&version=1&text={'x' * 2001}")[0] == 413
        assert post("/s/safe/add", f"csrf={csrf}&version=1&text={'x' * 20000}")[0] == 413
        assert post("/s/safe/add", f"csrf={csrf}&csrf={csrf}&version=1&text=a")[0] == 400
        for name in ("..%2F..%2Fetc%2Fpasswd", "%2E%2E", ".hidden", "a" * 65):
            status, text, _ = _request(f"{server.url}/s/{name}", headers={"Cookie": cookie})
            bodies.append(text)
            assert status == 404, (name, status)
            assert ("%2F" in name and "no page" in text) or "not a session name" in text, name
        status, text = post("/new", f"csrf={csrf}&game=noir&seat=killer&name=..%2Fescape")
        assert status == 400 and "not a session name" in text
        status, text = post("/new", f"csrf={csrf}&game=noir&seat=nobody")
        assert status == 400 and "no seat" in text
        status, text = post("/s/safe/edit", f"csrf={csrf}&version=1&number=99&text={line}")
        assert status == 400 and "no entry 99" in text
        assert Session.open("safe", tmp_path).version == 1  # nothing refused was stored
        status, text = post("/s/safe/add", f"csrf={csrf}&version=1&text={line}")
        assert status == 303 and Session.open("safe", tmp_path).version == 2
        # a row broken by hand is damage: 503, naming the session, the kept copy and the
        # salvage command; no traceback on the page
        db = sqlite3.connect(tmp_path / "sessions.sqlite3")
        db.execute("INSERT INTO sessions VALUES ('broken', 'noir', 'not json', '0', 'odds', 'x')")
        db.commit()
        db.close()
        status, text, _ = _request(f"{server.url}/s/broken", headers={"Cookie": cookie})
        bodies.append(text)
        assert status == 503 and "&#39;broken&#39; cannot be read" in text, text
        assert "damaged-" in text and "--salvage" in text
    finally:
        server.stop()
    for text in bodies:
        assert "Traceback" not in text and 'File "' not in text and "JSONDecodeError" not in text


def test_a_bug_in_the_server_is_a_generic_500_page_and_a_traceback_in_its_log(tmp_path) -> None:
    Session.new("blue-lion", dir=tmp_path, name="safe").close()
    bug = "import sleuth.assist.session as s\ns.Session.hints = lambda *a, **k: {}['secret']"
    server = Server(tmp_path, fault=bug)
    try:
        status, text, _ = _request(f"{server.url}/s/safe")
    finally:
        err = server.stop()
    assert status == 500 and "something went wrong" in text and "entries are safe" in text
    assert "Traceback" not in text and "secret" not in text and "KeyError" not in text
    assert "Traceback" in err and "KeyError: 'secret'" in err


def test_serve_has_help_and_a_busy_port_is_one_line(capsys, tmp_path) -> None:
    from sleuth.cli import main

    with pytest.raises(SystemExit) as stop:
        main(["serve", "--help"])
    assert stop.value.code == 0 and "--host" in capsys.readouterr().out
    server = Server(tmp_path)
    try:
        port = server.url.rsplit(":", 1)[1]
        assert main(["serve", "--port", port, "--dir", str(tmp_path)]) == 2
        err = capsys.readouterr().err
        assert "cannot listen on 127.0.0.1:" in err and len(err.strip().splitlines()) == 1
    finally:
        server.stop()
