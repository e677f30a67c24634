"""Search guided by the play-scoring network (``train/guided_search.py``, the ``learned+search`` spec) and
the shared ISMCTS code it runs on (``agents/ismcts.py``): plain ISMCTS unchanged against its reference
copy, guided choices legal and seeded, priors and values equal to the network's, refused specs."""

from __future__ import annotations

import math
import re
import tomllib
from importlib.metadata import EntryPoint
from pathlib import Path

import numpy as np
import pytest
import torch
from ismcts_reference import ReferenceISMCTSAgent

from agents import specs as agent_specs
from agents.greedy import GreedyAgent
from agents.ismcts import ISMCTSAgent
from agents.specs import make_agent
from seers_env.features import encode_state
from seers_env.game import Game, GameConfig
from seers_env.scout import ScoutConfig, ScoutGame, ScoutSeatView
from seers_env.view import SeatView
from train.game_adapters import game_adapter
from train.guided_search import GuidedSearchAgent, NetworkGuide, NumpyValueHead, softmax
from train.scoring_policy import LearnedAgent, NetConfig, PlayScoringNet, cached_policy, hidden_hands, model_config

REPO = Path(__file__).resolve().parent.parent


def _positions(n_players: int, seed: int, count: int, game: str = "seers_catalog") -> list:
    """``count`` states with a choice, reached by greedy play from deal ``seed`` (clones)."""
    if game == "scout":
        from agents.scout import ScoutGreedyAgent

        g, greedy, view = ScoutGame(ScoutConfig(n_players=n_players), seed=seed), ScoutGreedyAgent(), ScoutSeatView
    else:
        g, greedy, view = Game(GameConfig(n_players=n_players), seed=seed), GreedyAgent(), SeatView
    out = []
    while len(out) < count and not g.game_over:
        v = view(g, g.current)
        if len(v.legal_plays()) > 1:
            out.append(g.clone())
        g.apply(greedy.act(v))
    assert len(out) == count
    return out


@pytest.fixture
def search_spec(monkeypatch):
    """``make_agent`` finding ``learned+search`` through the entry point ``pyproject.toml`` declares (an
    install made before it was added lacks it)."""
    points = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["entry-points"]["seers.agent_specs"]
    assert points["learned+search"] == "train.specs:learned_search_agent"
    if agent_specs._spec_plugin("learned+search") is None:
        real = agent_specs._spec_plugin
        point = EntryPoint("learned+search", points["learned+search"], agent_specs.SPEC_ENTRY_POINTS)
        monkeypatch.setattr(agent_specs, "_spec_plugin",
                            lambda name: point if name == "learned+search" else real(name))


def _untrained(n_players: int, game: str = "seers_catalog", seed: int = 0):
    """A randomly initialised network and its model config for a table without a shipped model."""
    torch.manual_seed(seed)
    a = game_adapter(game)
    net = PlayScoringNet(NetConfig(state_dim=a.state_dim, play_dim=a.play_dim, privileged_dim=a.privileged_dim,
                                   heuristic_prior=True)).eval()
    deck = GameConfig(n_players=n_players).artifact_deck if game == "seers_catalog" else ()
    return net, a.model_config(n_players, tuple(deck))


# --- plain ISMCTS: the shared code makes the reference's choices -------------------------------------


@pytest.mark.parametrize("n_players", [2, 3, 4, 5])
def test_plain_ismcts_choices_and_statistics_are_unchanged(n_players):
    for i, g in enumerate(_positions(n_players, seed=40 + n_players, count=4)):
        view = SeatView(g, g.current)
        new, old = ISMCTSAgent(iterations=30, seed=i), ReferenceISMCTSAgent(iterations=30, seed=i)
        for _ in range(2):  # the generator carries on from one move to the next the same way
            assert new.act(view) == old.act(view)
            assert new.last_visits == old.last_visits and new.last_iterations == old.last_iterations == 30


def test_plain_ismcts_is_unchanged_on_scout_and_with_random_rollouts():
    for i, g in enumerate(_positions(3, seed=5, count=3, game="scout")):
        view = ScoutSeatView(g, g.current)
        new, old = ISMCTSAgent(iterations=25, seed=i), ReferenceISMCTSAgent(iterations=25, seed=i)
        assert new.act(view) == old.act(view) and new.last_visits == old.last_visits
    g = _positions(4, seed=8, count=1)[0]
    new, old = (cls(iterations=25, rollout="random", top_k=3, seed=2) for cls in (ISMCTSAgent, ReferenceISMCTSAgent))
    assert new.act(SeatView(g, g.current)) == old.act(SeatView(g, g.current)) and new.last_visits == old.last_visits


def test_ismcts_refuses_guide_options_without_a_guide_and_bad_guides():
    with pytest.raises(ValueError, match="leaf='value' needs a guide"):
        ISMCTSAgent(leaf="value")
    with pytest.raises(ValueError, match="rollout='guide'.*needs a guide"):
        ISMCTSAgent(rollout="guide")
    with pytest.raises(ValueError, match="leaf='deep'"):
        ISMCTSAgent(leaf="deep")
    with pytest.raises(TypeError, match="lacks priors"):
        ISMCTSAgent(guide=object())
    net, _ = cached_policy(str(REPO / "train/models/learned_4p.pt"))
    for bad in (-1.0, math.inf, math.nan, True):
        with pytest.raises(ValueError, match="c_puct"):
            ISMCTSAgent(guide=NetworkGuide(net), c_puct=bad)
    for bad in (0, -1, True, 2.5):
        with pytest.raises(ValueError, match="iterations"):
            ISMCTSAgent(iterations=bad)


# --- the guide: the network's policy and value ------------------------------------------------------


@pytest.mark.parametrize("n_players", [3, 4])
def test_priors_are_the_learned_policy_softmax_over_the_legal_plays(n_players):
    learned = LearnedAgent(seed=0)
    learned.check_use(n_players, GameConfig(n_players=n_players).artifact_deck)
    guide = NetworkGuide(learned.net)
    flat = NetworkGuide(learned.net, temperature=4.0)
    for g in _positions(n_players, seed=11, count=6):
        view = SeatView(g, g.current)
        p, q = guide.priors(view), flat.priors(view)
        assert p.dtype == np.float64 and p.shape == (len(view.legal_plays()),) and (p >= 0).all()
        assert abs(p.sum() - 1.0) < 1e-9 and abs(q.sum() - 1.0) < 1e-9
        assert view.legal_plays()[int(np.argmax(p))] == learned.act(view)  # its most probable play
        assert int(np.argmax(q)) == int(np.argmax(p)) and q.max() <= p.max() + 1e-12  # flatter, same order
    with pytest.raises(ValueError, match="no legal play"):
        other = (g.current + 1) % n_players
        guide.priors(SeatView(g, other))
    for bad in (0, -1.0, math.inf, False):
        with pytest.raises(ValueError, match="temperature"):
            NetworkGuide(learned.net, temperature=bad)


def test_value_head_equals_the_torch_critic_on_each_seats_view_and_hands():
    net, _ = cached_policy(str(REPO / "train/models/learned_4p.pt"))
    head = NumpyValueHead(net)
    g = _positions(4, seed=3, count=3)[-1]
    states = np.stack([encode_state(SeatView(g, s)) for s in range(4)])
    hidden = np.stack([hidden_hands(g, s) for s in range(4)])
    with torch.no_grad():
        emb = net.state_net(torch.from_numpy(states))
        want = net.value_net(torch.cat([emb, torch.from_numpy(hidden)], dim=1)).squeeze(1).numpy()
    np.testing.assert_allclose(head.values(states, hidden), want, rtol=1e-4, atol=1e-5)
    v = NetworkGuide(net).values(g)
    assert v.shape == (4,) and abs(v.sum()) < 1e-9  # centred, in points
    raw = NetworkGuide(net, center=False).values(g)
    np.testing.assert_allclose(raw, want * 10.0, rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(v, raw - raw.mean(), atol=1e-9)
    with pytest.raises(ValueError, match=r"states has shape \(4, 7\)"):
        head.values(np.zeros((4, 7), np.float32), None)


def test_softmax_is_shift_invariant_and_sums_to_one():
    z = np.array([1000.0, 999.0, -5.0], np.float32)
    p = softmax(z)
    assert abs(p.sum() - 1) < 1e-12 and np.allclose(p, softmax(z - 1000.0)) and p[0] > p[1] > p[2]


# --- the guided search agent ------------------------------------------------------------------------


@pytest.mark.parametrize("leaf, rollout", [("value", "greedy"), ("rollout", "greedy"), ("rollout", "guide")])
def test_guided_choices_are_legal_and_the_same_for_a_seed(leaf, rollout):
    for g in _positions(4, seed=21, count=3):
        view = SeatView(g, g.current)
        a, b = (GuidedSearchAgent(iterations=12, leaf=leaf, rollout=rollout, temperature=3.0, seed=7)
                for _ in range(2))
        play = a.act(view)
        assert play in view.legal_plays() and play == b.act(view) and a.last_visits == b.last_visits
        assert sum(n for n, _ in a.last_visits.values()) == a.last_iterations == 12


def test_a_guided_agent_pickles_after_playing_and_plays_the_same_after():
    import pickle

    g = _positions(4, seed=21, count=1)[0]
    view = SeatView(g, g.current)
    agent = GuidedSearchAgent(iterations=8, seed=2)
    agent.act(view)
    copy = pickle.loads(pickle.dumps(agent))
    agent.reset(5)
    copy.reset(5)
    assert copy.act(view) == agent.act(view) and copy.last_visits == agent.last_visits


def test_the_search_changes_with_the_seed_and_finds_more_than_the_policys_play():
    # a flat prior and enough iterations: the root edges hold more than the network's favourite
    g = _positions(4, seed=21, count=2)[-1]
    view = SeatView(g, g.current)
    visits = [GuidedSearchAgent(iterations=40, temperature=8.0, seed=s) for s in (1, 2)]
    for agent in visits:
        agent.act(view)
    assert all(len(agent.last_visits) > 1 for agent in visits)
    assert visits[0].last_visits != visits[1].last_visits  # other determinizations, other statistics


@pytest.mark.parametrize("n_players", [2, 3, 4, 5])
def test_guided_search_plays_whole_rounds_at_every_table(n_players):
    model = None if n_players in (3, 4) else _untrained(n_players)  # shipped models: 3 and 4 players
    agent = GuidedSearchAgent(iterations=3, model=model, seed=1)
    g = Game(GameConfig(n_players=n_players, n_rounds=1), seed=n_players)
    agent.check_use(n_players, g.config.artifact_deck)
    others = GreedyAgent()
    while not g.game_over:
        view = SeatView(g, g.current)
        play = (agent if g.current == 0 else others).act(view)
        assert play in view.legal_plays()
        g.apply(play)


def test_guided_search_plays_scout_with_a_scout_model():
    agent = GuidedSearchAgent(iterations=6, model=_untrained(3, "scout"), seed=3)
    assert agent.game == "scout"
    for g in _positions(3, seed=9, count=3, game="scout"):
        view = ScoutSeatView(g, g.current)
        play = agent.act(view)
        assert g.is_legal(play) and play == GuidedSearchAgent(iterations=6, model=_untrained(3, "scout"),
                                                             seed=3).act(view)
    with pytest.raises(ValueError, match="SCOUT"):
        g = _positions(3, seed=9, count=1)[0]
        agent.act(SeatView(g, g.current))  # a Seers Catalog view


def test_guided_search_refuses_a_table_its_model_was_not_trained_for(shipped_only):
    shipped_only(3, 4)  # a folder of shipped models without a 5-player one
    agent = GuidedSearchAgent(iterations=3, seed=0)
    with pytest.raises(ValueError, match="5 players"):
        agent.check_use(5, GameConfig(n_players=5).artifact_deck)
    net, config = _untrained(4)
    with pytest.raises(ValueError, match="players"):
        GuidedSearchAgent(iterations=3, model=(net, model_config(3, config.artifact_deck))).check_use(
            4, config.artifact_deck)


# --- the spec string ----------------------------------------------------------------------------------


def test_spec_builds_the_agent_with_its_budget(search_spec, tmp_path):
    agent = make_agent("learned+search:17", seed=4)
    assert isinstance(agent, GuidedSearchAgent) and agent.iterations == 17 and agent.name == "learned+search:17"
    assert make_agent("learned+search:0.25s").seconds == 0.25
    path = tmp_path / "m.pt"
    from train.scoring_policy import save_policy

    save_policy(*_untrained(4), path)
    assert make_agent(f"learned+search:5:{path}").learned.path == str(path)
    assert "learned+search:<iterations>" in agent_specs.VALID_SPECS
    weighted = make_agent(f"learned+search:5:worlds=8:{path}")
    assert (weighted.worlds, weighted.inference, weighted.learned.path) == (8, "policy", str(path))
    assert make_agent("learned+search:5").worlds == 0
    assert make_agent("learned+search:5: Worlds =000008").worlds == 8
    mixture = make_agent(f"learned+search:5:worlds=8:opponents=mixture:{path}")
    assert (mixture.worlds, mixture.opponents, mixture.learned.path) == (8, "mixture", str(path))
    assert make_agent("learned+search:5:opponents=Network:worlds=8").opponents == "network"
    assert make_agent("learned+search:5:worlds=8").opponents == "network"


def test_spec_worlds_option_plays_with_a_weighted_pool(search_spec):
    """``worlds=<M>``: the pool is drawn and weighted at a decision (its effective size is recorded)."""
    from seers_env.game import Game, GameConfig
    from seers_env.view import SeatView

    game = Game(GameConfig(n_players=4, n_rounds=1), seed=11)
    heuristic = make_agent("heuristic", seed=0)
    while game.current != 0 or len(SeatView(game, 0).legal_plays()) < 2 or len(game.events) < 6:
        game.apply(heuristic.act(SeatView(game, game.current)))
    view = SeatView(game, 0)
    for opponents in ("network", "mixture"):
        agent = make_agent(f"learned+search:4:worlds=6:opponents={opponents}", seed=3)
        play = agent.act(view)
        assert play.identity() in {q.identity() for q in view.legal_plays()}
        assert 1.0 <= agent.last_effective_worlds <= 6.0
        assert agent.guide.opponents == opponents


@pytest.mark.parametrize("spec, message", [
    ("learned+search", "needs a search budget"),
    ("learned+search:", "needs a search budget"),
    ("learned+search:0", "bad search budget '0'"),
    ("learned+search:-5", "bad search budget '-5'"),
    ("learned+search:1.5", "bad search budget '1.5'"),
    ("learned+search:abc", "bad search budget 'abc'"),
    ("learned+search:0s", "bad search budget '0s'"),
    ("learned+search:-1s", "bad search budget '-1s'"),
    ("learned+search:infs", "bad search budget 'infs'"),
    ("learned+search:5:/no/such/model.pt", "no play-scoring model at '/no/such/model.pt'"),
    ("learned+search:5:worlds=0", "bad worlds '0'"),
    ("learned+search:5:worlds=", "bad worlds ''"),
    ("learned+search:5:worlds=-3", "bad worlds '-3'"),
    ("learned+search:5:worlds=2.5", "bad worlds '2.5'"),
    ("learned+search:5:worlds=100000", "bad worlds '100000'"),
    ("learned+search:5:worlds=\u00b2", "bad worlds '\u00b2'"),
    ("learned+search:5:inference=rules", "unknown option 'inference=rules'"),
    ("learned+search:5:worlds=8:worlds=9", "repeated option 'worlds=9'"),
    ("learned+search:5:opponents=mixture", "opponents= models the other seats in the weights of worlds"),
    ("learned+search:5:worlds=8:opponents=ismcts", "bad opponents 'ismcts'"),
    ("learned+search:5:worlds=8:opponents=", "bad opponents ''"),
    ("learned+search:5:worlds=8:opponents=mixture:opponents=network", "repeated option 'opponents=network'"),
    ("learned+search:5:worlds=8:/no/such/model.pt", "no play-scoring model at '/no/such/model.pt'"),
    ("learned+search:5:leaf=deep", "bad leaf 'deep'"),
    ("learned+search:5:leaf=", "bad leaf ''"),
    ("learned+search:5:leaf=mixed:leaf=value", "repeated option 'leaf=value'"),
    ("learned+search:5:c_puct=-1", "bad c_puct '-1'"),
    ("learned+search:5:c_puct=", "bad c_puct ''"),
    ("learned+search:5:c_puct=nan", "bad c_puct 'nan'"),
    ("learned+search:5:c_puct=1e3", "bad c_puct '1e3'"),
    ("learned+search:5:c_puct=100.5", "bad c_puct '100.5'"),
    ("learned+search:5:c_puct=1:c_puct=2", "repeated option 'c_puct=2'"),
    ("learned+search:5:temperature=0", "bad temperature '0'"),
    ("learned+search:5:temperature=0.0", "bad temperature '0.0'"),
    ("learned+search:5:temperature=inf", "bad temperature 'inf'"),
])
def test_bad_spec_strings_are_clear_errors(search_spec, spec, message):
    with pytest.raises(ValueError, match=message) as err:
        make_agent(spec)
    assert spec in str(err.value) or "/no/such" in str(err.value)


def test_spec_refuses_games_without_a_learner(search_spec, monkeypatch):
    from seers_env import games

    monkeypatch.setattr(agent_specs, "game_spec", lambda name: None)  # a registered game the learner lacks
    assert "seers_catalog" in games.GAMES
    with pytest.raises(ValueError, match="plays seers_catalog, scout, seals and haggis, not 'chess'"):
        make_agent("learned+search:5", game="chess")


def test_spec_worlds_option_is_seers_catalog_only(search_spec):
    with pytest.raises(ValueError, match="only Seers Catalog's determinizer"):
        make_agent("learned+search:5:worlds=8", game="scout")
    with pytest.raises(ValueError, match=re.escape("use learned+search:5:m.pt for 'scout'")):
        make_agent("learned+search:5:worlds=8:m.pt", game="scout")
    with pytest.raises(ValueError, match=re.escape("use learned+search:5:leaf=mixed for 'scout'")):
        make_agent("learned+search:5:leaf=mixed:worlds=4", game="scout")
    # the advice keeps the search's other options: without them it would name another search
    with pytest.raises(ValueError, match=re.escape("use learned+search:5:c_puct=2:leaf=mixed:temperature=0.5:m.pt "
                                                   "for 'seals'")):
        make_agent("learned+search:5:c_puct=2:worlds=4:leaf=mixed:temperature=0.5:m.pt", game="seals")
    for game in ("scout", "seals", "haggis"):  # not "give both" first: that would fail next
        with pytest.raises(ValueError, match=re.escape(f"only Seers Catalog's determinizer does; use "
                                                       f"learned+search:5 for '{game}'")):
            make_agent("learned+search:5:opponents=mixture", game=game)


class _CountingGuide(NetworkGuide):
    """A :class:`NetworkGuide` that counts the positions it is asked for priors."""

    calls = 0

    def priors(self, view):
        type(self).calls += 1
        return super().priors(view)


class _NoKeptPriors(ISMCTSAgent):
    """The search without the priors a node keeps per world (every visit asks the guide)."""

    def _descend_puct(self, root, game, start_round, parts, root_prior, root_visits, world=None):
        return super()._descend_puct(root, game, start_round, parts, root_prior, root_visits, None)


@pytest.mark.parametrize("opponents", ["network", "mixture"])
def test_kept_priors_per_world_change_no_choice_and_ask_the_guide_less(opponents):
    """In a pool of weighted worlds the same world and path reach the same position, so the priors a
    node keeps per world give the same choices and root statistics as asking the guide every time."""
    net, _ = cached_policy(str(REPO / "train/models/learned_4p.pt"))
    views = [SeatView(g, g.current) for g in _positions(4, seed=21, count=8)[4:]]
    calls = {}
    for cls in (ISMCTSAgent, _NoKeptPriors):
        agent = cls(iterations=60, seed=5, worlds=8, inference="policy", c_puct=1.5,
                    guide=_CountingGuide(net, temperature=3.0, opponents=opponents), leaf="value")
        _CountingGuide.calls = 0
        calls[cls] = ([(agent.act(v), dict(agent.last_visits)) for v in views], _CountingGuide.calls)
    kept, fresh = calls[ISMCTSAgent], calls[_NoKeptPriors]
    assert kept[0] == fresh[0]
    assert kept[1] < fresh[1]


def test_mixed_leaf_is_the_value_at_weight_0_the_rollout_at_1_and_between_otherwise():
    """``leaf="mixed"``: ``(1 - leaf_mix) * value + leaf_mix * rollout`` at each new leaf (AlphaGo)."""
    net, _ = cached_policy(str(REPO / "train/models/learned_4p.pt"))
    g = _positions(4, seed=31, count=3)[2]
    view = SeatView(g, g.current)

    def search(**kw):
        agent = ISMCTSAgent(iterations=40, seed=9, guide=NetworkGuide(net, temperature=3.0), **kw)
        play = agent.act(view)
        return play, agent.last_visits

    value, rollout = search(leaf="value"), search(leaf="rollout")
    assert search(leaf="mixed", leaf_mix=0.0) == value
    assert search(leaf="mixed", leaf_mix=1) == rollout
    half = search(leaf="mixed", leaf_mix=0.5)[1]
    assert half != value[1] and half != rollout[1]


class _LeafSpy(ISMCTSAgent):
    """Records each leaf's value estimate and rollout result beside the mixed reward."""

    def _leaf_rewards(self, game, start_round, parts):
        probe = game.clone()
        self.leaf, mixed = "value", None
        value = super()._leaf_rewards(probe.clone(), start_round, parts)
        self.leaf = "rollout"
        rolled = super()._leaf_rewards(probe.clone(), start_round, parts)
        self.leaf = "mixed"
        mixed = super()._leaf_rewards(game, start_round, parts)
        self.seen.append((value, rolled, mixed))
        return mixed


def test_mixed_leaf_rewards_are_the_weighted_sum_for_every_seat():
    net, _ = cached_policy(str(REPO / "train/models/learned_4p.pt"))
    g = _positions(4, seed=32, count=2)[1]
    agent = _LeafSpy(iterations=12, seed=1, guide=NetworkGuide(net), leaf="mixed", leaf_mix=0.3)
    agent.seen = []
    agent.act(SeatView(g, g.current))
    assert len(agent.seen) == 12
    for value, rolled, mixed in agent.seen:
        assert len(mixed) == 4
        assert mixed == pytest.approx([0.7 * v + 0.3 * r for v, r in zip(value, rolled)])


@pytest.mark.parametrize("bad, kind", [(-0.1, ValueError), (1.5, ValueError), (math.nan, ValueError),
                                       (True, TypeError), ("0.5", TypeError), ([0.5], TypeError)])
def test_bad_leaf_mix_is_a_clear_error(bad, kind):
    net, _ = cached_policy(str(REPO / "train/models/learned_4p.pt"))
    with pytest.raises(kind, match=re.escape(f"leaf_mix={bad!r}")):
        ISMCTSAgent(guide=NetworkGuide(net), leaf="mixed", leaf_mix=bad)
    with pytest.raises(ValueError, match="leaf='mixed' needs a guide"):
        ISMCTSAgent(leaf="mixed")
    with pytest.raises(ValueError, match="leaf='value' takes none"):
        ISMCTSAgent(guide=NetworkGuide(net), leaf="value", leaf_mix=0.3)


def test_leaf_mix_takes_numpy_and_fraction_weights():
    from fractions import Fraction

    net, _ = cached_policy(str(REPO / "train/models/learned_4p.pt"))
    for weight in (np.float32(0.25), np.int64(1), Fraction(1, 4)):
        assert ISMCTSAgent(guide=NetworkGuide(net), leaf="mixed", leaf_mix=weight).leaf_mix == float(weight)


class _CountingValues(NetworkGuide):
    """Counts the positions whose values are asked for."""

    asked = 0

    def values(self, game):
        type(self).asked += 1
        return super().values(game)


def test_mixed_leaf_at_weight_0_plays_no_rollout_and_at_1_asks_no_value():
    """At 0 the rollout (and its random draws) is skipped: the random-rollout search equals the value
    leaf; at 1 the guide's values are never asked."""
    net, _ = cached_policy(str(REPO / "train/models/learned_4p.pt"))
    g = _positions(4, seed=34, count=2)[1]
    view = SeatView(g, g.current)

    def search(**kw):
        agent = ISMCTSAgent(iterations=30, seed=4, rollout="random", guide=_CountingValues(net), **kw)
        return agent.act(view), agent.last_visits

    assert search(leaf="mixed", leaf_mix=0) == search(leaf="value")
    _CountingValues.asked = 0
    assert search(leaf="mixed", leaf_mix=1.0) == search(leaf="rollout")
    assert _CountingValues.asked == 0


def test_spec_tuning_options_set_c_puct_and_the_prior_temperature(search_spec):
    default = make_agent("learned+search:5", seed=1)
    assert (default.c_puct, default.temperature) == (1.5, 3.0)
    tuned = make_agent("learned+search:5:C_PUCT = 0.75:temperature=1.5:leaf=mixed", seed=1)
    assert (tuned.c_puct, tuned.temperature, tuned.leaf) == (0.75, 1.5, "mixed")
    assert make_agent("learned+search:5:c_puct=0", seed=1).c_puct == 0.0
    assert make_agent("learned+search:5:temperature=.5", game="scout", seed=1).temperature == 0.5
    g = _positions(4, seed=33, count=1)[0]
    view = SeatView(g, g.current)
    tuned.act(view)
    assert tuned.guide.temperature == 1.5  # the guide's priors use the spec's temperature


def test_spec_leaf_option_sets_the_leaf_evaluation_in_every_game(search_spec):
    for spec, leaf in (("learned+search:5", "value"), ("learned+search:5:leaf=mixed", "mixed"),
                       ("learned+search:5:leaf=ROLLOUT", "rollout"),
                       ("learned+search:5:leaf=mixed:worlds=4:opponents=mixture", "mixed")):
        agent = make_agent(spec, seed=1)
        assert agent.leaf == leaf and agent.leaf_mix == 0.5
    g = _positions(4, seed=33, count=1)[0]
    view = SeatView(g, g.current)
    assert make_agent("learned+search:6:leaf=mixed", seed=2).act(view) in view.legal_plays()
    assert make_agent("learned+search:5:leaf=mixed", game="scout", seed=1).leaf == "mixed"
