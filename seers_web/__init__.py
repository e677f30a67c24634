"""``seers serve``: play, watch and replay Seers Catalog, SCOUT and Seals in a local web page.

The top layer of the project (it builds agents with :func:`agents.make_agent`): the engine
(:class:`seers_env.game.Game`) stays the one source of truth, this package only keeps live games in memory
and turns them into JSON for a small static front end (``static/``, no build step).

Modules:
    :mod:`seers_web.sessions`: live games, watched games and replays, with their limits (no web imports).
    :mod:`seers_web.scout_web`, :mod:`seers_web.seals_web`: SCOUT's and Seals' JSON states and plays.
    :mod:`seers_web.uploads`: reading uploaded game logs and tournament results.
    :mod:`seers_web.guard`: the middleware that answers the server's own page only (Host, Origin, JSON).
    :mod:`seers_web.app`: the FastAPI application (``create_app``).
    :mod:`seers_cli.serve_cmd`: the ``seers serve`` command.
"""

from __future__ import annotations

from .sessions import Limits, SessionStore, WebError

__all__ = ["Limits", "SessionStore", "WebError"]
