"""Property tests: random SCOUT games never break the invariants (card conservation, chips, round ends,
the score identity) and survive a serialisation round trip at any point."""

from __future__ import annotations

import collections
import json

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from scout_policies import POLICIES
from seers_env.scout import ScoutConfig, ScoutGame
from seers_env.scout.cards import SETUP
from seers_env.scout.moves import strength_key

configs = st.builds(
    ScoutConfig, n_players=st.integers(2, 5), first_player=st.sampled_from(["seat0", "random", "holder_of_1_2"]),
    public_scout_flip_and_position=st.booleans(), two_player_may_stop=st.booleans(),
    max_turns_per_round=st.sampled_from([7, 40, 1000]))
policy_names = st.sampled_from(["uniform", "by_kind", "scout_heavy", "hoarder"])


def _check_state(game: ScoutGame) -> None:
    n = game.n_players
    placed = [c for h in game.hands for c, _ in h] + [c for c, _ in game.active] + [c for p in game.piles for c in p]
    assert sorted(placed) == game.round_cards  # every card of the round exactly once
    aside = [c for c, _ in game.set_aside]
    assert not set(aside) & set(placed)
    if n == 2:
        assert len(game.round_cards) == 22 and len(aside) == (22 if game.round == 0 else 0)
        assert all(0 <= c <= 3 for c in game.chips)
    else:
        assert game.round_cards == list(SETUP[n].in_play)
    assert [len(s) for s in game.scouted] == game.hand_sizes()
    strength_key([t for _, t in game.active])  # the Active Set stays a valid set or run
    if game.active:
        assert 0 <= game.active_owner < n
    legal = game.legal_plays()
    assert legal and legal == sorted(set(legal))
    assert all(h for h in game.hands)


def _check_round_ends(game: ScoutGame) -> None:
    n = game.n_players
    hist = game.public_history
    ends = [e for e in game.events if e["event"] == "round_end"]
    by_round = collections.defaultdict(list)
    for e in hist:
        if e["event"] in ("show", "scout", "scout_show", "stop"):
            by_round[e["round"]].append(e)
    for e in ends:
        r, reason, exempt, scores = e["round"], e["reason"], e["exempt"], e["scores"]
        hands = [len(h) for h in e["hands"]]
        scouts = sum(x["event"] in ("scout", "scout_show") for x in by_round[r])
        cards = 22 if n == 2 else len(SETUP[n].in_play)
        assert sum(e["pile_sizes"]) + len(e["active"]) + sum(hands) == cards
        assert sum(e["chips"]) == (2 * 3 - scouts if n == 2 else scouts)
        paid = [0] * n  # 3-5: a chip to the owner per scout; 2 players: a chip spent per own scout
        owner = -1
        for x in by_round[r]:
            if x["event"] in ("scout", "scout_show"):
                paid[x["seat"] if n == 2 else owner] += 1
            if x["event"] in ("show", "scout_show"):
                owner = x["seat"]
        assert e["chips"] == ([3 - k for k in paid] if n == 2 else paid)
        for i in range(n):  # section 8
            assert scores[i] == e["pile_sizes"][i] + e["chips"][i] - (0 if i == exempt else hands[i])
        actions = by_round[r]
        if reason == "a":
            assert hands[exempt] == 0 and actions[-1]["seat"] == exempt
            assert actions[-1]["event"] in ("show", "scout_show")
        elif reason == "truncated":
            assert exempt == -1 and len(actions) == game.config.max_turns_per_round
        elif n > 2:  # 6(b): the last N-1 actions were plain scouts after the exempt player's show
            assert [x["event"] for x in actions[-(n - 1):]] == ["scout"] * (n - 1)
            shower = actions[-n]
            assert shower["event"] in ("show", "scout_show") and shower["seat"] == exempt
        else:  # 7(b): the exempt player owned the set the other could not beat, or the other stopped
            last_show = [x for x in actions if x["event"] in ("show",)][-1]
            assert last_show["seat"] == exempt


@settings(max_examples=40)
@given(config=configs, seed=st.integers(0, 2**32 - 1), policy=policy_names, policy_seed=st.integers(0, 2**16))
def test_random_games_keep_the_invariants(config, seed, policy, policy_seed):
    game = ScoutGame(config, seed=seed)
    rng = np.random.default_rng(policy_seed)
    choose = POLICIES[policy]
    steps = 0
    while not game.game_over and steps < 400:
        _check_state(game)
        game.apply(choose(game, rng))
        steps += 1
    _check_round_ends(game)
    if game.game_over:
        assert game.totals == [sum(r[i] for r in game.round_scores) for i in range(config.n_players)]
        best = max(game.totals)
        assert game.winners() == [i for i, t in enumerate(game.totals) if t == best]


@settings(max_examples=30)
@given(config=configs, seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 120))
def test_round_trip_at_any_point(config, seed, steps):
    game = ScoutGame(config, seed=seed)
    rng = np.random.default_rng(seed % 1000)
    for _ in range(steps):
        if game.game_over:
            break
        legal = game.legal_plays()
        game.apply(legal[int(rng.integers(len(legal)))])
    d = game.to_dict()
    back = ScoutGame.from_dict(json.loads(json.dumps(d)))
    assert back.to_dict() == d and back.legal_plays() == game.legal_plays()
    assert ScoutGame.replay(game.log()).to_dict() == d
