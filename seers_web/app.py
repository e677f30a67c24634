"""The FastAPI application behind ``seers serve`` (JSON API under ``/api``, the static page at ``/``).

API (every error is ``{"error": message}`` with a 4xx status, and leaves the game as it was):

=======  ==============================  =====================================================
GET      /api/meta                       cards, suit names, suggested agent specs, limits
GET      /api/games                      live games (id, mode, seats, round)
POST     /api/games                      new play/watch game (see ``SessionStore.create``)
POST     /api/replays?game=N             upload a game log or tournament result (request body)
GET      /api/games/{id}?reveal=0|1      the game's state
POST     /api/games/{id}/play            the person's play ``{"play": {...}, "move": N}``
POST     /api/games/{id}/advance         the next agent's play ``{"move": N}``
POST     /api/games/{id}/seek            replay position ``{"step": N}``
GET      /api/games/{id}/log             the game log as a JSON download
DELETE   /api/games/{id}                 close a game
=======  ==============================  =====================================================

Handlers are plain ``def`` functions: Starlette runs them in its thread pool, and each session has a lock.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles

from .sessions import Limits, SessionStore, WebError, all_cards
from .uploads import parse_upload

STATIC = Path(__file__).parent / "static"
MAX_JSON_BODY = 64_000  # bytes of a JSON request body (not an upload)


def create_app(limits: Limits | None = None, seed: int | None = None) -> FastAPI:
    """Build the app with a fresh :class:`SessionStore` (``app.state.store``).

    Args:
        limits: the server's bounds (:class:`Limits`).
        seed: seed of the generator drawing the seeds of games created without one.
    """
    app = FastAPI(title="Seers Catalog", docs_url=None, redoc_url=None, openapi_url=None)
    store = SessionStore(limits, seed=seed)
    app.state.store = store

    @app.exception_handler(WebError)
    def _web_error(request: Request, err: WebError) -> JSONResponse:
        return JSONResponse({"error": err.message}, status_code=err.status)

    @app.exception_handler(RequestValidationError)
    def _bad_params(request: Request, err: RequestValidationError) -> JSONResponse:
        problems = "; ".join(f"{'.'.join(str(x) for x in e.get('loc', ()))}: {e.get('msg')}" for e in err.errors())
        return JSONResponse({"error": f"bad request parameters ({problems})"}, status_code=400)

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
            return json.loads(data)
        except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as err:
            raise WebError(f"the request body is not JSON ({err})") from None

    @app.get("/api/meta")
    def meta() -> dict[str, Any]:
        from seers_env.cards import SUIT_NAMES

        lim = store.limits
        return {"cards": all_cards(), "suits": list(SUIT_NAMES),
                "specs": list(lim.suggested_specs) + [s for s in lim.allowed_specs if s not in lim.suggested_specs],
                "limits": {"max_sessions": lim.max_sessions, "max_upload_bytes": lim.max_upload_bytes,
                           "finished_ttl_s": lim.finished_ttl_s}}

    @app.get("/api/games")
    def list_games() -> list[dict[str, Any]]:
        return store.summaries()

    @app.post("/api/games", status_code=201)
    async def new_game(request: Request) -> JSONResponse:
        body = await json_body(request)
        from starlette.concurrency import run_in_threadpool

        session = await run_in_threadpool(store.create, body)
        return JSONResponse(store.state(session), status_code=201)

    @app.post("/api/replays", status_code=201)
    async def upload(request: Request, game: int = 0) -> JSONResponse:
        from starlette.concurrency import run_in_threadpool

        data = await read_body(request, store.limits.max_upload_bytes)
        log, source = await run_in_threadpool(parse_upload, data, store.limits, game)
        session = store.create_replay(log, source)
        return JSONResponse(store.state(session, reveal=True), status_code=201)

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
        from starlette.concurrency import run_in_threadpool

        await run_in_threadpool(store.play, session, body)
        return store.state(session)

    @app.post("/api/games/{sid}/advance")
    async def advance(sid: str, request: Request, reveal: str = "0") -> dict[str, Any]:
        session = store.get(sid)
        show = reveal_flag(reveal)
        body = await json_body(request, optional=True)
        if show:
            store.state(session, True)  # refuse a reveal the mode forbids before the play is made
        from starlette.concurrency import run_in_threadpool

        await run_in_threadpool(store.advance, session, body)
        return store.state(session, show)

    @app.post("/api/games/{sid}/seek")
    async def seek(sid: str, request: Request, reveal: str = "1") -> dict[str, Any]:
        session = store.get(sid)
        show = reveal_flag(reveal)
        body = await json_body(request)
        from starlette.concurrency import run_in_threadpool

        await run_in_threadpool(store.seek, session, body)
        return store.state(session, show)

    @app.get("/api/games/{sid}/log")
    def download(sid: str) -> Response:
        session = store.get(sid)
        return Response(json.dumps(store.log(session)), media_type="application/json",
                        headers={"Content-Disposition": f'attachment; filename="seers-{session.id}.json"'})

    @app.delete("/api/games/{sid}")
    def close(sid: str) -> dict[str, Any]:
        store.delete(sid)
        return {"closed": sid}

    @app.get("/")
    def index() -> FileResponse:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-store"})

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app
