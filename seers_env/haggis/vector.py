"""Many Haggis games stepped together, for learners: stacked observations, masks and rewards.

:class:`HaggisVectorEnv` holds ``num_envs`` games of the AEC environment (:mod:`seers_env.haggis_v0`) and
steps them with one catalogue action each (:mod:`seers_env.haggis.actions`). It is a
``gymnasium.vector.VectorEnv`` with the conventions of :class:`seers_env.scout.vector.ScoutVectorEnv`:

* spaces: ``single_observation_space`` is the AEC env's (``Dict(observation=Box(0, 10, (274,)),
  action_mask=Box(0, 1, (814,), int8))``), ``single_action_space`` ``Discrete(814)``; ``observation_space``
  and ``action_space`` their batches (``gymnasium.vector.utils.batch_space``);
* observations: ``{"observation": float32 (N, 274), "action_mask": int8 (N, 814)}``, the acting seat's
  (the AEC env's, stacked; the cards of a combination are decisions of the same seat, ``infos["stage"] ==
  1``);
* rewards: float32 ``(N,)``, the reward of the seat that acted in that row, as the AEC env gives it
  (``"score"``: the round scores when a round ends; ``"win"``: the placement reward when the game ends);
  every seat's reward of the step is in ``infos["rewards"]``, float32 ``(N, n_players)`` by absolute seat;
* terminations: bool ``(N,)``, the game ended with this step; truncations: always false (Haggis has no
  turn cap; a game capped at ``rulings.MAX_ROUNDS`` rounds ends, as in the AEC env, by termination);
* autoreset in the same step (``metadata["autoreset_mode"] == AutoresetMode.SAME_STEP``): a game that ends
  is replaced at once by the next game of its slot, dealt from the slot's generator as
  ``raw_env.reset()`` deals it, so the returned row is the new game's first decision;
* infos: :data:`INFO_KEYS` at reset and at every step, each with its ``_key`` mask (all true): ``seat`` and
  ``stage`` (int64 ``(N,)``), ``rewards`` (above; zeros at reset) and ``totals`` (int64 ``(N, n_players)``,
  the final totals of the games that ended with this step, zeros elsewhere).

**Seeds.** ``reset(seed=s)`` seeds slot ``i`` with :func:`slot_seed(s, i) <slot_seed>`
(:func:`seers_env.seeding.child_seed`, as the SCOUT and Seers Catalog batch APIs); ``reset(seed=[...])``
seeds each slot directly. Slot ``i`` plays the games of ``raw_env().reset(seed=slot seed)`` followed by
``reset()`` after each game (``tests/test_haggis_vector.py`` steps both and compares).

**Positions.** ``reset(options={"games": {slot: HaggisGame.to_dict(), ...}})`` (or a list of ``num_envs``
dicts and ``None``\\ s) starts those slots as ``raw_env().reset(seed=slot seed, options={"game": ...})``
does (the slot's later games are dealt from its generator, as that env's next ``reset()`` deals them).

**Play level** (play-scoring learners): :meth:`HaggisVectorEnv.play_features` gives every game's state row
(:func:`seers_env.haggis.features.encode_state`) and one feature row per legal play
(:func:`~seers_env.haggis.features.encode_plays`, ``HaggisGame.legal_plays()`` order);
:meth:`HaggisVectorEnv.step_plays` makes one whole play per game by its index in that list (the same
transition as stepping its catalogue codes one by one). While a game is inside a combination (stage 1),
:meth:`~HaggisVectorEnv.step_plays` raises: finish it with :meth:`~HaggisVectorEnv.step`.

**How it runs.** The slots are stepped one after another in Python, each on the compiled path of the AEC
environment (:mod:`seers_env.haggis.fast`: the compiled stage-0 masks and observations of
:mod:`seers_env.haggis.kernel`; the rules engine :class:`~seers_env.haggis.game.HaggisGame` applies the
plays), without PettingZoo's bookkeeping. Not a compiled batch kernel: its throughput is about the AEC
env's per game (``docs/haggis_speed.md``).
"""

from __future__ import annotations

import numpy as np
from gymnasium.vector import AutoresetMode

from .. import python_vector, vector_slots
from .actions import N_ACTIONS
from .fast import CompiledDecision, legal_plays_with_combos, observe_packed, pack_game
from .features import PLAY_DIM, STATE_DIM, encode_plays, encode_state
from .game import HaggisConfig, HaggisGame
from .observation import OBS_BOUND, OBS_DIM
from .view import HaggisSeatView

#: Reward modes, as in :mod:`seers_env.haggis_v0`.
REWARD_MODES = ("score", "win")
#: :class:`~seers_env.haggis.game.HaggisConfig` fields the environment takes besides ``n_players``.
CONFIG_FIELDS = ("target", "n_rounds", "tie_leader", "card_points")
#: The keys of the vector env's infos (each with its ``_key`` mask), at reset and at every step.
INFO_KEYS = ("seat", "stage", "rewards", "totals")


#: The shared pieces (:mod:`seers_env.vector_slots`), under this module's names.
slot_seed = vector_slots.slot_seed
VectorResetNeeded = vector_slots.VectorResetNeeded
HaggisPlayFeatures = vector_slots.PlayFeatures


class _Slot:
    """One game of the batch: its generator, game, pending decision and packed game."""

    __slots__ = ("rng", "game", "decision", "packed", "totals")

    def __init__(self, rng: np.random.Generator, game: HaggisGame):
        self.rng = rng
        self.game = game
        self.totals = (-1, [])  # (rounds scored, game.totals)
        self.new_decision()

    def new_decision(self) -> None:
        game = self.game
        if self.totals[0] != len(game._round_scores):
            self.totals = (len(game._round_scores), game.totals)
        self.decision = CompiledDecision(game)
        self.packed = pack_game(game, self.totals[1])


class HaggisVectorEnv(python_vector.PythonVectorEnv):
    """``num_envs`` Haggis games stepped together, a ``gymnasium.vector.VectorEnv`` (module docstring).

    Args:
        num_envs: games in flight, at least 1.
        n_players: 2 or 3.
        reward_mode: ``"score"`` or ``"win"``, as in the AEC environment.
        **config: the other :class:`~seers_env.haggis.game.HaggisConfig` fields (:data:`CONFIG_FIELDS`).

    Attributes:
        games: copies of the slots' :class:`~seers_env.haggis.game.HaggisGame` (``[]`` before ``reset()`` and after
            ``close()``; changing one changes nothing here). config: the config of every game. closed: Gymnasium's flag.

    Raises:
        ValueError: ``num_envs < 1``, an unknown reward mode, a bad config value. TypeError: an unknown
            config field, or a field of the wrong type.
    """

    metadata = {"name": "haggis_v0_vector", "autoreset_mode": AutoresetMode.SAME_STEP}
    title, game_class, config_class = "Haggis", HaggisGame, HaggisConfig
    reward_modes, config_fields = REWARD_MODES, CONFIG_FIELDS
    obs_bound, obs_dim, n_actions, state_dim, play_dim = OBS_BOUND, OBS_DIM, N_ACTIONS, STATE_DIM, PLAY_DIM
    view_class, encode_state, encode_plays = HaggisSeatView, staticmethod(encode_state), staticmethod(encode_plays)
    slot_class = _Slot
    features_class = HaggisPlayFeatures

    # --- game hooks (python_vector.PythonVectorEnv) ------------------------------------------------------
    def _observe(self, s: _Slot) -> np.ndarray:
        return observe_packed(s.packed, s.game.current, s.decision)

    def _mask(self, s: _Slot) -> np.ndarray:
        return s.decision.mask()

    def _allowed(self, s: _Slot, code: int) -> bool:
        return s.decision.allowed(code)

    def _stages(self) -> list[int]:
        return [s.decision.stage for s in self._slots]

    def _finish(self, i: int, slot: _Slot, play, combo) -> None:
        """Apply the finished ``play`` of slot ``i``: rewards, the game's end and the autoreset."""
        if self._settle(i, slot, slot.game.apply_legal(play, combo)):
            slot.totals = (-1, [])
        slot.new_decision()

    def _apply_actions(self, slots: list[_Slot], actions: list[int]):
        acted = self._begin()
        for i, (s, code) in enumerate(zip(slots, actions)):
            play = s.decision.choose(code)
            if play is not None:
                self._finish(i, s, play, s.decision.combo_for(play))
        return self._results(acted)

    def _legal_lists(self) -> list:
        """Each game's legal plays with combos (``fast.legal_plays_with_combos``, also kept as the game's
        own cache of that same list, so ``legal_plays()`` and the features read it)."""
        if self._plays is None:
            plays = []
            for s in self._slots:
                game = s.game
                if game._legal is None:
                    game._legal = legal_plays_with_combos(game)
                plays.append(game.legal_plays_with_combos())
            self._plays = plays
        return self._plays

    def _feature_plays(self, legal: list) -> list:
        return [p for p, _ in legal]

    def _check_plays(self, slots: list[_Slot]) -> None:
        for i, s in enumerate(slots):
            if s.decision.stage != 0:
                raise RuntimeError(f"row {i} is inside a combination (stage 1); finish it with step() first")

    def _apply_plays(self, slots: list[_Slot], chosen: list):
        acted = self._begin()
        for i, (s, (play, combo)) in enumerate(zip(slots, chosen)):
            self._finish(i, s, play, combo)
        return self._results(acted)

    # --- step_plays refuses a game inside a combination ------------------------------------------------
    def step_plays(self, indices) -> tuple[dict, np.ndarray, np.ndarray, np.ndarray, dict]:
        """Make one whole play in every game: play ``indices[i]`` of game ``i``'s legal list
        (:meth:`play_features` order). Returns what :meth:`step` returns.

        Raises:
            VectorResetNeeded: before ``reset()`` or after ``close()``. RuntimeError: a game is inside a
                combination (stage 1; finish it with :meth:`step`). TypeError: a non-integer dtype.
                ValueError: a wrong shape. IndexError: an index outside its game's legal plays (the message
                names the row, the value and the allowed range). Nothing changes on any error.
        """
        return super().step_plays(indices)


def vector_rates(num_envs: int = 256, n_players: int = 3, seconds: float = 3.0, seed: int = 0) -> dict[str, float]:
    """Throughput of random legal play on :class:`HaggisVectorEnv` (one thread): ``{"steps_per_s": catalogue
    steps of :meth:`~HaggisVectorEnv.step` (every row one step), "plays_per_s": whole plays of
    :meth:`~HaggisVectorEnv.play_features` then :meth:`~HaggisVectorEnv.step_plays`}``, each over about
    ``seconds`` after one untimed call; choices from ``numpy.random.default_rng(seed)``."""
    return python_vector.rates(HaggisVectorEnv, num_envs, n_players, seconds, seed)


def _bench(argv: list[str] | None = None) -> None:
    """Throughput of the Haggis batch API at 2 and 3 players, one thread (:func:`vector_rates`)."""
    python_vector.bench(argv, "haggis", vector_rates, "HaggisVectorEnv", (2, 3))


__all__ = ["CONFIG_FIELDS", "INFO_KEYS", "REWARD_MODES", "HaggisPlayFeatures", "HaggisVectorEnv", "VectorResetNeeded",
           "slot_seed", "vector_rates"]

if __name__ == "__main__":
    _bench()
