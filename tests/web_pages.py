"""Shared parts of the browser tests of the ``seers serve`` page (tests/test_web_*browser.py).

Uses the system Chromium (Debian's ``chromium`` package; Playwright's own browser download is not
needed): ``$SEERS_CHROMIUM``, else ``chromium`` or ``chromium-browser`` on ``PATH``. ``.ci/run``
installs it when missing; the tests skip, saying why, only where no browser can be had. Screenshots go
to ``$SEERS_TEST_ARTIFACTS`` (default ``test-artifacts/``) in ``web/``.

A browser test module starts with::

    from web_pages import DESKTOP, PHONE, require_browser, shot, state, wait_settled  # noqa: E402

    CHROMIUM = require_browser()  # skips the module, saying why, without the web extra or a browser

and takes the fixtures ``server`` (base URL of the app, served by uvicorn in a thread on a free
localhost port, one per module), ``browser`` (Chromium, one per module) and ``page`` (a new 1280x800
page that fails its test on any JavaScript error) from tests/conftest.py; :func:`open_game` loads the
page and chooses a game. A module that defines a fixture of the same name uses its own.

Nothing heavy is imported here at import time: fastapi, uvicorn and playwright only when a fixture or
:func:`require_browser` runs, so that conftest.py can import this module in any environment.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ARTIFACTS = Path(os.environ.get("SEERS_TEST_ARTIFACTS", Path(__file__).resolve().parent.parent / "test-artifacts")) / "web"
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}

NO_CHROMIUM = ("no Chromium browser on this machine: install Debian's chromium package "
               "(apt-get install -y chromium) or set SEERS_CHROMIUM to a Chromium binary")


def chromium_path() -> str | None:
    """The Chromium binary the tests use: ``$SEERS_CHROMIUM``, else ``chromium`` or ``chromium-browser``
    on ``PATH``; ``None`` when there is none."""
    return os.environ.get("SEERS_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")


def require_browser() -> str:
    """The Chromium binary (:func:`chromium_path`), called at the top of a browser test module.

    Skips the whole module, saying why, when the web extra (fastapi, uvicorn), Playwright (Python) or a
    Chromium binary is missing."""
    pytest.importorskip("fastapi", reason="the web extra (fastapi, uvicorn) is not installed")
    pytest.importorskip("uvicorn", reason="the web extra (fastapi, uvicorn) is not installed")
    pytest.importorskip("playwright.sync_api", reason="playwright (Python) is not installed")
    path = chromium_path()
    if not path:
        pytest.skip(NO_CHROMIUM, allow_module_level=True)
    return path


@contextlib.contextmanager
def serve(app: Any, start_seconds: float = 20.0) -> Iterator[str]:
    """Serve the ASGI ``app`` with uvicorn in a daemon thread on a free 127.0.0.1 port; yields its base
    URL (``"http://127.0.0.1:<port>"``) once it has started, and stops it on exit.

    Fails the test (``pytest.fail``) when the server has not started within ``start_seconds``."""
    import uvicorn

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    srv = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
    thread = threading.Thread(target=srv.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + start_seconds
        while not srv.started:
            if time.monotonic() > deadline or not thread.is_alive():
                pytest.fail("the web server did not start")
            time.sleep(0.02)
        yield f"http://127.0.0.1:{port}"
    finally:
        srv.should_exit = True
        thread.join(10)
        sock.close()


@contextlib.contextmanager
def launch_chromium(path: str | None = None) -> Iterator[Any]:
    """A headless Playwright Chromium (``path``: the binary, default :func:`require_browser`'s), closed on
    exit; skips, saying why, when it cannot start here."""
    from playwright import sync_api

    path = path or require_browser()
    with sync_api.sync_playwright() as pw:
        try:
            b = pw.chromium.launch(executable_path=path, args=["--no-sandbox", "--disable-dev-shm-usage"])
        except Exception as err:  # a browser binary that cannot start here
            pytest.skip(f"Chromium at {path} does not start: {err}")
        try:
            yield b
        finally:
            b.close()


@contextlib.contextmanager
def new_page(browser: Any, viewport: dict[str, int] | None = None, timeout_ms: int = 15000) -> Iterator[Any]:
    """A page in a fresh context of ``browser`` (``viewport``: default :data:`DESKTOP`); on exit, fails
    the test if the page raised any JavaScript error."""
    ctx = browser.new_context(viewport=viewport or DESKTOP)
    pg = ctx.new_page()
    pg.set_default_timeout(timeout_ms)
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    try:
        yield pg
    finally:
        ctx.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


def shot(page: Any, name: str) -> None:
    """Save a full-page screenshot of the current view as ``web/<name>.png`` under :data:`ARTIFACTS`."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def score(text: str) -> int:
    """A score as the page writes it (a minus sign, U+2212, for negative ones)."""
    return int(text.replace("\u2212", "-"))


def open_page(page: Any, url: str) -> None:
    """Load the page and wait until it has started (its controls are wired, ``/api/meta`` is read)."""
    page.goto(url)
    page.wait_for_function("() => window.__seers && window.__seers.ready")


def open_game(page: Any, url: str, game: str | None = None) -> None:
    """:func:`open_page`, then choose ``game`` (a registry name, e.g. ``"scout"``) in the page's game
    chooser (``None``: the page's default game)."""
    open_page(page, url)
    if game is not None:
        page.select_option("#game-choice", game)


def state(page: Any) -> dict:
    """The page's current game state (``window.__seers.state``, the server's JSON)."""
    return page.evaluate("window.__seers.state")


def wait_settled(page: Any) -> dict:
    """Wait until it is the person's turn or the game is over, and no request is in flight."""
    page.wait_for_function("() => { const u = window.__seers; return u.state && !u.busy && "
                           "(u.state.game_over || u.state.legal); }")
    return state(page)


__all__ = ["ARTIFACTS", "DESKTOP", "NO_CHROMIUM", "PHONE", "chromium_path", "launch_chromium", "new_page",
           "open_game", "open_page", "require_browser", "score", "serve", "shot", "state", "wait_settled"]
