"""Many Seals games stepped together, for learners: stacked observations, masks and rewards.

:class:`SealsVectorEnv` holds ``num_envs`` games of the AEC environment (:mod:`seers_env.seals_v0`) and
steps them with one action each (:mod:`seers_env.seals.actions`: one id per play). It is a
``gymnasium.vector.VectorEnv`` with the conventions of :class:`seers_env.haggis.vector.HaggisVectorEnv`:

* spaces: ``single_observation_space`` is the AEC env's (``Dict(observation=Box(0, 50, (404,)),
  action_mask=Box(0, 1, (12304,), int8))``), ``single_action_space`` ``Discrete(12304)``;
  ``observation_space`` and ``action_space`` their batches (``gymnasium.vector.utils.batch_space``);
* observations: ``{"observation": float32 (N, 404), "action_mask": int8 (N, 12304)}``, the acting seat's
  (the AEC env's, stacked; a take that completes a set is followed by the same seat's declaration,
  ``infos["stage"] == 1``);
* rewards: float32 ``(N,)``, the reward of the seat that acted in that row, as the AEC env gives it
  (``"score"``: the Marks of the round when a round ends; ``"win"``: the placement reward when the game
  ends); every seat's reward of the step is in ``infos["rewards"]``, float32 ``(N, n_players)`` by absolute
  seat;
* terminations / truncations: bool ``(N,)``: the game ended with this step; truncated (and not terminated)
  exactly when its last round was cut by ``max_turns_per_round``, as in the AEC env;
* autoreset in the same step (``metadata["autoreset_mode"] == AutoresetMode.SAME_STEP``): a game that ends
  is replaced at once by the next game of its slot, dealt from the slot's generator as
  ``raw_env.reset()`` deals it, so the returned row is the new game's first decision;
* infos: :data:`INFO_KEYS` at reset and at every step, each with its ``_key`` mask (all true): ``seat`` and
  ``stage`` (int64 ``(N,)``: 0 take, 1 declare), ``rewards`` (above; zeros at reset) and ``totals`` (int64
  ``(N, n_players)``, the final Marks of the games that ended with this step, zeros elsewhere).

Every returned array is new (nothing aliases the environment's state).

**Seeds.** ``reset(seed=s)`` seeds slot ``i`` with :func:`slot_seed(s, i) <slot_seed>`
(:func:`seers_env.seeding.child_seed`, as the other batch APIs); ``reset(seed=[...])`` seeds each slot
directly; ``None`` entries (or ``seed=None``) take fresh entropy. Slot ``i`` plays the games of
``raw_env().reset(seed=slot seed)`` followed by ``reset()`` after each game (``tests/test_seals_vector.py``
steps both and compares). All randomness comes from the slots' seeded ``numpy`` generators.

**Positions.** ``reset(options={"games": {slot: SealsGame.to_dict(), ...}})`` (or a list of ``num_envs``
dicts and ``None``\\ s) starts those slots as ``raw_env().reset(seed=slot seed, options={"game": ...})``
does (the slot's later games are dealt from its generator, as that env's next ``reset()`` deals them).

**Play level** (play-scoring learners): :meth:`SealsVectorEnv.play_features` gives every game's state row
(:func:`seers_env.seals.features.encode_state`) and one feature row per legal play
(:func:`~seers_env.seals.features.encode_plays`, ``SealsGame.legal_plays()`` order: takes at stage 0,
declarations at stage 1); :meth:`SealsVectorEnv.step_plays` makes play ``indices[i]`` of game ``i``, the
same transition as :meth:`~SealsVectorEnv.step` with that play's action id (every Seals play is one action).

**How it runs.** The slots are stepped one after another in Python on the rules engine
(:class:`~seers_env.seals.game.SealsGame`: its legal action ids and transitions; each action is checked
against the slot's legal ids, then made with ``SealsGame.apply_legal``), without PettingZoo's bookkeeping.
The observations and masks are written straight into new batch arrays, with one NumPy scatter for the whole
batch: :func:`seers_env.seals.observation.observe_into` (equal to the AEC env's ``observe``, bit for bit) and
the masks from each slot's ``SealsGame.legal_actions()``; nothing is built per row and copied.
No compiled code; :func:`vector_rates` measures it (``docs/seals_speed.md``: ``step()`` runs about 3.7x
the AEC env per game at 3 players, one thread).
"""

from __future__ import annotations

from dataclasses import fields

import numpy as np
from gymnasium.vector import AutoresetMode

from .. import python_vector, vector_slots
from .actions import N_ACTIONS
from .features import PLAY_DIM, STATE_DIM, encode_plays, encode_state
from .game import PHASE_TAKE, SealsConfig, SealsGame
from .observation import OBS_BOUND, OBS_DIM, observe_into
from .plays import DECLARE, N_TAKES, SealsPlay
from .rulings import REASON_TRUNCATED
from .view import SealsSeatView

#: Reward modes, as in :mod:`seers_env.seals_v0`.
REWARD_MODES = ("score", "win")
#: :class:`~seers_env.seals.game.SealsConfig` fields the environment takes besides ``n_players``.
CONFIG_FIELDS = tuple(f.name for f in fields(SealsConfig) if f.name != "n_players")
#: The keys of the vector env's infos (each with its ``_key`` mask), at reset and at every step.
INFO_KEYS = ("seat", "stage", "rewards", "totals")


#: The shared pieces (:mod:`seers_env.vector_slots`), under this module's names.
slot_seed = vector_slots.slot_seed
VectorResetNeeded = vector_slots.VectorResetNeeded
SealsPlayFeatures = vector_slots.PlayFeatures


#: The take plays by action id (ids ``0..15``); a declaration's id is ``N_TAKES`` plus its value.
_TAKE_PLAYS = tuple(SealsPlay.from_action(a) for a in range(N_TAKES))


def _play_of(code: int) -> SealsPlay:
    """The play of action id ``code`` (an int in ``0..N_ACTIONS - 1``, checked by the caller)."""
    return _TAKE_PLAYS[code] if code < N_TAKES else SealsPlay(DECLARE, code - N_TAKES)


class _Slot:
    """One game of the batch: its generator, game and the action ids of its pending decision (ascending)."""

    __slots__ = ("actions", "game", "rng")

    def __init__(self, rng: np.random.Generator, game: SealsGame):
        self.rng = rng
        self.game = game
        self.actions = game.legal_actions()


class SealsVectorEnv(python_vector.PythonVectorEnv):
    """``num_envs`` Seals games stepped together, a ``gymnasium.vector.VectorEnv`` (module docstring).

    Args:
        num_envs: games in flight, at least 1.
        n_players: 2, 3 or 4.
        reward_mode: ``"score"`` or ``"win"``, as in the AEC environment.
        **config: the other :class:`~seers_env.seals.game.SealsConfig` fields (:data:`CONFIG_FIELDS`).

    Attributes:
        games: copies of the slots' :class:`~seers_env.seals.game.SealsGame` (``[]`` before ``reset()`` and after
            ``close()``; changing one changes nothing here). config: the config of every game. closed: Gymnasium's flag.

    Raises:
        ValueError: ``num_envs < 1``, an unknown reward mode, a bad config value (``n_players`` outside 2..4
            too). TypeError: an unknown config field, or a field of the wrong type.
    """

    metadata = {"name": "seals_v0_vector", "autoreset_mode": AutoresetMode.SAME_STEP}
    title, game_class, config_class = "Seals", SealsGame, SealsConfig
    reward_modes, config_fields = REWARD_MODES, CONFIG_FIELDS
    obs_bound, obs_dim, n_actions, state_dim, play_dim = OBS_BOUND, OBS_DIM, N_ACTIONS, STATE_DIM, PLAY_DIM
    view_class, encode_state, encode_plays = SealsSeatView, staticmethod(encode_state), staticmethod(encode_plays)
    slot_class = _Slot
    features_class = SealsPlayFeatures

    # --- game hooks (python_vector.PythonVectorEnv) ------------------------------------------------------
    def _observations(self) -> dict[str, np.ndarray]:
        """The batch's observations and masks, written straight into new arrays (no per-row copies)."""
        obs = np.empty((self.num_envs, OBS_DIM), np.float32)
        observe_into(obs, [s.game for s in self._slots])
        return {"observation": obs, "action_mask": self._masks()}

    def _masks(self) -> np.ndarray:
        """int8 ``(num_envs, N_ACTIONS)``, a new array: 1 at every slot's legal action ids."""
        masks = np.zeros((self.num_envs, N_ACTIONS), np.int8)
        ids, counts = [], []
        for s in self._slots:
            ids += s.actions
            counts.append(len(s.actions))
        masks[np.repeat(np.arange(self.num_envs), counts), ids] = 1
        return masks

    def action_masks(self) -> np.ndarray:
        """int8 ``(num_envs, N_ACTIONS)``: the current action masks (a new array).

        Raises:
            VectorResetNeeded: before ``reset()`` or after ``close()``.
        """
        self._check_open("action_masks")
        return self._masks()

    def _mask(self, s: _Slot) -> np.ndarray:
        mask = np.zeros(N_ACTIONS, np.int8)
        mask[s.actions] = 1
        return mask

    def _allowed(self, s: _Slot, code: int) -> bool:
        return code in s.actions

    def _stages(self) -> list[int]:
        return [0 if s.game.phase == PHASE_TAKE else 1 for s in self._slots]

    def _truncated(self, result) -> bool:
        return result.round_end_reason == REASON_TRUNCATED

    def _apply_all(self, plays: list[SealsPlay]) -> tuple[dict, np.ndarray, np.ndarray, np.ndarray, dict]:
        """Apply ``plays[i]`` (legal, checked) in game ``i``: rewards, ends and autoresets; the step's results."""
        acted = self._begin()
        for i, (slot, play) in enumerate(zip(self._slots, plays)):
            self._settle(i, slot, slot.game.apply_legal(play))
            slot.actions = slot.game.legal_actions()
        return self._results(acted)

    def _apply_actions(self, slots: list[_Slot], actions: list[int]):
        return self._apply_all([_play_of(code) for code in actions])

    def _legal_lists(self) -> list:
        return [s.game.legal_plays() for s in self._slots]

    def _apply_plays(self, slots: list[_Slot], chosen: list[SealsPlay]):
        return self._apply_all(chosen)


def vector_rates(num_envs: int = 256, n_players: int = 3, seconds: float = 3.0, seed: int = 0) -> dict[str, float]:
    """Throughput of random legal play on :class:`SealsVectorEnv` (one thread): ``{"steps_per_s": rows of
    :meth:`~SealsVectorEnv.step` per second, "plays_per_s": rows of :meth:`~SealsVectorEnv.play_features`
    then :meth:`~SealsVectorEnv.step_plays` per second}``, each over about ``seconds`` after one untimed
    call; choices from ``numpy.random.default_rng(seed)``."""
    return python_vector.rates(SealsVectorEnv, num_envs, n_players, seconds, seed)


def _bench(argv: list[str] | None = None) -> None:
    """Throughput of the Seals batch API at 2, 3 and 4 players, one thread (:func:`vector_rates`)."""
    python_vector.bench(argv, "seals", vector_rates, "SealsVectorEnv", (2, 3, 4))


__all__ = ["CONFIG_FIELDS", "INFO_KEYS", "REWARD_MODES", "SealsPlayFeatures", "SealsVectorEnv", "VectorResetNeeded",
           "slot_seed", "vector_rates"]

if __name__ == "__main__":
    _bench()
