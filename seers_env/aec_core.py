"""Compiled step of the AEC environment (:mod:`seers_env.seers_catalog_v0`) on a one-slot game kernel.

The AEC environment keeps its game in slot 0 of a :class:`~seers_env.engine.kernel.KernelGames` and its
pending decision in the rows of :mod:`seers_env.vector_core` (``keys``, ``nkeys``, ``cands``, ``dec``, each
with a first axis of length 1). One call of :func:`step_slot` takes an agent's action: it narrows the
decision (``Decision.choose``), applies a completed play (``Game.apply``), lists the next seat's legal
plays and writes its action mask and observation, all in compiled code (numba, ``cache=True``). The
first decision of a game is written by :func:`seers_env.vector_core.start_all`.

Dealing (a round is drawn ahead, :meth:`KernelGames.refill`), rewards, infos and the PettingZoo
bookkeeping stay in Python, in the environment.
"""

from __future__ import annotations

from .engine import kernel
from .engine.jit import njit
from .engine.kernel import S_OVER
from .vector_core import choose, new_decision, write_mask, write_obs

#: :func:`step_slot` status: the next decision's mask and observation are written.
DECISION = 0
#: :func:`step_slot` status: the play ended the game; nothing else is written (the decision rows still
#: hold the decision that was completed).
GAME_OVER = 1


@njit(cache=True)
def step_slot(cards, scal, scores, keys, nkeys, cands, dec, action, obs, masks, buf, tmp):
    """Take ``action`` in slot 0's pending decision; apply the play once it is complete.

    Args:
        cards, scal, scores: the kernel state (:mod:`seers_env.engine.kernel`), first axis of length 1.
        keys, nkeys, cands, dec: slot 0's decision rows (:mod:`seers_env.vector_core`).
        action: an action its mask allows (not checked here: compiled code has no bounds checks).
        obs: float32 ``(1, OBS_DIM)``, masks: int8 ``(1, N_ACTIONS)``: where the next decision's observation
            and action mask are written.
        buf: int64 scratch of ``68 + 160`` entries; tmp: int64 scratch of 68 entries.

    Returns:
        ``(key, status)``. ``key == -1``: the same seat has a further choice (rules of
        :class:`seers_env.actions.Decision`); its mask and observation are written and ``status`` is
        :data:`DECISION`. Otherwise ``key`` is the play key applied (``scal[0, S_OUTCOME]`` tells what it
        ended) and ``status`` is :data:`DECISION` (the next seat's decision written), :data:`GAME_OVER`, or
        ``-n`` when the next seat's ``n`` legal plays do not fit in ``keys`` (nothing written: the caller
        widens the rows and calls :func:`seers_env.vector_core.finish_rows`).
    """
    key = choose(scal, 0, keys, cands, dec, action)
    if key < 0:
        write_mask(scal, 0, keys, cands, dec, masks)
        write_obs(cards, scal, scores, 0, dec, obs)
        return key, DECISION
    kernel.apply_key(cards, scal, scores, 0, key, tmp)
    if scal[0, S_OVER]:
        return key, GAME_OVER
    got = new_decision(cards, scal, 0, keys, nkeys, cands, dec, buf)
    if got < 0:
        return key, got
    write_mask(scal, 0, keys, cands, dec, masks)
    write_obs(cards, scal, scores, 0, dec, obs)
    return key, DECISION


__all__ = ["DECISION", "GAME_OVER", "step_slot"]
