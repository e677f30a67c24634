"""SCOUT on the ``seers serve`` page in a real browser: headless Chromium driven by Playwright.

Finds the browser as tests/test_web_browser.py does (``$SEERS_CHROMIUM``, else ``chromium`` or
``chromium-browser`` on ``PATH``) and skips, saying why, where there is none. A uvicorn server runs the
app in a thread on a free port (the fixtures of tests/conftest.py, helpers in tests/web_pages.py). The
tests choose SCOUT in the page's game chooser, play whole games by clicking (keep/rotate, Show by first
and last card, Scout by end card, flip and gap, Scout & Show) and check the result against the engine,
watch agents with pause and step, and replay a saved SCOUT log; screenshots go to ``$SEERS_TEST_ARTIFACTS`` (default ``test-artifacts/``) in ``web/``.
"""

from __future__ import annotations

import numpy as np
import pytest

from web_pages import (ARTIFACTS, DESKTOP, PHONE, open_game, require_browser, score, shot,  # noqa: F401
                       state, wait_settled)

CHROMIUM = require_browser()  # skips the module, saying why, without the web extra or a browser

from agents import make_agent  # noqa: E402
from seers_env.scout.game import ScoutConfig, ScoutGame  # noqa: E402
from seers_env.scout.plays import KEEP, ROTATE, SCOUT, SCOUT_SHOW, SHOW, ScoutPlay  # noqa: E402
from seers_env.scout.view import ScoutSeatView  # noqa: E402
from seers_env.seeding import child_seed  # noqa: E402

# The fixtures server, browser and page are tests/conftest.py's.


def open_scout(page, url: str) -> None:
    """Load the page, wait until it has started, and choose SCOUT in the game chooser."""
    open_game(page, url, "scout")
    assert page.inner_text("#title") == "SCOUT" and not page.locator("#play-artifacts").is_visible()


def hand_faces(page) -> list[list[int]]:
    """(top, bottom) of every card of the person's hand as drawn."""
    return page.evaluate("""() => [...document.querySelectorAll('#scout-hand .scard')].map((c) =>
        [Number(c.querySelector('.top').textContent), Number(c.querySelector('.bottom').textContent)])""")


def click_segment(page, start: int, length: int) -> None:
    page.click(f'#scout-hand .scard[data-pos="{start}"]')
    if length > 1:
        page.click(f'#scout-hand .scard[data-pos="{start + length - 1}"]')


def click_play(page, p: list[int], st: dict) -> None:
    """Make the legal play ``p`` by clicking as a person would."""
    kind, end, flip, position, start, length = p
    if kind == KEEP:
        page.click("#scout-keep")
    elif kind == ROTATE:
        page.click("#scout-rotate")
    elif kind == SHOW:
        click_segment(page, start, length)
        assert page.locator("#scout-show-btn").is_enabled()
        page.click("#scout-show-btn")
    else:  # SCOUT or SCOUT_SHOW: the end card, maybe flip, (Scout & Show), then a gap
        card = st["active"][0 if end == 0 else -1]
        page.click(f'#scout-active .scard[data-end="{end}"]')
        if flip:
            page.click("#scout-flip")
        chosen = page.locator("#scout-active .scard.chosen .top").inner_text()
        assert int(chosen) == (card["bottom"] if flip else card["top"])
        if kind == SCOUT_SHOW:
            page.click("#scout-ss")
        page.click(f'#scout-hand .gap[data-gap="{position}"]')
        if kind == SCOUT_SHOW:
            page.wait_for_selector("#scout-hand .scard.fresh")
            assert int(page.locator("#scout-hand .scard.fresh .top").inner_text()) == int(chosen)
            click_segment(page, start, length)
            page.click("#scout-show-btn")


def pick_play(rng: np.random.Generator, legal: list[list[int]], want: int | None) -> list[int]:
    """A legal play, of kind ``want`` when there is one, else of a random kind."""
    by_kind: dict[int, list[list[int]]] = {}
    for p in legal:
        by_kind.setdefault(p[0], []).append(p)
    kind = want if want in by_kind else sorted(by_kind)[int(rng.integers(len(by_kind)))]
    pool = by_kind[kind]
    return pool[int(rng.integers(len(pool)))]


@pytest.mark.parametrize("players", [2, 4])
def test_play_whole_scout_game_by_clicking(server, page, players):
    seed, human = 30 + players, 1
    open_scout(page, server)
    page.select_option("#play-players", str(players))
    page.select_option("#play-seat", str(human))
    page.fill("#play-seed", str(seed))
    for s in range(players):
        if s != human:
            page.fill(f"#play-agent-{s}", "random")
    page.click("#start-play")
    page.fill("#pace", "0")
    rng = np.random.default_rng(players)
    chosen: list[list[int]] = []
    wanted = [ROTATE, SHOW, SCOUT, SCOUT_SHOW] * 3  # every way of playing, then at random
    while True:
        st = wait_settled(page)
        if st["game_over"]:
            break
        mine = st["hands"][str(human)]
        if st["phase"] == "play":
            assert hand_faces(page) == [[c["top"], c["bottom"]] for c in mine]  # both numbers, in order
        want = next((k for k in wanted if any(p[0] == k for p in st["legal"])), None)
        p = pick_play(rng, st["legal"], want)
        if want is not None and p[0] == want:
            wanted.remove(want)
        if p[0] == SCOUT_SHOW and not any(c[0] == SCOUT_SHOW for c in chosen):
            shot(page, f"scout-play-{players}p-1280")
        click_play(page, p, st)
        chosen.append(p)
        page.wait_for_function(f"() => window.__seers.state.move > {st['move']}")
    shot(page, f"scout-play-over-{players}p-1280")
    assert {p[0] for p in chosen} >= {ROTATE, SHOW, SCOUT} | ({SCOUT_SHOW} if players > 2 else set())
    # the same game in the engine: same seed, the agents seeded as the server seeds them, the plays clicked
    game = ScoutGame(ScoutConfig(n_players=players), seed=seed)
    agents = {s: make_agent("random", seed=child_seed(seed, s), game="scout") for s in range(players) if s != human}
    plays = iter(chosen)
    while not game.game_over:
        s = game.current
        game.apply(ScoutPlay(*next(plays)) if s == human else agents[s].act(ScoutSeatView(game, s)))
    assert next(plays, None) is None
    totals = [score(page.inner_text(f'#scores tr.totals th[data-seat="{s}"]')) for s in range(players)]
    assert totals == game.totals == st["totals"]
    assert "Game over" in page.inner_text("#gameover")
    assert "player_" not in page.inner_text("#history")


def test_scout_controls_refuse_what_is_not_legal(server, page):
    open_scout(page, server)
    page.select_option("#play-players", "3")
    page.select_option("#play-seat", "0")
    page.fill("#play-seed", "3")
    page.click("#start-play")
    page.fill("#pace", "0")
    st = wait_settled(page)
    assert st["phase"] == "rotate" and page.locator(".rotated-preview .scard").count() == len(st["hands"]["0"])
    page.click("#scout-keep")
    page.wait_for_function("() => window.__seers.state.move > 0")
    while True:  # play Shows until it is the person's turn with an Active Set
        st = wait_settled(page)
        if st["active"] and st["phase"] == "play":
            break
        p = next(p for p in st["legal"] if p[0] == SHOW)
        click_play(page, p, st)
        page.wait_for_function(f"() => window.__seers.state.move > {st['move']}")
    shows = {(p[4], p[5]) for p in st["legal"] if p[0] == SHOW}
    hand = st["hands"]["0"]
    bad = next(((s, n) for n in range(2, len(hand) + 1) for s in range(len(hand) - n + 1) if (s, n) not in shows), None)
    if bad is not None:  # a segment that is no legal Show: the Show button stays off
        click_segment(page, *bad)
        assert not page.locator("#scout-show-btn").is_enabled()
        assert "not a Show" in page.inner_text("#scout-info")
        page.click("#scout-cancel")
    page.click('#scout-active .scard[data-end="0"]')
    assert page.locator("#scout-hand .gap").count() == len(hand) + 1
    shot(page, "scout-scouting-1280")
    page.set_viewport_size(PHONE)
    shot(page, "scout-scouting-phone")
    page.set_viewport_size(DESKTOP)
    page.click("#scout-cancel")
    assert page.locator("#scout-hand .gap").count() == 0 and state(page)["move"] == st["move"]


def test_watch_scout_pause_and_step(server, page):
    page.goto(f"{server}/?game=scout")  # as seers serve --game scout opens it
    page.wait_for_function("() => window.__seers && window.__seers.ready")
    assert page.inner_text("#title") == "SCOUT" and page.input_value("#game-choice") == "scout"
    page.click("#tab-watch")
    page.select_option("#watch-players", "4")
    page.fill("#watch-seed", "5")
    page.click("#start-watch")
    page.fill("#pace", "100")
    page.wait_for_function("() => window.__seers.state && window.__seers.state.move >= 6")
    page.click("#pause")
    page.wait_for_function("() => !window.__seers.busy && !window.__seers.timer")
    before = state(page)["move"]
    page.wait_for_timeout(300)
    assert state(page)["move"] == before
    page.click("#step")
    page.wait_for_function(f"() => window.__seers.state.move === {before + 1} && !window.__seers.busy")
    st = state(page)
    assert len(st["hands"]) == 4 and page.locator("#scout-seats .scard").count() == sum(st["hand_sizes"])
    assert page.locator("#scout-active .scard").count() == len(st["active"])
    assert page.locator("#scout-hand-box").count() == 0  # nobody's hand to play
    shot(page, "scout-watch-1280")
    page.set_viewport_size(PHONE)
    shot(page, "scout-watch-phone")
    page.uncheck("#show-hands")
    page.wait_for_function("() => Object.keys(window.__seers.state.hands).length === 0")
    assert page.locator("#scout-seats .scard").count() == 0


def test_replay_a_saved_scout_log(server, page, tmp_path):
    import json

    game = ScoutGame(ScoutConfig(n_players=3), seed=8)
    agents = [make_agent("heuristic", seed=s, game="scout") for s in range(3)]
    while not game.game_over:
        game.apply(agents[game.current].act(ScoutSeatView(game, game.current)))
    log = game.log()
    log["agents"] = ["heuristic"] * 3
    path = tmp_path / "scout.json"
    path.write_text(json.dumps(log))
    n = sum(1 for e in game.events if e["event"] == "play")
    open_scout(page, server)
    page.click("#tab-replay")
    page.set_input_files("#replay-file", str(path))
    page.click("#replay-open")
    page.wait_for_function("() => window.__seers.state && window.__seers.state.mode === 'replay'")
    assert state(page)["steps"] == n and state(page)["game"] == "scout"
    for k in range(1, 6):
        page.click("#rp-next")
        page.wait_for_function(f"() => window.__seers.state.step === {k}")
    page.click("#rp-prev")
    page.wait_for_function("() => window.__seers.state.step === 4")
    mid = ScoutGame.replay(log, upto=4)
    assert state(page)["hand_sizes"] == mid.hand_sizes()
    assert page.locator("#scout-seats .scard").count() == sum(mid.hand_sizes())
    shot(page, "scout-replay-1280")
    page.click("#rp-last")
    page.wait_for_function(f"() => window.__seers.state.step === {n}")
    totals = [score(page.inner_text(f'#scores tr.totals th[data-seat="{s}"]')) for s in range(3)]
    assert totals == game.totals
    # an edited log: a clear message
    log["events"][0]["hands"][0].reverse()
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(log))
    page.click("#tab-replay")
    page.set_input_files("#replay-file", str(bad))
    page.click("#replay-open")
    page.wait_for_selector("#error:not([hidden])")
    assert "does not replay" in page.inner_text("#error")
