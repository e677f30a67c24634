"""``seers serve``: start the web page (uvicorn) on this machine."""

from __future__ import annotations

import ipaddress
import threading

import typer

from .errors import non_negative


def is_local(host: str) -> bool:
    """Whether ``host`` is a loopback address, so that only this machine can connect."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


SERVE_HELP = """Play, watch and replay games in a local web page (FastAPI + uvicorn): Seers Catalog,
SCOUT, Seals and Haggis (the page's game chooser, or --game scout / seals / haggis to open on one).

The page can only name agents without a file (heuristic, ismcts:200, learned for the shipped models of
every game, Seals included, ...): the server reads no path sent by a browser. Offer a trained model with
--agent ppo:path/to/model.zip or --agent learned:path/to/model.pt, Seals' rollout agent with --agent
rollout:16.

The server answers only its own page: a request must name it in Host (localhost, 127.0.0.1, [::1] or the
address it came in on, at the served port), a browser's Origin must be that page's, and a body must be
JSON (Content-Type: application/json). Other web sites are refused (403), and so are other names for this
machine (DNS rebinding); --allow-origin lets a named origin in.

Limits: 2..5 players (Seals 2..4, Haggis 2..3) and 1..{max_rounds} rounds; ISMCTS at most {iterations} iterations or {seconds:g} s per move
from the page (--agent specs are used as given); {search:g} s of agent thinking per game; {workers} agent
decisions or uploads at once; uploads up to --max-upload-kb. An uploaded game log is replayed from its
recorded plays (no agent runs); a tournament result is played again only when its agents are {replayable}.
Work stops when its game is closed or its client goes away; the server stops about 1 s after Ctrl-C or
SIGTERM. More in docs/web_server.md.
"""


#: The default :class:`seers_web.sessions.Limits` and ``seers_web.uploads.REPLAYABLE_SPECS`` that the help
#: states, repeated here so that ``seers --help`` and ``seers serve --help`` do not load the web package
#: and the engine under it (tests/test_cli_help.py checks that they agree).
HELP_LIMITS = {"max_rounds": 20, "max_ismcts_iterations": 500, "max_ismcts_seconds": 1.0,
               "max_search_s_per_game": 600.0, "max_workers": 4}
HELP_REPLAYABLE_SPECS = ("random", "greedy", "heuristic")


def serve_help() -> str:
    """:data:`SERVE_HELP` with the default limits (:data:`HELP_LIMITS`) filled in."""
    lim = HELP_LIMITS
    return SERVE_HELP.format(max_rounds=lim["max_rounds"], iterations=lim["max_ismcts_iterations"],
                             seconds=lim["max_ismcts_seconds"], search=lim["max_search_s_per_game"],
                             workers=lim["max_workers"], replayable=", ".join(HELP_REPLAYABLE_SPECS))


def register(app: typer.Typer, bench_app: typer.Typer | None = None) -> None:
    """Add ``seers serve`` to the ``seers`` app."""

    @app.command(help=serve_help())
    def serve(
        host: str = typer.Option("127.0.0.1", metavar="HOST", help="Address to listen on (0.0.0.0: the network; warns)."),
        port: int = typer.Option(8000, min=0, max=65535, metavar="PORT", help="Port (0: any free port)."),
        open_browser: bool = typer.Option(True, "--open/--no-open", help="Open the page in a browser."),
        game: str = typer.Option("seers_catalog", "--game", metavar="GAME", help="The game the page opens on: "
                                 "seers_catalog, scout, seals or haggis (the page's game chooser "
                                 "switches)."),
        agent: list[str] = typer.Option([], "--agent", metavar="SPEC", help="Extra agent spec the page may use, e.g. "
                                        "ppo:model.zip (repeatable)."),
        max_games: int = typer.Option(32, min=1, metavar="N", help="Most live games and replays at once."),
        max_upload_kb: int = typer.Option(2000, min=1, metavar="KB", help="Largest upload, in kB."),
        seed: int = typer.Option(None, callback=non_negative, metavar="SEED", help="Seed of the deals of games started without a seed."),
        allow_origin: list[str] = typer.Option([], "--allow-origin", metavar="ORIGIN", help="Also answer pages "
                                               "from ORIGIN (scheme://host[:port], e.g. http://my-box.lan:8000) "
                                               "and requests naming its host (repeatable). Only for origins you "
                                               "trust: they can start games and run agents."),
    ) -> None:
        """Play, watch and replay games in a local web page (help: :data:`SERVE_HELP`)."""
        try:
            import uvicorn

            from seers_web.app import create_app
            from seers_web.sessions import Limits
        except ModuleNotFoundError as err:
            raise typer.BadParameter(f"the web extra is not installed ({err.name} is missing): "
                                     "pip install -e '.[web]' in the project's checkout") from None
        from agents import make_agent
        from seers_web.sessions import WEB_GAMES, shipped_learned_available

        if game not in WEB_GAMES:
            raise typer.BadParameter(f"{game!r} is not one of {', '.join(WEB_GAMES)}", param_hint="--game")
        specs = tuple(a.strip() for a in agent if a.strip())
        for spec in specs:
            try:
                make_agent(spec, seed=0)
            except (ValueError, OSError) as err:
                raise typer.BadParameter(str(err), param_hint="--agent") from None
        suggested = Limits.suggested_specs
        if shipped_learned_available():  # torch and the shipped model files
            suggested += ("learned", "learned+search:100")
        limits = Limits(max_sessions=max_games, max_upload_bytes=max_upload_kb * 1000, allowed_specs=specs,
                        suggested_specs=suggested)
        try:
            web_app = create_app(limits, seed=seed, allowed_origins=allow_origin)
        except ValueError as err:
            raise typer.BadParameter(str(err), param_hint="--allow-origin") from None
        if not is_local(host):
            typer.secho(f"WARNING: listening on {host}: anyone who can reach this machine on this port can use "
                        "the page and make the server run agents. Use --host 127.0.0.1 to keep it local.",
                        fg="red", err=True)
        # log_config=None: uvicorn's dictConfig would close every logging handler already installed
        # (a host program's, or pytest's capture), so warnings go through the standard logging defaults.
        # timeout_graceful_shutdown: on SIGTERM, requests still open after 1 s are cancelled (their
        # workers are daemon threads that stop at their next check)
        server = uvicorn.Server(uvicorn.Config(web_app, host=host, port=port, log_level="warning",
                                               log_config=None, timeout_graceful_shutdown=1))

        def announce() -> None:  # once the socket is bound, so that --port 0 shows the real port
            import time
            import webbrowser

            while not server.started:
                if server.should_exit:
                    return
                time.sleep(0.05)
            bound = server.servers[0].sockets[0].getsockname()[1] if server.servers else port
            shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
            url = f"http://{'[' + shown + ']' if ':' in shown else shown}:{bound}/"
            if game != WEB_GAMES[0]:
                url += f"?game={game}"  # the page's chooser starts on that game
            title = {"scout": "SCOUT", "seals": "Seals", "haggis": "Haggis"}.get(game, "Seers Catalog")
            typer.echo(f"{title} page: {url}  (Ctrl-C to stop)")
            if open_browser:
                webbrowser.open(url)

        threading.Thread(target=announce, daemon=True).start()
        server.run()
