"""Seals on the ``seers serve`` page in a real browser: headless Chromium driven by Playwright.

The server, browser and page fixtures are tests/conftest.py's (helpers in tests/web_pages.py): the browser
is found as for the other pages (``$SEERS_CHROMIUM``, else ``chromium`` or ``chromium-browser`` on ``PATH``) and the module is
skipped, saying why, where there is none. The tests choose Seals in the page's game chooser, take by colour
and by symbol by clicking (only the takes of the server's legal mask are clickable) and declare, until a
round ends, and check the result against the engine; watch agents with pause and step to the end of the
game; and replay a saved Seals log. Screenshots go to ``$SEERS_TEST_ARTIFACTS`` (default
``test-artifacts/``) in ``web/``.
"""

from __future__ import annotations

import json

import numpy as np

from web_pages import DESKTOP, PHONE, require_browser, score, shot, state, wait_settled  # noqa: F401

CHROMIUM = require_browser()  # skips the module, saying why, without the web extra or a browser

from agents import make_agent  # noqa: E402
from seers_env.seals.game import SealsConfig, SealsGame  # noqa: E402
from seers_env.seals.view import SealsSeatView  # noqa: E402
from seers_env.seeding import child_seed  # noqa: E402


def open_seals(page, url: str) -> None:
    """Load the page, wait until it has started, and choose Seals in the game chooser."""
    page.goto(url)
    page.wait_for_function("() => window.__seers && window.__seers.ready")
    page.select_option("#game-choice", "seals")
    assert page.inner_text("#title") == "Seals" and not page.locator("#play-artifacts").is_visible()


def clickable_actions(page, selector: str) -> list[int]:
    return sorted(set(page.evaluate(f"""() => [...document.querySelectorAll('{selector}')].map((e) =>
        Number(e.dataset.action))""")))


def test_play_seals_by_clicking_until_a_round_ends(server, page):
    seed, human, players = 21, 0, 3
    open_seals(page, server)
    assert page.evaluate("() => [...document.querySelectorAll('#play-players option')]"
                         ".filter((o) => !o.disabled).map((o) => o.value)") == ["2", "3", "4"]  # Seals: 2..4
    page.select_option("#play-players", str(players))
    page.select_option("#play-seat", str(human))
    page.fill("#play-seed", str(seed))
    for s in range(1, players):
        page.fill(f"#play-agent-{s}", "random")
    page.click("#start-play")
    page.fill("#pace", "0")
    # the person plays as the greedy agent would; the same game runs in the engine alongside, with the
    # agents seeded as the server seeds them, and every state the page holds is the engine's
    game = SealsGame(SealsConfig(n_players=players), seed=seed)
    agents = {s: make_agent("random", seed=child_seed(seed, s), game="seals") for s in range(1, players)}
    me = make_agent("greedy", seed=0, game="seals")

    def catch_up(move: int) -> None:
        while sum(e["event"] == "play" for e in game.events) < move:
            game.apply(agents[game.current].act(SealsSeatView(game, game.current)))

    clicked = {"button": 0, "card": 0, "declare": 0}
    while True:
        st = wait_settled(page)
        catch_up(st["move"])
        assert [c["card"] for c in st["row"]] == game.row and st["pile_size"] == game.pile_size
        assert [[c["card"] for c in st["hands"][str(s)]] for s in range(players)] == game.hands
        if st["round_scores"] or st["game_over"]:
            break
        assert page.locator("#seals-seats .lcard").count() == sum(st["hand_sizes"])  # every hand shown
        assert st["current"] == human and st["actions"] == np.flatnonzero(game.legal_mask()).tolist()
        play = me.act(SealsSeatView(game, human))
        p = next(x for x in st["legal"] if x["play"] == play.to_list())
        if st["stage"] == 0:
            # only the legal takes (the engine's mask) can be clicked, as buttons and on the row's cards
            assert clickable_actions(page, "#seals-row-box button.take") == st["actions"]
            assert clickable_actions(page, "#seals-row .clickable") == st["actions"]
            if sum(clicked.values()) % 2:
                page.click(f"#seals-take-{p['action']}")
                clicked["button"] += 1
            else:
                page.click(f"#seals-row .clickable[data-action=\"{p['action']}\"]")
                clicked["card"] += 1
        else:
            assert clickable_actions(page, "#seals-row .clickable") == []  # no take in the declaration stage
            assert page.locator("#seals-declare-box button").count() == len(st["legal"])
            shot(page, "seals-declare-1280")
            page.click(f"#seals-declare-{p['value']}")
            clicked["declare"] += 1
        game.apply(play)
        page.wait_for_function(f"() => window.__seers.state.move > {st['move']}")
    shot(page, "seals-round-over-1280")
    assert clicked["button"] and clicked["card"] and clicked["declare"] == 1
    assert st["round_scores"] == game.round_scores and game.round_winners == [human]
    totals = [score(page.inner_text(f'#scores tr.totals th[data-seat="{s}"]')) for s in range(players)]
    assert totals == game.totals
    assert page.inner_text("#seals-last-round h3").startswith("Round 1 ended: ")
    assert "Round 1 ends: " in page.inner_text("#history")
    assert len(page.locator("#seals-row .lcard").all()) == len(game.row)
    assert page.inner_text("#status-line").startswith("Seals \u00B7 round 2")
    page.set_viewport_size(PHONE)
    shot(page, "seals-play-phone")
    page.set_viewport_size(DESKTOP)


def test_watch_seals_pause_step_and_the_end(server, page):
    page.goto(f"{server}/?game=seals")  # as seers serve --game seals opens it
    page.wait_for_function("() => window.__seers && window.__seers.ready")
    assert page.inner_text("#title") == "Seals" and page.input_value("#game-choice") == "seals"
    page.click("#tab-watch")
    page.select_option("#watch-players", "2")
    page.fill("#watch-seed", "5")
    page.fill("#watch-agent-0", "heuristic")
    page.fill("#watch-agent-1", "greedy")
    page.click("#start-watch")
    page.fill("#pace", "100")
    page.wait_for_function("() => window.__seers.state && window.__seers.state.move >= 4")
    page.click("#pause")
    page.wait_for_function("() => !window.__seers.busy && !window.__seers.timer")
    before = state(page)["move"]
    page.wait_for_timeout(300)
    assert state(page)["move"] == before
    page.click("#step")
    page.wait_for_function(f"() => window.__seers.state.move === {before + 1} && !window.__seers.busy")
    st = state(page)
    assert page.locator("#seals-seats .lcard").count() == sum(st["hand_sizes"])  # every hand is public
    assert page.locator("#seals-row .lcard").count() == len(st["row"])
    assert page.locator("#seals-row-box button.take, #seals-row .clickable").count() == 0  # nobody to click for
    assert f"draw pile: {st['pile_size']} cards left" in page.inner_text("#seals-row-box h3")
    assert not page.locator("#show-hands").is_visible() and not page.locator("#download").is_visible()
    shot(page, "seals-watch-1280")
    page.fill("#pace", "0")
    page.click("#pause")  # resume, to the end of the game
    page.wait_for_function("() => window.__seers.state.game_over", timeout=120000)
    st = state(page)
    engine = SealsGame(SealsConfig(n_players=2), seed=5)
    agents = [make_agent(s, seed=child_seed(5, i), game="seals") for i, s in enumerate(["heuristic", "greedy"])]
    while not engine.game_over:
        engine.apply(agents[engine.current].act(SealsSeatView(engine, engine.current)))
    assert st["totals"] == engine.totals
    assert "Game over" in page.inner_text("#gameover") and page.locator("#download").is_visible()
    totals = [score(page.inner_text(f'#scores tr.totals th[data-seat="{s}"]')) for s in range(2)]
    assert totals == engine.totals
    shot(page, "seals-watch-over-1280")


def test_replay_a_saved_seals_log(server, page, tmp_path):
    game = SealsGame(SealsConfig(n_players=3), seed=8)
    agents = [make_agent("heuristic", seed=s, game="seals") for s in range(3)]
    while not game.game_over:
        game.apply(agents[game.current].act(SealsSeatView(game, game.current)))
    log = game.log()
    log["agents"] = ["heuristic"] * 3
    path = tmp_path / "seals.json"
    path.write_text(json.dumps(log))
    n = sum(1 for e in game.events if e["event"] == "play")
    open_seals(page, server)
    page.click("#tab-replay")
    page.set_input_files("#replay-file", str(path))
    page.click("#replay-open")
    page.wait_for_function("() => window.__seers.state && window.__seers.state.mode === 'replay'")
    assert state(page)["steps"] == n and state(page)["game"] == "seals"
    for k in range(1, 6):
        page.click("#rp-next")
        page.wait_for_function(f"() => window.__seers.state.step === {k}")
    page.click("#rp-prev")
    page.wait_for_function("() => window.__seers.state.step === 4")
    mid = SealsGame.replay(log, upto=4)
    assert page.locator("#seals-seats .lcard").count() == sum(mid.hand_sizes())
    row = page.eval_on_selector_all("#seals-row .lcard", "es => es.map((e) => Number(e.dataset.card))")
    assert row == mid.row
    shot(page, "seals-replay-1280")
    page.click("#rp-last")
    page.wait_for_function(f"() => window.__seers.state.step === {n}")
    totals = [score(page.inner_text(f'#scores tr.totals th[data-seat="{s}"]')) for s in range(3)]
    assert totals == game.totals
    log["events"][0]["pile"].reverse()  # an edited log: a clear message
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(log))
    page.click("#tab-replay")
    page.set_input_files("#replay-file", str(bad))
    page.click("#replay-open")
    page.wait_for_selector("#error:not([hidden])")
    assert "does not replay" in page.inner_text("#error")


def test_the_chooser_switches_back_and_forth(server, page):
    open_seals(page, server)
    page.select_option("#play-players", "4")
    page.select_option("#game-choice", "scout")
    assert page.inner_text("#title") == "SCOUT"
    assert page.evaluate("() => [...document.querySelectorAll('#play-players option')]"
                         ".filter((o) => !o.disabled).length") == 4  # SCOUT: 2..5
    page.select_option("#game-choice", "seals")
    assert page.input_value("#play-rounds") == ""
    assert page.get_attribute("#play-rounds", "placeholder") == "5 (round counter)"
