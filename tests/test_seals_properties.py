"""Property tests: random Seals games never break the invariants (every card once, the row refilled,
one declarer per round, the round counter, tie-break seats) and survive a save at any point; illegal
plays are refused with the game unchanged."""

from __future__ import annotations

import json

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from seers_env.seals import IllegalPlayError, SealsConfig, SealsGame, SealsPlay
from seers_env.seals.cards import N_CARDS
from seers_env.seals.moves import has_set
from seers_env.seals.plays import N_ACTIONS
from seers_env.seals.rulings import MARKS_TO_WIN, REASON_DECLARED, ROW_SIZE

configs = st.builds(SealsConfig, n_players=st.integers(2, 4), n_rounds=st.integers(1, 6),
                    max_tie_break_rounds=st.integers(0, 3), max_turns_per_round=st.sampled_from([3, 9, 500]))


def _check(game: SealsGame) -> None:
    assert sorted(game.pile + game.row + [c for h in game.hands for c in h]) == list(range(N_CARDS))
    done = len(game.round_scores)
    for scores, reason in zip(game.round_scores, game.round_end_reasons):
        assert sum(x > 0 for x in scores) == (reason == REASON_DECLARED)
    if game.game_over:
        assert game.winners() == [s for s, t in enumerate(game.totals) if t == max(game.totals)]
        return
    assert max(game.totals) < MARKS_TO_WIN
    assert game.counter == max(0, game.config.n_rounds - done) and game.round == done
    if game.phase == "take":
        assert game.row and (len(game.row) == ROW_SIZE or game.pile_size == 0)
    else:
        assert has_set(game.hands[game.current])
    assert game.playing[game.current]
    assert all(not h for h, p in zip(game.hands, game.playing) if not p)
    mask = game.legal_mask()
    assert np.flatnonzero(mask).tolist() == [p.action for p in game.legal_plays()]


@settings(max_examples=25, deadline=None)
@given(config=configs, seed=st.integers(0, 2**32), policy_seed=st.integers(0, 2**32))
def test_random_games_keep_the_invariants_and_save_anywhere(config, seed, policy_seed):
    game = SealsGame(config, seed=seed)
    rng = np.random.default_rng(policy_seed)
    steps = 0
    while not game.game_over:
        _check(game)
        if steps % 7 == 0:
            restored = SealsGame.from_dict(json.loads(json.dumps(game.to_dict())))
            assert restored.to_dict() == game.to_dict()
            illegal = [a for a in rng.integers(0, N_ACTIONS, size=8).tolist() if not game.legal_mask()[a]]
            before = game.to_dict()
            for a in illegal[:2]:
                try:
                    game.apply(SealsPlay.from_action(a))
                except IllegalPlayError:
                    pass
                else:
                    raise AssertionError(f"action {a} was not legal but applied")
            assert game.to_dict() == before
        legal = game.legal_plays()
        game.apply(legal[int(rng.integers(len(legal)))])
        steps += 1
    _check(game)
    assert SealsGame.replay(game.log()).to_dict() == game.to_dict()
