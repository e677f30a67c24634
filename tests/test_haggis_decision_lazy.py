"""The fast paths of the haggis_v0 step give what the full lists give: :func:`moves.turn_combos` and
:func:`moves.combo_plays` against :func:`moves.turn_plays_with_combos`, the decision that lists a main
code's plays only when it is chosen against the one built on the full list, and the observation against
its first version (``tests/haggis_observation_reference.py``)."""

from __future__ import annotations

import numpy as np
import pytest

from haggis_observation_reference import observe as reference_observe
from haggis_states import random_states
from seers_env.haggis.actions import N_ACTIONS, HaggisDecision, play_codes
from seers_env.haggis.cards import SETUP, faces_of, rank_of
from seers_env.haggis.moves import Combo, combo_plays, turn_combos, turn_plays_with_combos
from seers_env.haggis.observation import observe
from seers_env.haggis.plays import BOMB, SEQ, SET
from seers_env.haggis.view import HaggisSeatView
from seers_env.haggis_v0 import raw_env


def _distinct_combos(full):
    out = []
    for _, c in full:
        if c is not None and c not in out:
            out.append(c)
    return out


def _random_hand(rng, n_players):
    """A hand of 1..17 cards, often heavy in 3, 5, 7, 9 (bombs) or in few ranks (wide sequences)."""
    deck = list(SETUP[n_players].number_cards)
    weights = np.ones(len(deck))
    if rng.random() < 0.5:
        favoured = rng.choice(np.arange(2, 11), int(rng.integers(2, 5)), replace=False)
        weights[[i for i, c in enumerate(deck) if rank_of(c) in favoured]] = 8.0
    k = int(rng.integers(1, 15))
    nums = rng.choice(deck, k, replace=False, p=weights / weights.sum()).tolist()
    faces = [f for f in faces_of(0) if rng.random() < 0.6]
    return sorted(nums + faces)


TOPS = [None, Combo(SET, 1, 0, 6), Combo(SET, 2, 0, 4), Combo(SET, 3, 0, 2), Combo(SEQ, 1, 3, 6),
        Combo(SEQ, 2, 2, 5), Combo(SEQ, 1, 5, 9), Combo(SEQ, 3, 2, 4), Combo(BOMB, 0, 0, 1), Combo(BOMB, 0, 0, 3)]


@pytest.mark.parametrize("n_players", [2, 3])
def test_turn_combos_and_combo_plays_equal_the_full_list(n_players):
    rng = np.random.default_rng(40 + n_players)
    bombs = wide = 0
    for _ in range(300):
        hand = _random_hand(rng, n_players)
        for top in TOPS:
            full = turn_plays_with_combos(hand, top)
            combos = _distinct_combos(full)
            assert turn_combos(hand, top) == combos, (hand, top)
            for c in combos:
                assert combo_plays(hand, c) == [pc for pc in full if pc[1] == c]
            bombs += any(c.kind == BOMB and c.value in (1, 6) for c in combos)
            wide += any(c.kind == SEQ and c.a >= 2 for c in combos)
    assert bombs > 20 and wide > 50  # the hands did hold number bombs and wide sequences


@pytest.mark.parametrize("n_players", [2, 3])
def test_the_decision_narrows_as_the_full_list_does(n_players):
    for i, g in enumerate(random_states(n_players, 80, seed=60 + n_players)):
        rng = np.random.default_rng(i)
        for _ in range(3):
            lazy = HaggisDecision(g)
            g.legal_plays()
            full = HaggisDecision(g)  # built on the game's full list of plays
            g._legal = None
            paths = [play_codes(p) for p in g.legal_plays()]
            g._legal = None
            play = None
            while play is None:
                k = len(lazy.chosen)
                mask = np.flatnonzero(lazy.mask()).tolist()
                assert mask == np.flatnonzero(full.mask()).tolist()
                assert mask == sorted({p[k] for p in paths if p[:k] == lazy.chosen})
                a = int(rng.choice(mask))
                bad = next(c for c in range(N_ACTIONS) if c not in mask)
                assert lazy.allowed(a) and not lazy.allowed(bad)
                play = lazy.choose(a)
                assert play == full.choose(a)
                assert lazy.chosen == full.chosen and lazy.pending == full.pending and lazy.stage == full.stage
    mask = np.flatnonzero(HaggisDecision(g).mask()).tolist()
    bad = next(c for c in range(N_ACTIONS) if c not in mask)
    with pytest.raises(ValueError, match=f"action {bad} .* continues no legal play; allowed: "):
        HaggisDecision(g).choose(bad)


@pytest.mark.parametrize("n_players", [2, 3])
def test_observation_equals_its_reference(n_players):
    e = raw_env(n_players=n_players)
    e.reset(seed=n_players)
    rng = np.random.default_rng(n_players)
    checked = 0
    for _ in range(600):
        if not e.agents or e.terminations[e.agent_selection]:
            e.reset()
            continue
        g = e.game
        for s in range(n_players):
            d = e.decision if s == g.current else None
            a, b = observe(HaggisSeatView(g, s), d), reference_observe(HaggisSeatView(g, s), d)
            assert a.dtype == b.dtype == np.float32 and (a == b).all()
            checked += d is not None and d.pending is not None
        e.step(int(rng.choice(np.flatnonzero(e.last()[0]["action_mask"]))))
    assert checked > 50  # pending plays were observed too
