"""The SCOUT play-scoring features (seers_env.scout.features) mean what their layout says: each row is
checked against the engine applying that play to a copy of the game."""

from __future__ import annotations

import numpy as np
import pytest

from scout_policies import random_states
from seers_env.scout import ScoutConfig, ScoutGame, ScoutPlay, ScoutSeatView
from seers_env.scout.features import (
    HAND_SUMMARY_DIM, PLAY_DIM, PLAY_LAYOUT, PLAY_OFFSETS, STATE_DIM, STATE_LAYOUT, STATE_OFFSETS, encode_plays,
    encode_state, hand_summary, hand_summary_counts,
)
from seers_env.scout.moves import set_key
from seers_env.scout.observation import OBS_DIM, observe
from seers_env.scout.plays import KEEP, ROTATE, SCOUT, SCOUT_SHOW, SHOW, STOP
from scout_positions import Picker

P, S = PLAY_OFFSETS, STATE_OFFSETS


def _part(vec, offsets, layout, name):
    length = dict((n, ln) for n, _, ln in layout)[name]
    return vec[offsets[name]:offsets[name] + length]


def test_layouts_are_contiguous_and_documented_sizes():
    for layout, dim in ((STATE_LAYOUT, STATE_DIM), (PLAY_LAYOUT, PLAY_DIM)):
        offset = 0
        for name, off, length in layout:
            assert off == offset and length >= 1
            offset += length
        assert offset == dim and len({n for n, _, _ in layout}) == len(layout)
    assert STATE_LAYOUT[0] == ("observation", 0, OBS_DIM)
    assert (STATE_DIM, PLAY_DIM) == (875, 40)


def test_hand_summary_counts_examples():
    # 1-2-3 | 3-3 | 7: three segments; the strongest is the set 3-3-3
    assert hand_summary_counts([1, 2, 3, 3, 3, 7]) == (6, 3, 3, 3, 4, 2, 1, 3, 1, 3)
    assert hand_summary_counts([5]) == (1, 1, 1, 0, 0, 0, 1, 1, 1, 5)
    assert hand_summary_counts([]) == (0,) * HAND_SUMMARY_DIM
    assert hand_summary_counts([9, 8, 7, 6, 2]) == (5, 2, 1, 4, 3, 2, 1, 4, 0, 6)
    assert hand_summary([1, 2, 3, 3, 3, 7])[:2] == [6 / 11, 3 / 11]


def test_rows_of_a_hand_made_position():
    pick = Picker(4)
    hand = pick.hand([3, 4, 5, 9])
    six = pick.face(6, 10)
    game = ScoutGame.from_position(ScoutConfig(n_players=4), hands=[hand] + [pick.filler_hand(6) for _ in range(3)],
                                   active=[six], active_owner=1, current=0)
    view = ScoutSeatView(game, 0)
    legal = game.legal_plays()
    rows = encode_plays(view)
    row = {p: r for p, r in zip(legal, rows)}
    run = row[ScoutPlay.show(0, 3)]  # 3-4-5 beats the 6
    assert _part(run, P, PLAY_LAYOUT, "kind").tolist() == [0, 0, 1, 0, 0, 0]
    np.testing.assert_allclose([run[P["show_length"]], run[P["show_low"]], run[P["show_margin"]],
                                run[P["collected"]], run[P["shed"]]], [0.3, 0.3, 0.2, 0.1, 0.3], rtol=1e-6)
    assert _part(run, P, PLAY_LAYOUT, "show_type").tolist() == [0, 1] and run[P["goes_out"]] == 0
    scout = row[ScoutPlay.scout(0, 1, 2)]  # the 6 flipped to 10, into position 2
    assert scout[P["ends_round"]] == 1 and scout[P["owner_chip"]] == 1  # seat 1 owns the set and is next
    np.testing.assert_allclose(_part(scout, P, PLAY_LAYOUT, "scout_card"), [1.0, 0.6])
    np.testing.assert_allclose(scout[P["scout_position"]], 0.5)
    assert not _part(scout, P, PLAY_LAYOUT, "active_after").any()  # scouted down to nothing
    ss = row[ScoutPlay.scout_show(0, 0, 3, 0, 4)]  # 3-4-5-6 after inserting the 6 kept
    assert ss[P["scout_shown"]] == 1 and ss[P["uses_scout_show"]] == 1 and ss[P["collected"]] == 0
    np.testing.assert_allclose([ss[P["scout_joins"]], ss[P["show_start"]]], [0.4, 0.0])
    np.testing.assert_allclose(_part(ss, P, PLAY_LAYOUT, "hand_after"), np.float32(hand_summary([9])))
    state = encode_state(view)
    assert state[S["scout_ends_round"]] == 1
    assert state[S["shows_available"]] * 20 == pytest.approx(sum(p.kind == SHOW for p in legal))


def _check_rows_against_the_engine(game):
    view = ScoutSeatView(game, game.current)
    seat, n = game.current, game.n_players
    legal = game.legal_plays()
    rows = encode_plays(view)
    assert rows.shape == (len(legal), PLAY_DIM) and np.array_equal(rows, encode_plays(view, legal))
    hidden_end = 0
    for play, row in zip(legal, rows):
        assert row[P["kind"] + play.kind] == 1 and row[P["kind"]:P["kind"] + 6].sum() == 1
        g = game.clone()
        pile, owner = len(g.piles[seat]), g.active_owner
        result = g.apply(play)
        ends = bool(row[P["ends_round"]])
        if play.kind in (KEEP, ROTATE):
            assert not result.round_over and not ends
            np.testing.assert_array_equal(_part(row, P, PLAY_LAYOUT, "hand_after"),
                                          np.float32(hand_summary(g.hand_values(seat))))
            continue
        if n > 2:
            assert ends == result.round_over, play  # every round end is known to the seat
        else:
            assert not ends or result.round_over, play
            if result.round_over and not ends:  # only the opponent being stuck is hidden
                assert play.kind == SHOW and result.exempt == seat
                hidden_end += 1
        assert bool(row[P["goes_out"]]) == (result.round_over and result.round_end_reason == "a"
                                            and result.exempt == seat)
        assert row[P["uses_scout_show"]] == (play.kind == SCOUT_SHOW)
        assert row[P["owner_chip"]] == (play.kind in (SCOUT, SCOUT_SHOW) and n > 2)
        if result.round_over:
            continue
        after = g.hand_values(seat)
        np.testing.assert_array_equal(_part(row, P, PLAY_LAYOUT, "hand_after"), np.float32(hand_summary(after)))
        assert row[P["collected"]] == np.float32((len(g.piles[seat]) - pile) / 10)
        assert row[P["chips_after"]] == np.float32(g.chips[seat] / 10)
        assert row[P["shed"]] == np.float32((len(game.hand_faces(seat)) - len(after)) / 10)
        act = g.active_faces()
        shape = [0.0, 0.0, 0.0] if not act else [len(act) / 10, (set_key(act) >> 4) & 1, (set_key(act) & 15) / 10]
        np.testing.assert_array_equal(_part(row, P, PLAY_LAYOUT, "active_after"), np.float32(shape))
        if play.kind in (SHOW, SCOUT_SHOW):
            assert g.active_owner == seat and row[P["show_length"]] == np.float32(play.length / 10)
        else:
            assert g.active_owner == owner
    return hidden_end


@pytest.mark.parametrize("n_players", [2, 3, 4, 5])
def test_every_row_agrees_with_the_engine_applying_its_play(n_players):
    for t, game in enumerate(random_states(n_players, 400, seed=70 + n_players)):
        if t % 2:
            continue
        _check_rows_against_the_engine(game)
        state = encode_state(ScoutSeatView(game, game.current))
        np.testing.assert_array_equal(state[:OBS_DIM], observe(ScoutSeatView(game, game.current)))
        unseen = ScoutSeatView(game, game.current).unseen_cards()
        assert state[S["unseen_count"]] == np.float32(len(unseen) / 45)
        counts = np.round(_part(state, S, STATE_LAYOUT, "unseen_by_number") * 9).astype(int)
        assert counts.sum() == 2 * len(unseen)
        assert state[S["shows_available"]] == np.float32(sum(p.kind == SHOW for p in game.legal_plays()) / 20)


def test_state_and_rows_refuse_a_non_view():
    with pytest.raises(TypeError, match="ScoutSeatView"):
        encode_state(ScoutGame())
    with pytest.raises(TypeError, match="ScoutSeatView"):
        encode_plays(None)
    assert encode_plays(ScoutSeatView(ScoutGame(), 1)).shape == (0, PLAY_DIM)  # not to act: no plays


def test_stop_row_with_the_two_player_flag():
    game = ScoutGame(ScoutConfig(n_players=2, two_player_may_stop=True), seed=0)
    while not (game.phase == "play" and game.active):
        game.apply(game.legal_plays()[0])
    legal = game.legal_plays()
    assert legal[-1].kind == STOP
    row = encode_plays(ScoutSeatView(game, game.current))[-1]
    assert row[P["kind"] + STOP] == 1 and row[P["ends_round"]] == 1
