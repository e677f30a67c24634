"""The SCOUT action catalogue (seers_env.scout.actions): ids, decoding, and masks exact against the
engine's legal plays (rules section 11), with Scout & Show as two stages."""

from __future__ import annotations

import numpy as np
import pytest

from scout_policies import random_states
from scout_positions import Picker
from seers_env.scout import ScoutConfig, ScoutGame, ScoutPlay
from seers_env.scout.actions import (
    H, KEEP_ACTION, N_ACTIONS, N_SHOW, ROTATE_ACTION, SCOUT_BASE, SCOUT_SHOW_BASE, STOP_ACTION, PendingScout,
    ScoutDecision, actions_of_play, check_action, decode_action, describe_action, legal_action_mask,
    play_of_actions, scout_action, scout_show_action, show_action,
)
from seers_env.scout.plays import KEEP_PLAY, ROTATE_PLAY, SCOUT_SHOW, STOP_PLAY


def action_paths(game: ScoutGame) -> list[tuple[tuple[int, ...], ScoutPlay]]:
    """Every action path the masks allow now, with the play it decodes to."""
    out = []
    mask = legal_action_mask(game)
    for a in np.flatnonzero(mask).tolist():
        got = decode_action(a)
        if isinstance(got, PendingScout):
            second = legal_action_mask(game, got)
            assert second.any(), f"stage 1 {got} allowed but no show follows"
            for b in np.flatnonzero(second).tolist():
                out.append(((a, b), decode_action(b, got)))
        else:
            out.append(((a,), got))
    return out


def test_catalogue_layout():
    assert N_ACTIONS == 2396 and H == 45
    assert show_action(0, 1) == 0 and show_action(3, 5) == 3 * H + 4
    assert (KEEP_ACTION, ROTATE_ACTION, SCOUT_BASE, SCOUT_SHOW_BASE, STOP_ACTION) == (2025, 2026, 2027, 2211, 2395)
    assert scout_action(1, 1, H) == SCOUT_SHOW_BASE - 1 and scout_show_action(1, 1, H) == STOP_ACTION - 1
    # every id decodes to something whose path is that id (shows beyond the slots excepted)
    seen = set()
    for a in range(N_ACTIONS):
        s, l1 = divmod(a, H)
        if a < N_SHOW and s + l1 + 1 > H:
            with pytest.raises(ValueError, match="runs past"):
                decode_action(a)
            continue
        got = decode_action(a)
        if isinstance(got, PendingScout):
            assert scout_show_action(*got) == a
            play = ScoutPlay.scout_show(*got, 0, 1)
            assert actions_of_play(play) == (a, 0) and play_of_actions((a, 0)) == play
        else:
            assert actions_of_play(got) == (a,) and play_of_actions([a]) == got
        seen.add(a)
    assert len(seen) == N_ACTIONS - sum(1 for s in range(H) for L in range(1, H + 1) if s + L > H)
    assert decode_action(KEEP_ACTION) == KEEP_PLAY and decode_action(ROTATE_ACTION) == ROTATE_PLAY
    assert decode_action(STOP_ACTION) == STOP_PLAY


@pytest.mark.parametrize("n_players, count", [(2, 500), (3, 500), (4, 600), (5, 600)])
def test_masks_exact_against_legal_plays(n_players, count):
    kinds = set()
    for game in random_states(n_players, count, seed=100 + n_players):
        legal = game.legal_plays()
        paths = action_paths(game)
        plays = [p for _, p in paths]
        assert len(plays) == len(set(plays)), "a play reachable by two action paths"
        assert set(plays) == set(legal) and len(plays) == len(legal)
        for path, play in paths:
            assert actions_of_play(play) == path and play_of_actions(path) == play
        kinds.update(p.kind for p in legal)
        # the decision object walks the same paths
        for path, play in paths[:: max(1, len(paths) // 5)]:
            d = ScoutDecision(game)
            assert (d.mask() == legal_action_mask(game)).all()
            results = [d.choose(a) for a in path]
            assert results[:-1] == [None] * (len(path) - 1) and results[-1] == play
    assert SCOUT_SHOW in kinds or n_players == 2


def _small_scout_show_position():
    """3 players: hand [1], Active Set [2, 3] (a run) owned by seat 2; the scouted 3 (card 3/4) shown alone
    beats the remaining [2] at insert position 0 only (the same state at position 1 is not listed)."""
    pk = Picker(3)
    hand = [pk.face(1, 9)]
    active = [pk.face(2, 9), pk.face(3, 4)]
    others = [pk.filler_hand(5), pk.filler_hand(5)]
    return ScoutGame.from_position(ScoutConfig(n_players=3), hands=[hand] + others, active=active,
                                   active_owner=2, current=0)


def test_scout_and_show_two_stages_follow_the_canonical_list():
    game = _small_scout_show_position()
    ss = [p for p in game.legal_plays() if p.kind == SCOUT_SHOW]
    assert ScoutPlay.scout_show(1, 0, 0, 0, 1) in ss and ScoutPlay.scout_show(1, 0, 1, 1, 1) not in ss
    mask = legal_action_mask(game)
    assert mask[scout_show_action(1, 0, 0)] and not mask[scout_show_action(1, 0, 1)]
    first = {decode_action(a) for a in np.flatnonzero(mask) if a >= SCOUT_SHOW_BASE and a < STOP_ACTION}
    assert first == {PendingScout(p.end, p.flip, p.position) for p in ss}
    stage2 = legal_action_mask(game, PendingScout(1, 0, 0))
    assert np.flatnonzero(stage2).tolist() == [show_action(0, 1)]
    with pytest.raises(ValueError, match="not the scout of a legal Scout & Show"):
        legal_action_mask(game, PendingScout(1, 0, 1))


def test_catalogue_holds_the_longest_hand():
    """5 players: the longest hand that can scout (45 cards, 1 on the table, 1 in each other hand) has 40
    cards: insert positions up to 40, Scout & Show segments in a hand of 41."""
    pk = Picker(5)
    active = [pk.face(10, 9)]
    others = [pk.filler_hand(1) for _ in range(4)]
    hand = pk.filler_hand(40)
    game = ScoutGame.from_position(ScoutConfig(n_players=5), hands=[hand] + others, active=active,
                                   active_owner=1, current=0)
    paths = action_paths(game)
    assert {p for _, p in paths} == set(game.legal_plays())
    assert max(p.position for _, p in paths) == 40


def test_stop_action_with_the_two_player_flag():
    game = ScoutGame(ScoutConfig(n_players=2, two_player_may_stop=True), seed=3)
    game.apply(KEEP_PLAY)
    game.apply(KEEP_PLAY)
    game.apply(game.legal_plays()[0])  # a show: now there is an Active Set
    assert legal_action_mask(game)[STOP_ACTION] == 1
    plain = ScoutGame(ScoutConfig(n_players=2), seed=3)
    for _ in range(3):
        plain.apply(plain.legal_plays()[0])
    assert legal_action_mask(plain)[STOP_ACTION] == 0


def test_rotation_phase_mask():
    game = ScoutGame(ScoutConfig(n_players=4), seed=0)
    assert np.flatnonzero(legal_action_mask(game)).tolist() == [KEEP_ACTION, ROTATE_ACTION]


def test_decision_refuses_and_names_allowed_actions():
    game = _small_scout_show_position()
    d = ScoutDecision(game)
    with pytest.raises(ValueError, match=r"action 2025 .*not allowed now .*main stage.*allowed: "):
        d.choose(KEEP_ACTION)
    assert d.choose(scout_show_action(1, 0, 0)) is None and d.stage == 1 and d.pending == (1, 0, 0)
    with pytest.raises(ValueError, match="not allowed now"):
        d.choose(show_action(0, 2))
    assert d.choose(show_action(0, 1)) == ScoutPlay.scout_show(1, 0, 0, 0, 1)
    with pytest.raises(ValueError, match="not a legal play"):
        d.actions_for(ScoutPlay.show(0, 5))


@pytest.mark.parametrize("bad, err", [(N_ACTIONS, ValueError), (-1, ValueError), (1.0, TypeError),
                                      ("3", TypeError), (True, TypeError)])
def test_bad_action_ids(bad, err):
    with pytest.raises(err, match="action"):
        check_action(bad)
    with pytest.raises(err, match="action"):
        decode_action(bad)


def test_decode_errors_name_the_problem():
    with pytest.raises(ValueError, match="not a SHOW id"):
        decode_action(KEEP_ACTION, PendingScout(0, 0, 0))
    with pytest.raises(ValueError, match="two actions"):
        play_of_actions([scout_show_action(0, 0, 0)])
    with pytest.raises(ValueError, match="too long"):
        play_of_actions([KEEP_ACTION, 0])
    with pytest.raises(ValueError, match="does not fit"):
        show_action(40, 6)
    with pytest.raises(ValueError, match="outside the catalogue"):
        scout_action(2, 0, 0)
    with pytest.raises(TypeError, match="ScoutPlay"):
        actions_of_play((2, 0, 0, 0, 0, 1))
    with pytest.raises(ValueError, match="game is over"):
        g = ScoutGame(ScoutConfig(n_players=2, n_rounds=1), seed=0)
        while not g.game_over:
            g.apply(g.legal_plays()[0])
        ScoutDecision(g)


def test_describe_action():
    game = _small_scout_show_position()
    assert describe_action(KEEP_ACTION) == "Keep hand"
    assert describe_action(show_action(2, 3)) == "Show 3 cards from position 2"
    text = describe_action(scout_show_action(1, 0, 0), game)
    assert text.startswith("Scout & Show, stage 1: scout the right card, kept, into position 0") and "3(4)" in text
    assert "show 3" in describe_action(show_action(0, 1), game, PendingScout(1, 0, 0))
    assert "beyond" in describe_action(show_action(44, 1) + 1)
