"""The FastAPI application behind ``seers serve`` (JSON API under ``/api``, the static page at ``/``).

API (every error is ``{"error": message}`` with a 4xx status naming the bad field, and leaves the game as it
was; unknown routes too):

=======  ==============================  =====================================================
GET      /api/meta                       cards, suit names, suggested agent specs, limits, games
GET      /api/games                      live games (id, mode, seats, round)
POST     /api/games                      new play/watch game, ``game`` seers_catalog, scout, seals
                                        or haggis (see ``SessionStore.create``)
POST     /api/replays?game=N             upload a game log or tournament result (request body)
GET      /api/games/{id}?reveal=0|1      the game's state
POST     /api/games/{id}/play            the person's play ``{"play": {...}, "move": N}``
POST     /api/games/{id}/advance         the next agent's play ``{"move": N}``
POST     /api/games/{id}/seek            replay position ``{"step": N}``
GET      /api/games/{id}/log             the game log as a JSON download
DELETE   /api/games/{id}                 close a game
GET      /, /static/..., /favicon.svg    the page (``/favicon.ico`` is the same SVG icon)
=======  ==============================  =====================================================

Only the server's own page is answered (:mod:`seers_web.guard`: ``Host``, ``Origin``, JSON bodies only).
Quick handlers are plain ``def`` functions (Starlette's thread pool); work that may take long (building
agents, an agent's decision, reading an upload) runs in a daemon thread, at most ``Limits.max_workers`` at
once, and stops at its next check when the client goes away, its game is closed or the server stops, so
neither a disconnected client nor SIGTERM waits for it. Each session has a lock.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import AsyncIterator, Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.middleware.cors import CORSMiddleware

from seers_env.jsonio import dumps, loads_strict

from .guard import OwnOriginOnly, canonical_origin
from .sessions import WEB_GAMES, Limits, SessionStore, Stopped, WebError, all_cards
from .uploads import REPLAYABLE_SPECS, parse_upload

STATIC = Path(__file__).parent / "static"
MAX_JSON_BODY = 64_000  # bytes of a JSON request body (not an upload)
T = TypeVar("T")


async def client_gone(request: Request) -> None:
    """Return once the client has closed the connection (ASGI ``http.disconnect``)."""
    while True:
        message = await request.receive()
        if message["type"] == "http.disconnect":
            return


def web_games() -> list[dict[str, Any]]:
    """The games the page offers: ``name`` (the create request's ``game``), ``title``, ``players``
    ``[min, max]``, ``rules`` (the rules file), SCOUT's ``rounds`` per player count (section 2), Seals'
    ``round_counter`` (the Marks of its round counter, section 2) and Haggis' ``targets``, ``bets`` and
    more (:func:`seers_web.haggis_web.meta_entry`)."""
    from seers_env.games import game_spec
    from seers_env.scout.cards import SETUP

    out = []
    for name in WEB_GAMES:
        spec = game_spec(name)
        entry = {"name": name, "title": spec.title, "players": [spec.min_players, spec.max_players],
                 "rules": spec.rules}
        if name == "scout":
            entry["rounds"] = {str(n): SETUP[n].rounds for n in range(2, 6)}
        if name == "seals":
            from seers_env.seals.rulings import DEFAULT_ROUND_COUNTER

            entry["round_counter"] = DEFAULT_ROUND_COUNTER
        if name == "haggis":
            from .haggis_web import meta_entry

            entry.update(meta_entry())
        out.append(entry)
    return out


def create_app(limits: Limits | None = None, seed: int | None = None,
               allowed_origins: Sequence[str] = ()) -> FastAPI:
    """Build the app with a fresh :class:`SessionStore` (``app.state.store``).

    Args:
        limits: the server's bounds (:class:`Limits`).
        seed: seed of the generator drawing the seeds of games created without one.
        allowed_origins: origins besides the server's own that may use it (``seers serve --allow-origin``),
            e.g. ``["http://my-box.lan:8000"]``; they get CORS answers.

    Raises:
        ValueError: an allowed origin that is not ``scheme://host[:port]``.
    """
    origins = [canonical_origin(o) for o in allowed_origins]
    store = SessionStore(limits, seed=seed)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        yield
        store.close_all()  # workers stop at their next check

    app = FastAPI(title="Seers Catalog", docs_url=None, redoc_url=None, openapi_url=None, lifespan=lifespan)
    app.state.store = store
    if origins:
        app.add_middleware(CORSMiddleware, allow_origins=origins, allow_methods=["GET", "POST", "DELETE"],
                           allow_headers=["Content-Type"])
    app.add_middleware(OwnOriginOnly, allowed_origins=origins)  # added last: runs first

    @app.exception_handler(WebError)
    def _web_error(request: Request, err: WebError) -> JSONResponse:
        return JSONResponse({"error": err.message}, status_code=err.status)

    @app.exception_handler(RequestValidationError)
    def _bad_params(request: Request, err: RequestValidationError) -> JSONResponse:
        problems = "; ".join(f"{'.'.join(str(x) for x in e.get('loc', ()))}: {e.get('msg')}" for e in err.errors())
        return JSONResponse({"error": f"bad request parameters ({problems})"}, status_code=400)

    @app.exception_handler(StarletteHTTPException)
    def _http_error(request: Request, err: StarletteHTTPException) -> JSONResponse:
        return JSONResponse({"error": f"{err.detail}: {request.method} {request.url.path} (the API's routes are "
                                      "listed in docs/web_server.md)"},
                            status_code=err.status_code, headers=getattr(err, "headers", None))

    async def in_worker(request: Request, work: Callable[[Callable[[], bool]], T]) -> T:
        """``work(should_stop)`` in a daemon thread; ``should_stop()`` turns true when the client goes
        away or the server stops. Refused (503) when ``Limits.max_workers`` are busy."""
        if not store.work_slots.acquire(blocking=False):
            raise WebError(f"the server is busy with {store.limits.max_workers} agent decisions or uploads; "
                           "try again in a moment", 503)
        loop = asyncio.get_running_loop()
        done: asyncio.Future = loop.create_future()
        given_up = threading.Event()

        def should_stop() -> bool:
            return given_up.is_set() or store.closing.is_set()

        def deliver(ok: bool, value: Any) -> None:
            if not done.done():
                done.set_result(value) if ok else done.set_exception(value)

        def run() -> None:
            try:
                value, ok = work(should_stop), True
            except Exception as err:  # delivered to the request, which answers it
                value, ok = err, False
            finally:
                store.work_slots.release()
            with contextlib.suppress(RuntimeError):  # the event loop has closed: the server stopped
                loop.call_soon_threadsafe(deliver, ok, value)

        threading.Thread(target=run, name="seers-web-worker", daemon=True).start()
        gone = asyncio.ensure_future(client_gone(request))
        try:
            await asyncio.wait({done, gone}, return_when=asyncio.FIRST_COMPLETED)
        except asyncio.CancelledError:  # the server stops
            given_up.set()
            raise
        finally:
            gone.cancel()
        if not done.done():  # nobody is left to answer
            given_up.set()
            done.add_done_callback(lambda f: f.cancelled() or f.exception())
            raise Stopped("the client went away")
        return done.result()

    async def read_body(request: Request, limit: int) -> bytes:
        """The request body, refused with 413 as soon as it passes ``limit`` bytes."""
        length = request.headers.get("content-length")
        if length is not None and length.isdigit() and int(length) > limit:
            raise WebError(f"the request body has {length} bytes; the limit is {limit}", 413)
        chunks, size = [], 0
        async for chunk in request.stream():
            size += len(chunk)
            if size > limit:
                raise WebError(f"the request body is over the limit of {limit} bytes", 413)
            chunks.append(chunk)
        return b"".join(chunks)

    async def json_body(request: Request, optional: bool = False) -> Any:
        data = await read_body(request, MAX_JSON_BODY)
        if not data.strip():
            if optional:
                return None
            raise WebError("the request needs a JSON body")
        try:
            return loads_strict(data.decode("utf-8"))
        except (UnicodeDecodeError, ValueError, RecursionError) as err:  # NaN, Infinity, huge integers too
            raise WebError(f"the request body is not strict JSON ({err})") from None

    @app.get("/api/meta")
    def meta() -> dict[str, Any]:
        from seers_env.cards import SUIT_NAMES

        lim = store.limits
        return {"cards": all_cards(), "suits": list(SUIT_NAMES),
                "specs": list(lim.suggested_specs) + [s for s in lim.allowed_specs if s not in lim.suggested_specs],
                "limits": {"max_sessions": lim.max_sessions, "max_upload_bytes": lim.max_upload_bytes,
                           "finished_ttl_s": lim.finished_ttl_s, "idle_ttl_s": lim.idle_ttl_s,
                           "players": [2, 5], "max_rounds": lim.max_rounds,
                           "max_ismcts_iterations": lim.max_ismcts_iterations,
                           "max_ismcts_seconds": lim.max_ismcts_seconds,
                           "max_search_s_per_game": lim.max_search_s_per_game, "max_workers": lim.max_workers,
                           "replayable_tournament_specs": list(REPLAYABLE_SPECS)},
                "games": web_games()}

    @app.get("/api/games")
    def list_games() -> list[dict[str, Any]]:
        return store.summaries()

    @app.post("/api/games", status_code=201)
    async def new_game(request: Request) -> JSONResponse:
        body = await json_body(request)
        session = await in_worker(request, lambda should_stop: store.create(body, should_stop))
        return JSONResponse(store.state(session), status_code=201)

    @app.post("/api/replays", status_code=201)
    async def upload(request: Request, game: int = 0) -> JSONResponse:
        data = await read_body(request, store.limits.max_upload_bytes)

        def replay(should_stop: Callable[[], bool]) -> dict[str, Any]:
            log, source = parse_upload(data, store.limits, game, should_stop)
            if should_stop():
                raise Stopped("stopped (the request was given up or the server is stopping); no replay was made")
            return store.state(store.create_replay(log, source), reveal=True)

        return JSONResponse(await in_worker(request, replay), status_code=201)

    def reveal_flag(value: str) -> bool:
        if value not in ("0", "1", "true", "false"):
            raise WebError(f"reveal={value!r} must be 0 or 1")
        return value in ("1", "true")

    @app.get("/api/games/{sid}")
    def get_game(sid: str, reveal: str = "0") -> dict[str, Any]:
        return store.state(store.get(sid), reveal_flag(reveal))

    @app.post("/api/games/{sid}/play")
    async def play(sid: str, request: Request) -> dict[str, Any]:
        session = store.get(sid)
        body = await json_body(request)
        await run_in_threadpool(store.play, session, body)
        return store.state(session)

    @app.post("/api/games/{sid}/advance")
    async def advance(sid: str, request: Request, reveal: str = "0") -> dict[str, Any]:
        session = store.get(sid)
        show = reveal_flag(reveal)
        body = await json_body(request, optional=True)
        if show:
            store.state(session, True)  # refuse a reveal the mode forbids before the play is made
        await in_worker(request, lambda should_stop: store.advance(session, body, should_stop))
        return store.state(session, show)

    @app.post("/api/games/{sid}/seek")
    async def seek(sid: str, request: Request, reveal: str = "1") -> dict[str, Any]:
        session = store.get(sid)
        show = reveal_flag(reveal)
        body = await json_body(request)
        await run_in_threadpool(store.seek, session, body)
        return store.state(session, show)

    @app.get("/api/games/{sid}/log")
    def download(sid: str) -> Response:
        session = store.get(sid)
        return Response(dumps(store.log(session), indent=None), media_type="application/json",
                        headers={"Content-Disposition": f'attachment; filename="seers-{session.id}.json"'})

    @app.delete("/api/games/{sid}")
    def close(sid: str) -> dict[str, Any]:
        store.delete(sid)
        return {"closed": sid}

    @app.get("/")
    def index() -> FileResponse:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-store"})

    @app.get("/favicon.svg")
    @app.get("/favicon.ico")  # asked for by browsers that did not read the page's <link rel="icon">
    def favicon() -> FileResponse:
        return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml",
                            headers={"Cache-Control": "max-age=86400"})

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app
