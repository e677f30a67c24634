"""Haggis on the ``seers serve`` page in a real browser: headless Chromium driven by Playwright.

Finds the browser as tests/test_web_scout_browser.py does (``$SEERS_CHROMIUM``, else ``chromium`` or
``chromium-browser`` on ``PATH``) and skips, saying why, where there is none. A uvicorn server runs the
app in a thread on a free port. The tests choose Haggis in the page's game chooser, bet and play whole
rounds by clicking cards (choosing the shape when the clicked cards make several plays, passing, bombing)
and check the result against the engine, check that the page never holds another hand, and watch agents
with pause and step; screenshots go to ``$SEERS_TEST_ARTIFACTS`` (default ``test-artifacts/``) in ``web/``.
"""

from __future__ import annotations

import os
import shutil
import socket
import threading
import time
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("fastapi", reason="the web extra (fastapi, uvicorn) is not installed")
uvicorn = pytest.importorskip("uvicorn", reason="the web extra (fastapi, uvicorn) is not installed")
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright (Python) is not installed")

from agents import make_agent  # noqa: E402
from seers_env.haggis.game import HaggisConfig, HaggisGame  # noqa: E402
from seers_env.haggis.cards import FIRST_FACE  # noqa: E402
from seers_env.haggis.plays import BET, BOMB, PASS, SEQ, SET, HaggisPlay  # noqa: E402
from seers_env.haggis.view import HaggisSeatView  # noqa: E402
from seers_env.seeding import child_seed  # noqa: E402
from seers_web.app import create_app  # noqa: E402

CHROMIUM = os.environ.get("SEERS_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
if not CHROMIUM:
    pytest.skip("no Chromium browser on this machine: install Debian's chromium package "
                "(apt-get install -y chromium) or set SEERS_CHROMIUM to a Chromium binary",
                allow_module_level=True)

ARTIFACTS = Path(os.environ.get("SEERS_TEST_ARTIFACTS", Path(__file__).resolve().parent.parent / "test-artifacts")) / "web"
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
SHOTS: set[str] = set()  # screenshots taken once per run


@pytest.fixture(scope="module")
def server():
    """Base URL of the app served by uvicorn on a free localhost port (stopped after the module)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    srv = uvicorn.Server(uvicorn.Config(create_app(seed=0), log_level="warning"))
    thread = threading.Thread(target=srv.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not srv.started:
        if time.monotonic() > deadline or not thread.is_alive():
            pytest.fail("the web server did not start")
        time.sleep(0.02)
    yield f"http://127.0.0.1:{port}"
    srv.should_exit = True
    thread.join(10)
    sock.close()


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as pw:
        try:
            b = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-dev-shm-usage"])
        except Exception as err:  # a browser binary that cannot start here
            pytest.skip(f"Chromium at {CHROMIUM} does not start: {err}")
        yield b
        b.close()


@pytest.fixture
def page(browser):
    ctx = browser.new_context(viewport=DESKTOP)
    pg = ctx.new_page()
    pg.set_default_timeout(15000)
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    yield pg
    ctx.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


def shot(page, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def score(text: str) -> int:
    return int(text.replace("\u2212", "-"))


def open_haggis(page, url: str) -> None:
    """Load the page, wait until it has started, and choose Haggis in the game chooser."""
    page.goto(url)
    page.wait_for_function("() => window.__seers && window.__seers.ready")
    page.select_option("#game-choice", "haggis")
    assert page.inner_text("#title") == "Haggis" and page.locator("#play-target").is_visible()
    assert not page.locator("#play-artifacts").is_visible()
    disabled = page.evaluate("() => [...document.querySelectorAll('#play-players option')].filter((o) => o.disabled)"
                             ".map((o) => o.textContent)")
    assert disabled == ["4", "5"]  # 2 or 3 players (section 2)


def state(page) -> dict:
    return page.evaluate("window.__seers.state")


def wait_settled(page) -> dict:
    page.wait_for_function("() => { const u = window.__seers; return u.state && !u.busy && "
                           "(u.state.game_over || u.state.legal); }")
    return state(page)


def click_play(page, p: list, st: dict) -> None:
    """Make the legal play ``p`` by clicking as a person would: its cards, then the play (or, when the
    cards make several plays, the one of the right shape)."""
    kind, cards = p[0], p[1]
    if kind == BET:
        page.click(f"#haggis-bet-{p[3]}")
        return
    if kind == PASS:
        page.click("#haggis-pass")
        return
    for c in cards:
        page.click(f'#haggis-hand .hcard[data-card="{c}"]')
    index = [q["play"] for q in st["legal"]].index(p)
    same = [q for q in st["legal"] if q["play"][0] >= 2 and sorted(q["play"][1]) == sorted(cards)]
    if len(same) == 1:
        button = page.locator("#haggis-play-btn")
        assert button.get_attribute("data-index") == str(index)
        assert ("(BOMB)" in button.inner_text()) == (kind == BOMB)
        button.click()
    else:  # the shape is asked: one button per play these cards make
        assert page.locator("#haggis-choices .haggis-choice").count() == len(same)
        assert "choose the shape" in page.inner_text("#haggis-info")
        if "shape" not in SHOTS:
            SHOTS.add("shape")
            shot(page, "haggis-shape-1280")
        page.click(f'#haggis-choices .haggis-choice[data-index="{index}"]')


def wanted_play(rng: np.random.Generator, legal: list[dict], want: str) -> list | None:
    """A legal play of the sort ``want`` names (``"bet"``: 15 or 30; ``"shape"``: cards that make
    several plays; ``"pass"``; ``"bomb"``), or ``None`` when there is none."""
    plays = [q["play"] for q in legal]
    if want == "shape":
        counts: dict[tuple, int] = {}
        for p in plays:
            counts[tuple(p[1])] = counts.get(tuple(p[1]), 0) + (p[0] >= 2)
        pool = [p for p in plays if p[0] >= 2 and counts[tuple(p[1])] > 1]
    else:
        kind = {"pass": PASS, "bomb": BOMB, "bet": BET}[want]
        pool = [p for p in plays if p[0] == kind and (kind != BET or p[3])]
    return pool[int(rng.integers(len(pool)))] if pool else None


def pick_play(rng: np.random.Generator, legal: list[dict], wanted: list[str]) -> list:
    """The first sort of play still ``wanted`` that is legal now (taken off the list), else a legal set or
    sequence, without wilds where one is (to win tricks and lead, keeping the wilds for plays of several
    shapes), else a pass or a bomb."""
    for want in wanted:
        if want == "bomb" and "shape" in wanted:  # a bomb of J/Q/K would leave no wild for the shapes
            continue
        p = wanted_play(rng, legal, want)
        if p is not None:
            wanted.remove(want)
            return p
    plays = [q["play"] for q in legal]
    pool = ([p for p in plays if p[0] in (SET, SEQ) and max(p[1]) < FIRST_FACE]
            or [p for p in plays if p[0] in (SET, SEQ)] or plays)
    return pool[int(rng.integers(len(pool)))]


@pytest.mark.parametrize("players", [2, 3])
def test_bet_and_play_a_round_by_clicking(server, page, players):
    seed, human = 40 + players, 0  # seat 0 leads the first round (section 2 [ruling]): bet, then lead
    open_haggis(page, server)
    page.select_option("#play-players", str(players))
    page.select_option("#play-seat", str(human))
    page.fill("#play-seed", str(seed))
    page.fill("#play-rounds", "1")
    for s in range(players):
        if s != human:
            page.fill(f"#play-agent-{s}", "random")
    page.click("#start-play")
    page.fill("#pace", "0")
    rng = np.random.default_rng(players)
    chosen: list[list] = []
    wanted = ["bet", "shape", "pass", "shape", "bomb"]
    shots = 0
    while True:
        st = wait_settled(page)
        if st["game_over"]:
            break
        assert list(st["hands"]) == [str(human)] and st["haggis"] is None  # the page holds no other hand
        mine = st["hands"][str(human)]
        drawn = page.evaluate("() => [...document.querySelectorAll('#haggis-hand .hcard')]"
                              ".map((c) => Number(c.dataset.card))")
        assert drawn == [c["id"] for c in mine]
        ranks = [c["rank"] for c in mine]
        assert ranks == sorted(ranks)  # sorted by rank, J Q K last
        for s in range(players):  # every player's face cards, face up beside their hand
            assert page.locator(f"#haggis-seat-{s} .faces .hcard").count() == len(st["faces"][s])
        heading = f"Trick: {st['trick_type']}" if st["trick"] else "Trick: none yet"
        assert page.inner_text("#haggis-trick-type") == heading
        p = pick_play(rng, st["legal"], wanted)
        if st["phase"] == "bet":
            assert page.locator("#haggis-bet-0").is_visible()
            assert page.locator("#haggis-hand .hcard[role=button]").count() == 0  # no card before the bet
        click_play(page, p, st)
        if shots < 1 and len(st["trick"]) >= 1:
            shot(page, f"haggis-play-{players}p-1280")
            shots += 1
        chosen.append(p)
        page.wait_for_function(f"() => window.__seers.state.move > {st['move']}")
    shot(page, f"haggis-play-over-{players}p-1280")
    assert chosen[0][0] == BET and chosen[0][3] > 0 and len(chosen) > 1
    assert wanted.count("shape") < 2 and "pass" not in wanted, (wanted, chosen)  # a shape chosen, a pass
    # the same round in the engine: same seed, the agents seeded as the server seeds them, the clicked plays
    game = HaggisGame(HaggisConfig(n_players=players, n_rounds=1), seed=seed)
    agents = {s: make_agent("random", seed=child_seed(seed, s), game="haggis") for s in range(players) if s != human}
    plays = iter(chosen)
    while not game.game_over:
        s = game.current
        game.apply(HaggisPlay.from_list(next(plays)) if s == human else agents[s].act(HaggisSeatView(game, s)))
    assert next(plays, None) is None
    totals = [score(page.inner_text(f'#scores tr.totals th[data-seat="{s}"]')) for s in range(players)]
    assert totals == game.totals == st["totals"]
    assert "Game over" in page.inner_text("#gameover")
    assert page.locator("#haggis-last-round table tr").count() == players + 1
    assert "went out first" in page.inner_text("#haggis-last-round")
    assert page.inner_text("#haggis-trick-type") == "Trick: none (the game is over)"


def test_cards_that_make_no_play_offer_nothing(server, page):
    open_haggis(page, server)
    page.select_option("#play-players", "2")
    page.select_option("#play-seat", "0")
    page.fill("#play-seed", "3")
    page.click("#start-play")
    page.fill("#pace", "0")
    st = wait_settled(page)
    assert st["phase"] == "bet"
    shot(page, "haggis-bet-1280")
    page.click("#haggis-bet-15")
    page.wait_for_function("() => window.__seers.state.move === 1")
    st = wait_settled(page)
    assert st["bets"][0] == 15 and page.locator("#haggis-pass").count() == 0  # a lead: no pass
    hand = st["hands"]["0"]
    plays = {tuple(sorted(q["play"][1])) for q in st["legal"]}
    pair = next(((a["id"], b["id"]) for i, a in enumerate(hand) for b in hand[i + 1:]
                 if tuple(sorted((a["id"], b["id"]))) not in plays), None)
    assert pair is not None
    for c in pair:
        page.click(f'#haggis-hand .hcard[data-card="{c}"]')
    assert page.locator("#haggis-play-btn").count() == 0 and page.locator("#haggis-choices button").count() == 0
    assert "No legal play uses" in page.inner_text("#haggis-info")
    page.click("#haggis-clear")
    assert page.locator("#haggis-hand .hcard.selected").count() == 0 and state(page)["move"] == 1
    page.set_viewport_size(PHONE)
    shot(page, "haggis-play-phone")


def test_watch_haggis_pause_step_and_show_hands(server, page):
    page.goto(f"{server}/?game=haggis")  # as seers serve --game haggis opens it
    page.wait_for_function("() => window.__seers && window.__seers.ready")
    assert page.inner_text("#title") == "Haggis" and page.input_value("#game-choice") == "haggis"
    page.click("#tab-watch")
    page.select_option("#watch-players", "3")
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
    assert len(st["hands"]) == 3 and len(st["haggis"]) == st["haggis_size"] == 3
    held = sum(len(h) for s, h in st["hands"].items())
    assert page.locator("#haggis-seats .seat-hand .hcard").count() == held
    assert page.locator("#haggis-hand-box").count() == 0  # nobody's hand to play
    shot(page, "haggis-watch-1280")
    page.set_viewport_size(PHONE)
    shot(page, "haggis-watch-phone")
    page.uncheck("#show-hands")
    page.wait_for_function("() => Object.keys(window.__seers.state.hands).length === 0")
    assert page.locator("#haggis-seats .seat-hand .hcard").count() == 0 and state(page)["haggis"] is None


def test_replay_a_saved_haggis_log(server, page, tmp_path):
    import json

    game = HaggisGame(HaggisConfig(n_players=2, n_rounds=1), seed=8)
    agents = [make_agent("heuristic", seed=s, game="haggis") for s in range(2)]
    while not game.game_over:
        game.apply(agents[game.current].act(HaggisSeatView(game, game.current)))
    log = game.log()
    log["agents"] = ["heuristic"] * 2
    path = tmp_path / "haggis.json"
    path.write_text(json.dumps(log))
    n = sum(1 for e in game.events if e["event"] == "play")
    open_haggis(page, server)
    page.click("#tab-replay")
    page.set_input_files("#replay-file", str(path))
    page.click("#replay-open")
    page.wait_for_function("() => window.__seers.state && window.__seers.state.mode === 'replay'")
    assert state(page)["steps"] == n and state(page)["game"] == "haggis"
    for k in range(1, 6):
        page.click("#rp-next")
        page.wait_for_function(f"() => window.__seers.state.step === {k}")
    page.click("#rp-prev")
    page.wait_for_function("() => window.__seers.state.step === 4")
    mid = HaggisGame.replay(log, upto=4)
    assert state(page)["hand_sizes"] == mid.hand_sizes()
    assert page.locator("#haggis-seats .seat-hand .hcard").count() == sum(mid.hand_sizes())
    assert page.locator("#haggis-trick-box .meld").count() == len(mid.trick)
    shot(page, "haggis-replay-1280")
    page.click("#rp-last")
    page.wait_for_function(f"() => window.__seers.state.step === {n}")
    totals = [score(page.inner_text(f'#scores tr.totals th[data-seat="{s}"]')) for s in range(2)]
    assert totals == game.totals
    assert "went out first" in page.inner_text("#haggis-last-round")
