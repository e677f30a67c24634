"""The ``seers serve`` page in a real browser: headless Chromium driven by Playwright.

Uses the system Chromium (Debian's ``chromium`` package; Playwright's own browser download is not needed):
``$SEERS_CHROMIUM``, else ``chromium`` or ``chromium-browser`` on ``PATH``. ``.ci/run`` installs it when
missing; these tests skip, saying why, only where no browser can be had.

A uvicorn server runs the app in a thread on a free port (the fixtures of tests/conftest.py, helpers
in tests/web_pages.py). The tests play a whole game by clicking cards
and check the final scores against the engine, watch agents with pause and step, replay a saved file
forwards and backwards, and save a screenshot of each view (1280x800 and a 390 px phone width) under
``$SEERS_TEST_ARTIFACTS`` (default ``test-artifacts/``) in ``web/``.
"""

from __future__ import annotations

import re

import numpy as np

from web_pages import (ARTIFACTS, DESKTOP, PHONE, open_page, require_browser, score, shot,  # noqa: F401
                       state, wait_settled)

CHROMIUM = require_browser()  # skips the module, saying why, without the web extra or a browser

from agents import make_agent  # noqa: E402
from seers_env.artifacts import DEFAULT_ARTIFACT_DECK  # noqa: E402
from seers_env.game import Game, GameConfig  # noqa: E402
from seers_cli.play_cli import agent_seed, save_log  # noqa: E402
from seers_env.plays import Play  # noqa: E402
from seers_env.view import SeatView  # noqa: E402

# The fixtures server, browser and page are tests/conftest.py's.


def click_play(page, p: dict) -> int:
    """Choose the legal play ``p`` by clicking: its cards in the hand, then the answers, then Play.

    Returns the number of questions answered."""
    if p["kind"] == "PASS":
        page.click("#pass-btn")
        return 0
    for card in p["cards"]:
        page.locator(f'#hand .card[data-card="{card}"]:not(.selected)').first.click()
    answers = dict(p["choices"])
    for asked in range(10):
        if page.locator("#confirm-play").is_visible():
            assert page.inner_text("#confirm-play") == f"Play: {p['text']}"
            page.click("#confirm-play")
            return asked
        question = page.locator("#choices .question").first
        if question.count() == 0:  # plays alike in every answer: listed by their text
            page.locator("#choices button.choice").get_by_text(p["text"], exact=True).click()
            return asked
        label = question.locator("span").first.inner_text().rstrip(":")
        question.locator("button.choice").get_by_text(answers[label], exact=True).click()
    raise AssertionError(f"could not choose {p['text']!r} by clicking")


def test_play_whole_game_by_clicking(server, page):
    seed, players, human = 11, 3, 1
    open_page(page, server)
    page.select_option("#play-players", str(players))
    page.select_option("#play-seat", str(human))
    page.fill("#play-rounds", "1")
    page.fill("#play-seed", str(seed))
    for s in (0, 2):
        page.fill(f"#play-agent-{s}", "random")
    page.click("#start-play")
    page.fill("#pace", "0")
    rng = np.random.default_rng(0)
    chosen: list[dict] = []
    shots = asked = 0
    while True:
        st = wait_settled(page)
        if st["game_over"]:
            break
        legal = st["legal"]
        melds = [p for p in legal if p["kind"] != "PASS"]
        # prefer plays with several cards, so that the step-by-step questions are exercised
        multi = [p for p in melds if len(p["cards"]) > 1]
        pool = multi if multi and rng.random() < 0.7 else (melds or legal)
        p = pool[int(rng.integers(len(pool)))]
        if shots == 0 and p["kind"] != "PASS":
            page.locator(f'#hand .card[data-card="{p["cards"][0]}"]').first.click()
            shot(page, "play-1280")
            page.set_viewport_size(PHONE)
            shot(page, "play-phone")
            page.set_viewport_size(DESKTOP)
            page.click("#clear-btn")
            shots += 1
        if len(chosen) == 2:  # a reload keeps the game
            page.reload()
            st2 = wait_settled(page)
            assert st2["id"] == st["id"] and st2["move"] == st["move"]
        asked += click_play(page, p)
        chosen.append(p["play"])
        page.wait_for_function(f"() => window.__seers.state.move > {st['move']}")
    shot(page, "play-over-1280")
    # the same game in the engine: same seed, same agents and seeds, the plays clicked
    game = Game(GameConfig(n_players=players, n_rounds=1, artifact_deck=DEFAULT_ARTIFACT_DECK), seed=seed)
    agents = {s: make_agent("random", seed=agent_seed(seed, s)) for s in range(players) if s != human}
    mine = iter(chosen)
    while not game.game_over:
        seat = game.current
        game.apply(Play.from_dict(next(mine)) if seat == human else agents[seat].act(SeatView(game, seat)))
    assert next(mine, None) is None
    totals = [score(page.inner_text(f'#scores tr.totals th[data-seat="{s}"]')) for s in range(players)]
    assert totals == game.totals == st["totals"]
    assert "Game over" in page.inner_text("#gameover")
    history = page.inner_text("#history")  # as people write it: no Python lists, quoted names or player_N
    assert not re.search(r"[\[\]]|'player", history) and "player_" not in history, history
    assert re.search(r"^Round 1 ends; scores: (\u2212?\d+, ){2}\u2212?\d+$", history, re.M), history
    assert re.search(r"^Game over; totals: .*; winners?: player \d \((random|you)\)", history, re.M), history
    assert len(chosen) >= 3
    assert asked >= 1  # some plays needed step-by-step answers (meld, wilds, artifact, value)


def test_watch_pause_step_and_hands(server, page):
    open_page(page, server)
    page.click("#tab-watch")
    page.select_option("#watch-players", "4")
    page.fill("#watch-rounds", "1")
    page.fill("#watch-seed", "5")
    page.click("#start-watch")
    page.fill("#pace", "100")
    page.wait_for_function("() => window.__seers.state && window.__seers.state.move >= 3")
    page.click("#pause")
    page.wait_for_function("() => !window.__seers.busy && !window.__seers.timer")
    before = state(page)["move"]
    page.wait_for_timeout(300)
    assert state(page)["move"] == before  # paused: no agent plays
    page.click("#step")
    page.wait_for_function(f"() => window.__seers.state.move === {before + 1} && !window.__seers.busy")
    st = state(page)
    assert len(st["hands"]) == 4  # "Show hands" is on
    assert page.locator("#seats .seat .card").count() == sum(st["hand_sizes"])
    cards = page.evaluate("window.__seers.meta.cards")
    artifacts = page.locator("#seats .seat .card.artifact")
    assert artifacts.count() > 0
    for i in range(artifacts.count()):  # other seats' artifacts show their names, the abbreviation as tooltip
        card = artifacts.nth(i)
        name = cards[int(card.get_attribute("data-card"))]["name"]
        assert card.inner_text().strip() == name and name in card.get_attribute("title")
    shot(page, "watch-1280")
    page.set_viewport_size(PHONE)
    shot(page, "watch-phone")
    page.uncheck("#show-hands")
    page.wait_for_function("() => Object.keys(window.__seers.state.hands).length === 0")
    assert page.locator("#seats .seat .card").count() == 0
    # an unknown game id in the address: a clear message on the page
    open_page(page, f"{server}/#/game/nosuchgame")
    page.wait_for_selector("#error:not([hidden])")
    assert "no game with id 'nosuchgame'" in page.inner_text("#error")
    assert page.locator("#setup-watch").is_visible() and not page.locator("#board").is_visible()


def test_replay_saved_file(server, page, tmp_path):
    seed = 21
    game = Game(GameConfig(n_players=4, n_rounds=1), seed=seed)
    agents = [make_agent("heuristic", seed=s) for s in range(4)]
    while not game.game_over:
        game.apply(agents[game.current].act(SeatView(game, game.current)))
    path = tmp_path / "saved.json"
    save_log(game, path, ["heuristic"] * 4)
    n = sum(1 for e in game.events if e["event"] == "play")
    open_page(page, server)
    page.click("#tab-replay")
    page.set_input_files("#replay-file", str(path))
    page.click("#replay-open")
    page.wait_for_function("() => window.__seers.state && window.__seers.state.mode === 'replay'")
    assert state(page)["steps"] == n and state(page)["step"] == 0
    for k in range(1, 4):
        page.click("#rp-next")
        page.wait_for_function(f"() => window.__seers.state.step === {k}")
    page.click("#rp-prev")
    page.wait_for_function("() => window.__seers.state.step === 2")
    page.keyboard.press("ArrowRight")
    page.wait_for_function("() => window.__seers.state.step === 3")
    page.keyboard.press("ArrowLeft")
    page.wait_for_function("() => window.__seers.state.step === 2")
    mid = Game.replay(game.log(), upto=2)
    assert state(page)["hand_sizes"] == mid.hand_sizes()
    shot(page, "replay-1280")
    page.set_viewport_size(PHONE)
    shot(page, "replay-phone")
    page.set_viewport_size(DESKTOP)
    page.click("#rp-last")
    page.wait_for_function(f"() => window.__seers.state.step === {n}")
    totals = [score(page.inner_text(f'#scores tr.totals th[data-seat="{s}"]')) for s in range(4)]
    assert totals == game.totals
    # a malformed file: a clear message, and the replay shown stays as it was
    bad = tmp_path / "bad.json"
    bad.write_text('{"config": {"n_players": 9}}')
    page.set_input_files("#replay-file", str(bad))
    page.click("#tab-replay")
    page.set_input_files("#replay-file", str(bad))
    page.click("#replay-open")
    page.wait_for_selector("#error:not([hidden])")
    assert "not a game log" in page.inner_text("#error")


def test_replay_a_tournament_game(server, page, tmp_path):
    from agents.tournament import run_tournament

    result = run_tournament(["random", "greedy", "random"], games=1, seed=3, workers=1, n_rounds=1,
                            progress=False)
    path = tmp_path / "tournament.json"
    result.to_json(path)
    open_page(page, server)
    page.click("#tab-replay")
    page.set_input_files("#replay-file", str(path))
    page.click("#replay-open")
    page.wait_for_function("() => window.__seers.state && window.__seers.state.mode === 'replay'")
    assert page.locator("#rp-game option").count() == 3
    page.select_option("#rp-game", "2")
    page.wait_for_function("() => window.__seers.state.source.game === 2")
    page.click("#rp-last")
    page.wait_for_function("() => window.__seers.state.step === window.__seers.state.steps")
    totals = [score(page.inner_text(f'#scores tr.totals th[data-seat="{s}"]')) for s in range(3)]
    assert totals == result.games[2]["totals"]
    shot(page, "replay-tournament-1280")


def narrow(cands: list[dict], answers: dict[str, str]) -> tuple[list[dict], str | None]:
    """The page's narrowing of the plays of the selected cards: the plays agreeing with ``answers`` and
    the next question that tells the rest apart (questions in the order of the plays' choices)."""
    def answer(p, q):
        return dict(p["choices"]).get(q, "")

    done: set[str] = set()
    while True:
        order = list(dict.fromkeys(q for p in cands for q, _ in p["choices"]))
        q = next((q for q in order if q not in done and len({answer(p, q) for p in cands}) > 1), None)
        if q is None:
            return cands, None
        done.add(q)
        if answers.get(q) not in {answer(p, q) for p in cands}:
            return cands, q
        cands = [p for p in cands if answer(p, q) == answers[q]]


def marks(page) -> list[str]:
    """Per card of the hand: "selected", "playable", "unplayable" or "" (the page's classes)."""
    return page.evaluate("""() => [...document.querySelectorAll('#hand .card')].map((c) =>
        ['selected', 'playable', 'unplayable'].find((k) => c.classList.contains(k)) || '')""")


def test_playable_cards_are_marked_and_counts_follow_the_answers(server, page):
    open_page(page, server)
    page.select_option("#play-players", "3")
    page.select_option("#play-seat", "0")
    page.fill("#play-rounds", "1")
    page.fill("#play-seed", "1")
    for s in (1, 2):
        page.fill(f"#play-agent-{s}", "random")
    page.click("#start-play")
    page.fill("#pace", "0")
    st = wait_settled(page)
    hand = st["hands"]["0"]
    melds = [p for p in st["legal"] if p["kind"] != "PASS"]
    used = {c for p in melds for c in p["cards"]}
    assert marks(page) == ["playable" if c in used else "unplayable" for c in hand]
    assert "unplayable" in marks(page) and "Dimmed cards are in no legal play" in page.inner_text("#selection-info")
    # cards whose plays need a question about wilds, with several plays
    groups: dict[tuple, list[dict]] = {}
    for p in melds:
        groups.setdefault(tuple(sorted(p["cards"])), []).append(p)
    cards, plays = max(((k, v) for k, v in groups.items() if len(v) >= 3 and 60 in k), key=lambda kv: len(kv[1]))
    # the first card selected: only the cards that complete a play with it stay bright
    first = page.locator(f'#hand .card[data-card="{cards[0]}"]').first
    first.click()
    pos = int(first.get_attribute("data-pos"))
    completing = set()
    for p in melds:
        if cards[0] in p["cards"]:
            others = list(p["cards"])
            others.remove(cards[0])  # one copy: a play of two wilds, one selected, leaves a wild
            completing.update(others)
    expected = ["selected" if i == pos else "playable" if c in completing else "unplayable" for i, c in enumerate(hand)]
    assert marks(page) == expected and "playable" in expected
    assert expected.count("unplayable") > ["playable" if c in used else "unplayable" for c in hand].count("unplayable")
    for c in cards[1:]:
        page.locator(f'#hand .card[data-card="{c}"]:not(.selected)').first.click()
    target = plays[-1]
    answers: dict[str, str] = {}
    counts = []
    for _ in range(10):
        left, question = narrow(plays, answers)
        info = page.inner_text("#selection-info")
        m = re.match(r"(\d+) legal plays? uses? these cards", info)
        assert m and int(m.group(1)) == len(left), (info, len(left))
        assert ("and your answer" in info) == bool(answers)
        counts.append(len(left))
        if question is None:
            break
        answers[question] = dict(target["choices"])[question]
        page.locator("#choices .question button.choice").get_by_text(answers[question], exact=True).click()
    assert "Wilds stand for" in answers and counts[-1] == 1 and counts[0] > counts[1]
    assert page.inner_text("#confirm-play") == f"Play: {target['text']}"
    page.click("#confirm-play")
    page.wait_for_function(f"() => window.__seers.state.move > {st['move']}")
