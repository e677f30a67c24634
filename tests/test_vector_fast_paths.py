"""The batch API's fast paths against the readable ones they replace: the compiled pending deal
(:func:`seers_env.engine.kernel.put_pending_deal`) against :func:`seers_env.engine.game.draw_deal`, and
folded decisions (:func:`seers_env.vector_core.new_decision_folded`) against full ones, over random states
with hands of up to 40 cards (as after Rod pick-ups)."""

import numpy as np
import pytest
from test_compiled_moves import N_STATES, random_state  # 1..40-card hands, tops from other hands

from seers_env import vector_core
from seers_env.actions import N_ACTIONS
from seers_env.engine import core
from seers_env.engine.artifacts import DEFAULT_ARTIFACT_DECK
from seers_env.engine.cards import FIRST_ARTIFACT
from seers_env.engine.game import GameConfig, draw_deal
from seers_env.engine.kernel import (
    HAND, MAX_SEATS, N_CARD_IDS, PENDING, PENDING_HIDDEN, S_CURRENT, S_PENDING_GO_FIRST, S_PENDING_NEW_GAME,
    S_PENDING_READY, S_PENDING_START, S_PENDING_SUITS, S_TOP_RANK, S_TOP_SIZE, S_TOP_TYPE, KernelGames,
    deal_counts,
)


@pytest.mark.parametrize("n_players", [2, 3, 4, 5])
@pytest.mark.parametrize("deck", [DEFAULT_ARTIFACT_DECK, ()])
def test_compiled_pending_deal_equals_draw_deal(n_players, deck):
    config = GameConfig(n_players=n_players, artifact_deck=deck)
    games = KernelGames(1, config)
    for seed in range(300):
        games.rngs[0] = np.random.default_rng(seed)
        games.scal[0, S_PENDING_READY] = 0
        games._draw_pending(0, seed % 2 == 0)
        deal = draw_deal(np.random.default_rng(seed), config)
        hands, hidden, suits = deal_counts(deal)
        sc = games.scal[0]
        np.testing.assert_array_equal(games.cards[0, PENDING:PENDING + MAX_SEATS], hands)
        np.testing.assert_array_equal(games.cards[0, PENDING_HIDDEN], hidden)
        np.testing.assert_array_equal(sc[S_PENDING_SUITS:S_PENDING_SUITS + MAX_SEATS], suits)
        assert (sc[S_PENDING_GO_FIRST], sc[S_PENDING_START]) == (deal.go_first_holder, deal.start_seer)
        assert (sc[S_PENDING_NEW_GAME], sc[S_PENDING_READY]) == (int(seed % 2 == 0), 1)


# --- folded decisions: the ride-along copies left out of the list, added for the chosen code -------------
# (seers_env.engine.core.legal_keys_folded, seers_env.vector_core.new_decision_folded)


def _is_ride_copy(key: int) -> bool:
    """A meld with an artifact carried unused (rides along / declared unused, rules section 6)."""
    return key >> 57 & 3 == core.MELD_KIND and key >> 16 & 7 != 0 and not key >> 22 & 1


def _states(n_players: int, count: int):
    rng = np.random.default_rng([23, n_players])
    for _ in range(count):
        hand, top, seat, in_bonus = random_state(rng, n_players)
        yield np.array(hand, np.int64), top if top is not None else (0, 0, 0), seat, in_bonus


@pytest.mark.parametrize("n_players", [2, 3, 4, 5])
def test_folded_legal_keys_unfold_to_the_full_list(n_players):
    """The folded list is the full list without its ride-along copies (same order), and adding the copy
    of each base meld for each kind in ``ride`` gives the full list's plays."""
    big = 0
    for hand, top, seat, in_bonus in _states(n_players, N_STATES):
        big += len(hand) >= 30
        full = core.legal_keys(hand, *top, seat, n_players, in_bonus).tolist()
        folded, ride = core.legal_keys_folded(hand, *top, seat, n_players, in_bonus)
        folded = folded.tolist()
        assert folded == [k for k in full if not _is_ride_copy(k)]
        copies = [k | (kind + 1) << 16 for k in folded for kind in range(core.N_KINDS)
                  if ride >> kind & 1 and k >> 57 & 3 == core.MELD_KIND and not k >> 16 & 7]
        assert sorted(folded + copies) == sorted(full) and len(set(full)) == len(full)
        held = sum(1 << (c - FIRST_ARTIFACT) for c in set(hand.tolist()) if c >= FIRST_ARTIFACT)
        assert ride == held or (ride == 0 and not any(k >> 57 & 3 == core.MELD_KIND for k in full))
    assert big > 0


def _decision_rows(width: int):
    return (np.zeros((1, width), np.int64), np.zeros(1, np.int64), np.zeros((1, width), np.int32),
            np.zeros((1, vector_core.N_DEC), np.int64))


def _mask(games, rows) -> np.ndarray:
    keys, _, cands, dec = rows
    masks = np.zeros((1, N_ACTIONS), np.int8)
    vector_core.write_mask(games.scal, 0, keys, cands, dec, masks)
    return masks[0]


def _copy(rows):
    return tuple(a.copy() for a in rows)


def _walk(games, full, folded, depth=0) -> int:
    """Every action path of the two decisions: the same masks at each stage, the same play at the end."""
    mask = _mask(games, full)
    np.testing.assert_array_equal(_mask(games, folded), mask)
    paths = 0
    for action in np.flatnonzero(mask).tolist():
        a, b = _copy(full), _copy(folded)
        ka = vector_core.choose(games.scal, 0, a[0], a[2], a[3], action)
        kb = vector_core.choose(games.scal, 0, b[0], b[2], b[3], action)
        assert ka == kb
        paths += 1 if ka >= 0 else _walk(games, a, b, depth + 1)
    return paths


@pytest.mark.parametrize("n_players", [2, 3, 4, 5])
def test_folded_decisions_give_the_masks_and_plays_of_full_ones(n_players):
    """From random states (hands of up to 40 cards), every path of actions through a folded decision
    (new_decision_folded) shows the masks of the full decision (new_decision) at every stage and ends in
    the same play; the folded one is never longer."""
    games = KernelGames(1, GameConfig(n_players=n_players))
    games.new_game(0, 0)
    buf = np.empty(N_CARD_IDS + 160, np.int64)
    paths = multi_stage = 0
    for hand, top, seat, _ in _states(n_players, max(40, N_STATES // 3)):
        games.cards[0, HAND + seat] = np.bincount(hand, minlength=N_CARD_IDS)
        games.scal[0, S_CURRENT] = seat
        games.scal[0, [S_TOP_TYPE, S_TOP_SIZE, S_TOP_RANK]] = top
        full, folded = _decision_rows(64), _decision_rows(64)
        n_full = vector_core.new_decision(games.cards, games.scal, 0, *full, buf)
        if n_full < 0:  # too narrow: nothing written, the width needed returned
            full = _decision_rows(-n_full)
            n_full = vector_core.new_decision(games.cards, games.scal, 0, *full, buf)
        n_fold = vector_core.new_decision_folded(games.cards, games.scal, 0, *folded, buf)
        if n_fold < 0:
            folded = _decision_rows(-n_fold)
            n_fold = vector_core.new_decision_folded(games.cards, games.scal, 0, *folded, buf)
        assert 0 < n_fold <= n_full
        got = _walk(games, full, folded)
        paths += got
        multi_stage += got > int(_mask(games, full).sum())
    assert paths > 1000 and multi_stage > 0
