"""``seers serve``: start the web page (uvicorn) on this machine."""

from __future__ import annotations

import ipaddress

import typer

LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")


def is_local(host: str) -> bool:
    """Whether ``host`` is a loopback address (only this machine can connect)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def register(app: typer.Typer, bench_app: typer.Typer | None = None) -> None:
    """Add ``seers serve`` to the ``seers`` app."""

    @app.command()
    def serve(
        host: str = typer.Option("127.0.0.1", help="Address to listen on. The default lets only this machine "
                                 "connect; 0.0.0.0 opens the page to the network (a warning is printed)."),
        port: int = typer.Option(8000, min=0, max=65535, help="Port to listen on (0: any free port)."),
        open_browser: bool = typer.Option(True, "--open/--no-open", help="Open the page in a browser."),
        agent: list[str] = typer.Option([], "--agent", help="An extra agent spec the page may use, e.g. a "
                                        "trained model 'ppo:runs/x/model.zip' (repeatable). The page itself "
                                        "can only name agents without a file."),
        max_games: int = typer.Option(32, min=1, help="Most live games (and replays) at once."),
        max_upload_kb: int = typer.Option(2000, min=1, help="Largest upload in kB."),
        seed: int = typer.Option(None, help="Seed of the deals of games started without a seed."),
    ) -> None:
        """Play, watch and replay games in a local web page (FastAPI + uvicorn)."""
        try:
            import uvicorn

            from .app import create_app
            from .sessions import Limits, WebError, check_spec
        except ModuleNotFoundError as err:
            raise typer.BadParameter(f"the web extra is not installed ({err.name} is missing): "
                                     "pip install 'seers-catalog[web]'") from None
        limits = Limits(max_sessions=max_games, max_upload_bytes=max_upload_kb * 1000,
                        allowed_specs=tuple(a.strip() for a in agent))
        for spec in limits.allowed_specs:
            try:
                check_spec(spec, limits)
            except WebError as err:
                raise typer.BadParameter(err.message, param_hint="--agent") from None
        if not is_local(host):
            typer.secho(f"WARNING: listening on {host}: anyone who can reach this machine on port {port} can "
                        "use the page and make the server run agents. Use --host 127.0.0.1 to keep it local.",
                        fg="red", err=True)
        url_host = "127.0.0.1" if host in ("0.0.0.0", "::") else host
        config = uvicorn.Config(create_app(limits, seed=seed), host=host, port=port, log_level="warning")
        server = uvicorn.Server(config)

        if open_browser:
            import threading
            import webbrowser

            def _open() -> None:
                import time

                while not server.started:
                    time.sleep(0.05)
                    if server.should_exit:
                        return
                bound = server.servers[0].sockets[0].getsockname()[1] if server.servers else port
                webbrowser.open(f"http://{url_host}:{bound}/")

            threading.Thread(target=_open, daemon=True).start()
        typer.echo(f"Seers Catalog page: http://{url_host}:{port}/  (Ctrl-C to stop)" if port else
                   "Seers Catalog page starting on a free port (Ctrl-C to stop)")
        server.run()
