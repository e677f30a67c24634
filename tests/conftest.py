"""Shared test helpers: hypothesis profile and exact game states for rule examples.

``Table`` (fixture ``table``) builds a :class:`seers_env.Game` whose hands are given in short text, e.g.
``"Y5 P5 T7 wild half_step"`` (suit initial Y/P/S/T/G + value 2..13, ``wild``, or an artifact kind key).
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings

from seers_env import Game, GameConfig, Play
from seers_env.artifacts import DEFAULT_ARTIFACT_DECK, kind_index
from seers_env.cards import WILD, artifact_card, suited_card

settings.register_profile(
    "ci", deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True, print_blob=True
)
settings.register_profile("dev", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

SUIT_INITIALS = "YPSTG"  # Yellow, Plum, Silver, Teal, Green (seers_env.cards.SUIT_NAMES)


def cards(text: str) -> list[int]:
    """Card ids of a hand written as text, sorted; raises ValueError on an unknown token."""
    out = []
    for tok in text.split():
        if tok == "wild":
            out.append(WILD)
        elif tok[0] in SUIT_INITIALS and tok[1:].isdigit():
            out.append(suited_card(SUIT_INITIALS.index(tok[0]), int(tok[1:])))
        else:
            out.append(artifact_card(kind_index(tok)))
    return sorted(out)


class Table:
    """Builds exact states: a fresh game, then the given hands and the seat to lead."""

    cards = staticmethod(cards)

    @staticmethod
    def game(hands: list[str], current: int = 0, artifacts=DEFAULT_ARTIFACT_DECK, seed: int = 0) -> Game:
        g = Game(GameConfig(n_players=len(hands), artifact_deck=artifacts), seed=seed)
        g.hands = [cards(h) for h in hands]
        g.start_seer = g.current = current
        g._invalidate()
        return g

    @staticmethod
    def ids(game: Game) -> set[tuple]:
        """Identities of the legal plays of the player to act."""
        return {tuple(p[:8]) for p in game.legal_plays()}

    @staticmethod
    def melds(game: Game) -> list[Play]:
        return [p for p in game.legal_plays() if p.kind == 1]

    @staticmethod
    def pick(game: Game, **fields) -> Play:
        """The one legal play whose fields equal ``fields`` (card text allowed for ``suited``)."""
        if isinstance(fields.get("suited"), str):
            fields["suited"] = tuple(c for c in cards(fields["suited"]) if c < WILD)
        found = [p for p in game.legal_plays() if all(getattr(p, k) == v for k, v in fields.items())]
        assert len(found) == 1, f"{len(found)} legal plays match {fields}: {found}"
        return found[0]


@pytest.fixture
def table() -> type[Table]:
    return Table


# --- the browser tests' fixtures (helpers: tests/web_pages.py) ------------------------------------------
# A browser test module calls web_pages.require_browser() first (it skips the module without the web
# extra, Playwright or Chromium); a module that defines a fixture of one of these names uses its own.

from web_pages import launch_chromium, new_page, serve  # noqa: E402


@pytest.fixture(scope="module")
def server():
    """Base URL of the app (``create_app(seed=0)``) served by uvicorn on a free localhost port (stopped
    after the module)."""
    from seers_web.app import create_app

    with serve(create_app(seed=0)) as url:
        yield url


@pytest.fixture(scope="module")
def browser():
    """Headless Chromium (:func:`web_pages.launch_chromium`), one per module."""
    with launch_chromium() as b:
        yield b


@pytest.fixture
def page(browser):
    """A new 1280x800 page; its test fails on any JavaScript error the page raised."""
    with new_page(browser) as pg:
        yield pg


@pytest.fixture
def shipped_only(tmp_path, monkeypatch):
    """``shipped_only(4, game="seers_catalog")``: points ``train.scoring_policy.SHIPPED_DIR`` at a new
    folder holding only the shipped models of those player counts, so a test of a missing count holds
    whichever counts the project ships. Returns the folder."""
    import shutil

    import train.scoring_policy as scoring_policy

    def only(*counts: int, game: str = "seers_catalog"):
        folder = tmp_path / "shipped_only"
        folder.mkdir(exist_ok=True)
        for n in counts:
            path = scoring_policy.shipped_model_path(n, game)
            shutil.copy(path, folder / os.path.basename(path))
        monkeypatch.setattr(scoring_policy, "SHIPPED_DIR", str(folder))
        return folder

    return only
