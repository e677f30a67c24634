"""Hostile-review tests for Haggis and Seals: damaged saved games and logs (rules ``shared/rules/haggis.md``,
``shared/rules/seals.md``). Each test failed before its fix (``docs/breakit_haggis_seals.md``)."""

from __future__ import annotations

import copy

import pytest

from seers_env.haggis.game import HaggisConfig, HaggisGame
from seers_env.seals.game import SealsConfig, SealsGame


# --- Haggis helpers ---------------------------------------------------------------------------------------

def _haggis_until(cond, n: int = 3, seed: int = 1, **cfg) -> HaggisGame:
    """Seat ``s`` bets ``(0, 15, 30)[s % 3]`` and plays its first combination (or passes) until
    ``cond(game)`` (or the end)."""
    g = HaggisGame(HaggisConfig(n_players=n, **cfg), seed=seed)
    while not g.game_over and not cond(g):
        plays = g.legal_plays()
        g.apply(plays[g.current % 3] if g.phase == "bet" else plays[min(1, len(plays) - 1)])
    return g


def _refused(d, match: str, exc=ValueError, cls=HaggisGame):
    before = copy.deepcopy(d)
    with pytest.raises(exc, match=match):
        cls.from_dict(d)
    assert d == before


def _mid_trick() -> HaggisGame:
    """A 3-player round in progress: every bet decided, an open trick, nobody out yet."""
    g = _haggis_until(lambda g: len(g.trick) >= 2 and g.passes == 1 and all(b is not None for b in g.bets))
    assert g.out == [] and g.round == 0 and not g.game_over
    return g


def _first_out() -> HaggisGame:
    """A 3-player round in progress just after the first player went out."""
    return _haggis_until(lambda g: len(g.out) == 1)


def test_haggis_saved_game_marked_over_before_the_target_is_refused():
    """Section 9: the game ends when one player alone reaches the target. A save marked over after one
    round with totals far below 350 loaded and named a winner."""
    g = _haggis_until(lambda g: False, n_rounds=1)
    d = g.to_dict()
    d["config"]["n_rounds"] = None
    assert max(g.totals) < 350
    _refused(d, "has not ended")


def test_haggis_saved_game_past_its_end_but_not_over_is_refused():
    """A save whose totals already end the game (a unique 400 >= 350), or whose fixed length is played, yet
    marked in progress, loaded and kept dealing rounds."""
    g = _haggis_until(lambda g: g.round == 1)
    d = copy.deepcopy(g.to_dict())
    d["round_scores"] = [[400, 0, 0]]
    _refused(d, "the game has ended")
    d = g.to_dict()
    d["config"]["n_rounds"] = 1
    _refused(d, "the game has ended")


def test_haggis_capped_must_match_the_round_cap():
    g = _haggis_until(lambda g: g.round == 1)
    d = g.to_dict()
    d["capped"] = True
    _refused(d, "capped")
    over = _haggis_until(lambda g: False, n_rounds=1).to_dict()
    over["capped"] = True
    _refused(over, "capped")


def test_haggis_finished_game_with_cards_in_the_haggis_is_refused():
    """Section 8: the Haggis goes to the first player out at the end of the round."""
    g = _haggis_until(lambda g: False, n_rounds=1)
    d = g.to_dict()
    first = d["captured"][d["out"][0]]
    c = min(first)  # a number card (face cards have the highest ids)
    first.remove(c)
    d["haggis"] = [c]
    _refused(d, "haggis")


def test_haggis_finished_game_last_round_score_must_add_up():
    """Sections 6 to 8: a round's score is going out + captured card points + bet points."""
    d = _haggis_until(lambda g: False, n_rounds=1).to_dict()
    d["round_scores"][-1][2] += 50
    _refused(d, "round_scores")


def test_haggis_bet_and_going_out_points_before_anyone_went_out_are_refused():
    """Sections 6, 7 [ruling]: going-out points go to seats out; bets resolve when the first goes out."""
    d = _mid_trick().to_dict()
    assert d["out"] == []
    _refused({**d, "bet_points": [30, 0, 0]}, "bet_points")
    _refused({**d, "going_out": [20, 0, 0]}, "going_out")


def test_haggis_resolved_bet_points_must_match_the_bets():
    g = _first_out()
    d = g.to_dict()
    assert HaggisGame.from_dict(d).bet_points == g.bet_points
    d["bet_points"] = d["bet_points"][1:] + d["bet_points"][:1]
    assert d["bet_points"] != g.bet_points
    _refused(d, "bet_points")


def test_haggis_going_out_points_must_be_five_per_card_for_seats_out():
    d = _first_out().to_dict()
    s = d["out"][0]
    d["going_out"][s] -= 3
    _refused(d, "going_out")


def test_haggis_float_bet_is_a_type_error():
    """``bets=[15.0, ...]`` loaded (15.0 in (0, 15, 30)) and stored a float."""
    d = _mid_trick().to_dict()
    d["bets"][0] = float(d["bets"][0])
    _refused(d, r"bets\[0\]", TypeError)


@pytest.mark.parametrize("fmt", [True, 1.0])
def test_haggis_format_must_be_the_integer_1(fmt):
    d = _mid_trick().to_dict()
    _refused({**d, "format": fmt}, "format")


def test_haggis_origin_is_checked_on_load():
    """A junk ``origin`` loaded, and the game's log then failed to replay."""
    d = _mid_trick().to_dict()
    _refused({**d, "origin": {"junk": 1}}, "origin")


def test_haggis_deeply_nested_events_are_a_value_error():
    d = _mid_trick().to_dict()
    deep: list = []
    for _ in range(100000):
        deep = [deep]
    with pytest.raises(ValueError, match="nest"):
        HaggisGame.from_dict({**d, "events": [{"event": "x", "data": deep}]})


def test_haggis_current_must_follow_the_trick():
    """Section 3: after a combination the next holder clockwise acts, then each one after a pass. A save
    naming another seat to act loaded and let it play out of turn."""
    g = _mid_trick()
    d = g.to_dict()
    wrong = [s for s in range(3) if s != d["current"] and d["hands"][s]][0]
    d["current"] = wrong
    _refused(d, "current")


def test_haggis_finished_game_must_have_a_last_trick_winner():
    """The last round's last trick was won (the round ends on a play); ``-1`` then made the next-leader rule
    read seat 0 as 'left of the winner'."""
    d = _haggis_until(lambda g: False, n_rounds=1).to_dict()
    d["last_trick_winner"] = -1
    _refused(d, "last_trick_winner")


def test_haggis_replay_of_a_play_after_the_end_is_a_value_error():
    g = _haggis_until(lambda g: False, n_rounds=1)
    log = g.log()
    log["events"].append({"event": "play", "round": 0, "seat": 0, "play": [0, [], 0, 0]})
    with pytest.raises(ValueError, match="after the end"):
        HaggisGame.replay(log)


def test_haggis_replay_of_tampered_round_scores_is_refused():
    """A log whose ``round_end`` scores were edited replayed silently to other scores."""
    g = _haggis_until(lambda g: False, n_rounds=1)
    log = g.log()
    ends = [e for e in log["events"] if e["event"] == "round_end"]
    ends[0]["scores"][0] += 100
    with pytest.raises(ValueError, match="round_end"):
        HaggisGame.replay(log)


def test_haggis_sound_saves_still_load():
    for g in (_mid_trick(), _first_out(), _haggis_until(lambda g: False, n_rounds=2),
              _haggis_until(lambda g: g.round == 2), _haggis_until(lambda g: False, n=2, n_rounds=1)):
        h = HaggisGame.from_dict(g.to_dict())
        assert h.to_dict() == g.to_dict()
        assert HaggisGame.replay(g.log()).to_dict() == g.to_dict()


# --- Seals ---------------------------------------------------------------------------------------------------

def _seals(takes: int = 7, seed: int = 1) -> SealsGame:
    g = SealsGame(SealsConfig(n_players=3), seed=seed)
    for _ in range(takes):
        g.apply(g.legal_plays()[0])
    return g


@pytest.mark.parametrize("fmt", [True, 1.0])
def test_seals_format_must_be_the_integer_1(fmt):
    d = _seals().to_dict()
    _refused({**d, "format": fmt}, "format", cls=SealsGame)


def test_seals_turns_must_agree_with_the_cards_taken():
    """Section 3.2: each take moves at least one face-up card into a hand. 40 takes that moved 11 cards
    loaded (and ``turns`` feeds the truncation cap)."""
    d = _seals().to_dict()
    assert sum(map(len, d["hands"])) == 11 and d["turns"] == 7
    _refused({**d, "turns": 40}, "turns", cls=SealsGame)


def test_seals_a_round_after_the_game_ended_is_refused():
    """Section 6: a seat with 5 Marks wins at once. A save with 6 Marks after round 1 and a second round
    played loaded."""
    g = _seals(0)
    while g.round < 2:
        g.apply(g.legal_plays()[-1])
    d = g.to_dict()
    d.update(round_scores=[[6, 0, 0], [0, 0, 0]], round_end_reasons=["declared", "exhausted"], game_over=True,
             phase="over", round=1, counter=3)
    _refused(d, "ended after round 1", cls=SealsGame)


def test_seals_round_marks_above_any_declaration_are_refused():
    """Section 4: one declaration scores at most 22 Marks (a run, four Coins and ten four-of-a-kinds)."""
    g = _seals(0)
    while not g.game_over:
        g.apply(g.legal_plays()[-1])
    d = g.to_dict()
    r = len(d["round_scores"]) - 1
    w = g.round_winners[-1]
    assert w >= 0
    d["round_scores"][r][w] = 10**6
    _refused(d, "Marks", cls=SealsGame)


def test_seals_finished_tie_break_must_mark_the_tied_seats():
    """Section 6: only the seats tied for most Marks play a tie-break round. A finished game after a
    tie-break loaded with any two seats marked as the ones playing, and with a sitter-out scoring in it."""
    d = _seals(0).to_dict()
    d.update(config={**d["config"], "n_rounds": 2, "max_tie_break_rounds": 1}, round=2,
             round_scores=[[1, 0, 0], [0, 1, 0], [0, 0, 0]], round_end_reasons=["declared", "declared", "exhausted"],
             counter=0, tie_breaks=1, playing=[True, True, False], current=0, start_player=0, game_over=True,
             phase="over")
    assert SealsGame.from_dict(d).winners() == [0, 1]
    _refused({**d, "playing": [True, False, True]}, "playing", cls=SealsGame)
    _refused({**d, "round_scores": [[1, 0, 0], [0, 1, 0], [0, 0, 1]],
              "round_end_reasons": ["declared", "declared", "declared"]}, "tie-break", cls=SealsGame)


def test_seals_replay_of_tampered_round_scores_is_refused():
    g = _seals(0)
    while g.round < 1:
        g.apply(g.legal_plays()[-1])
    log = g.log()
    ends = [e for e in log["events"] if e["event"] == "round_end"]
    ends[0]["scores"][0] += 3
    with pytest.raises(ValueError, match="round_end"):
        SealsGame.replay(log)


def test_seals_sound_saves_still_load():
    for takes in (0, 3, 7, 30):
        g = _seals(takes)
        assert SealsGame.from_dict(g.to_dict()).to_dict() == g.to_dict()
        assert SealsGame.replay(g.log()).to_dict() == g.to_dict()


# --- environments ---------------------------------------------------------------------------------------------

def test_haggis_failed_reset_leaves_the_generator_alone():
    """A ``reset(seed=5, options={"game": <damaged>})`` that raised had already reseeded the environment, so
    the next ``reset()`` dealt another game than without the failed call."""
    from seers_env import haggis_v0

    def next_deal(fail: bool):
        env = haggis_v0.env()
        env.reset(seed=1)
        if fail:
            with pytest.raises(ValueError):
                env.reset(seed=5, options={"game": {"format": 1}})
        env.reset()
        return env.unwrapped.game.hands

    assert next_deal(True) == next_deal(False)


@pytest.mark.parametrize("name", ["haggis", "seals"])
def test_initial_rng_state_is_a_copy_and_clones_do_not_share_it(name):
    """``game.initial_rng_state`` was the game's own dict, shared with every clone: editing a clone's (or
    the returned one) changed the original's saved game and log."""
    def fresh():
        return HaggisGame(HaggisConfig(), seed=1) if name == "haggis" else SealsGame(SealsConfig(), seed=1)

    g = fresh()
    before = g.to_dict()
    g.clone().initial_rng_state["state"]["state"] = 12345
    g.initial_rng_state["state"]["state"] = 1
    assert g.to_dict() == before
    assert type(g).replay(g.log()).to_dict() == before
