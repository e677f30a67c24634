"""Property tests (hypothesis) over whole random games at every player count and artifact setting.

Checked after every play: cards are conserved (section 2), the Bonus rule holds (section 4), each
round's scores follow the formula (section 5), legal plays are distinct; every game terminates and
serialisation round-trips at random points.
"""

from __future__ import annotations

import json
from collections import Counter

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from seers_env import DEFAULT_ARTIFACT_DECK, Game, GameConfig
from seers_env.artifacts import ARTIFACT_KINDS
from seers_env.cards import WILD, artifact_card

# section 2: players -> (suits, highest value, removed); copied from the rules file, not from the code
SETUP = {2: (3, 10, 3), 3: (3, 13, 0), 4: (4, 13, 0), 5: (5, 13, 0)}
DECKS = {
    "default": DEFAULT_ARTIFACT_DECK,
    "none": (),
    "custom": tuple(k.key for k in ARTIFACT_KINDS[1:]) * 2,  # no Go First: a random first Start Seer
}
MAX_PLAYS_PER_GAME = 20_000


def score_formula(hand: list[int]) -> int:
    """Section 5: lowest value (wild/artifact 0) if 1..5 cards, minus one point per card."""
    values = [c % 12 + 2 if c < WILD else 0 for c in hand]
    return (min(values) if 1 <= len(values) <= 5 else 0) - len(values)


def round_deck(game: Game) -> Counter:
    n_suits, max_value, _ = SETUP[game.n_players]
    assert len(game.suits) == n_suits
    suited = [s * 12 + v - 2 for s in game.suits for v in range(2, max_value + 1)]
    return Counter(suited + [WILD] * game.n_players + [artifact_card(k) for k in game.dealt_artifacts])


def check_conservation(game: Game) -> None:
    held = [c for h in game.hands for c in h] + game.trick_cards() + game.discards + game.hidden
    assert Counter(held) == round_deck(game)


def check_legal_plays(game: Game) -> None:
    legal = game.legal_plays()
    assert legal, "the player to act always has a play"
    ids = [p[:8] for p in legal]
    assert len(ids) == len(set(ids))
    has_pass = any(p.kind == 0 for p in legal)
    has_meld = any(p.kind == 1 for p in legal)
    if game.top is None:  # leading: pass only without an opening meld
        assert has_pass == (not has_meld)
    elif game.in_bonus(game.current):  # section 4: no voluntary pass in the Bonus
        assert has_pass == (not has_meld)
    else:
        assert has_pass


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n_players=st.integers(2, 5), deck=st.sampled_from(sorted(DECKS)))
def test_random_games_keep_every_invariant(seed, n_players, deck):
    config = GameConfig(n_players=n_players, artifact_deck=DECKS[deck])
    game = Game(config, seed=seed)
    rng = np.random.default_rng(seed)
    plays = 0
    while not game.game_over:
        check_conservation(game)
        check_legal_plays(game)
        if game.top is None and not game.trick:
            hand_size = 15 if DECKS[deck] else 13
            if game.events[-1]["event"] == "deal":
                assert [len(h) for h in game.hands] == [hand_size] * n_players
        seat = game.current
        legal = game.legal_plays()
        play = legal[int(rng.integers(len(legal)))]
        expected = list(game.hands[seat])
        for c in play.cards() if play.kind in (1, 3) else []:
            expected.remove(c)
        result = game.apply(play)
        plays += 1
        assert plays < MAX_PLAYS_PER_GAME
        if result.round_scores is not None:
            end = [e for e in game.events if e["event"] == "round_end"][-1]
            assert end["hands"][seat] == expected or play.kind == 0
            assert list(result.round_scores) == [score_formula(h) for h in end["hands"]]
            assert game.round_scores[-1] == list(result.round_scores)
        if rng.random() < 0.03:
            saved = json.loads(json.dumps(game.to_dict()))
            assert Game.from_dict(saved).to_dict() == game.to_dict()
    assert len(game.round_scores) == 4
    assert game.totals == [sum(r[i] for r in game.round_scores) for i in range(n_players)]
    best = max(game.totals)
    assert all(game.totals[w] == best for w in game.winners())
    assert game.legal_plays() == []


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n_players=st.integers(2, 5))
def test_a_round_ends_only_on_an_empty_hand_or_when_no_one_can_open(seed, n_players):
    game = Game(GameConfig(n_players=n_players, n_rounds=1), seed=seed)
    rng = np.random.default_rng(seed)
    lead_passes = 0
    while not game.game_over:
        legal = game.legal_plays()
        play = legal[int(rng.integers(len(legal)))]
        leading_pass = game.top is None and play.kind == 0
        lead_passes = lead_passes + 1 if leading_pass else 0  # a meld, Rod or Gift restarts the count
        game.apply(play)
    hands = [e for e in game.events if e["event"] == "round_end"][-1]["hands"]
    assert any(len(h) == 0 for h in hands) or lead_passes >= n_players
