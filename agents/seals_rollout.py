"""Seals rollouts: the heuristic compiled with numba, and :class:`SealsRolloutAgent`, which scores each
take by simulated rounds in which every seat plays the heuristic.

Rules: ``docs/seals_rules.md`` ("section N" below). In Seals every hand and the face-up row are public;
the only hidden information is the order of the draw pile (section 3 [ruling]), whose cards are known.
So a take's value under a fixed continuation policy is an expectation over pile orders alone, and
Monte Carlo rollouts estimate it without any belief about hands.

**Rollout policy improvement** (Tesauro and Galperin 1996, "On-line policy improvement using Monte-Carlo
search"; Bertsekas, "Rollout algorithms", 1997): for every legal take ``a``, ``K`` shuffles of the pile
are played out to the end of the round with :class:`~agents.seals.SealsHeuristicAgent` in every seat
(this agent's included), and the take with the best mean round reward is chosen. The same ``K`` shuffles
serve every take (common random numbers), so the comparison between takes is paired. The reward of a
round for the seat is its Marks minus the mean of the other playing seats' Marks (a round has one
declarer; section 5). A round in which this agent can declare at once is declared, the most Marks
(as the heuristic does).

:func:`~seers_env.seals.kernel.heuristic_take` and :func:`~seers_env.seals.kernel.play_round`
(:mod:`seers_env.seals.kernel`) are the compiled heuristic and round; they reproduce
:class:`~agents.seals.SealsHeuristicAgent` and :meth:`seers_env.seals.game.SealsGame.apply` exactly
(``tests/test_seals_rollout.py`` compares them play by play). Arrays: a hand is int64 ``(11,)`` symbol
counts (only symbols matter for sets, section 4); the row and the pile are int64 card ids
(``colour * 11 + symbol``) with a length; ``pile[0]`` is the top card.
"""

from __future__ import annotations

import numpy as np

from seers_env.integers import is_integer
from seers_env.seals.cards import N_SYMBOLS
from seers_env.seals.game import PHASE_DECLARE
from seers_env.seals.kernel import heuristic_take, play_round, rollout_rewards, take_scores
from seers_env.seals.moves import best_declaration
from seers_env.seals.plays import DECLARE, SealsPlay
from seers_env.seals.rulings import ROW_SIZE
from seers_env.seals.view import SealsSeatView

from .base import Agent
from .seals import SealsWeights

#: The most shuffles per decision :class:`SealsRolloutAgent` accepts (its shuffles of a full pile take
#: about 40 MB at this count; a larger one would run out of memory or time rather than play).
MAX_ROLLOUTS = 100_000


def weight_array(weights: SealsWeights) -> tuple[np.ndarray, np.ndarray]:
    """``(w, powers)``: float64 ``(5,)`` = win_bonus, denial, threat, gift, unused; float64 ``(11,)`` =
    ``closeness ** k`` for ``k = 0..10`` (computed by Python, so the compiled sums match it bit for bit)."""
    w = np.array([weights.win_bonus, weights.denial, weights.threat, weights.gift, 0.0], dtype=np.float64)
    powers = np.array([weights.closeness ** k for k in range(11)], dtype=np.float64)
    return w, powers


def view_arrays(view: SealsSeatView) -> tuple[np.ndarray, np.ndarray, np.ndarray, int, np.ndarray]:
    """``(hands, playing, row, row_len, pile_cards)`` of a view as the compiled functions take them: int64
    ``(n, 11)`` symbol counts, bool ``(n,)``, int64 ``(4,)`` (the row in the order turned), its length,
    int64 ``(pile_size,)`` the pile's cards, sorted (their order is hidden)."""
    hands = np.zeros((view.n_players, N_SYMBOLS), np.int64)
    for s, hand in enumerate(view.hands):
        for c in hand:
            hands[s, c % N_SYMBOLS] += 1
    row = np.zeros(ROW_SIZE, np.int64)
    cards = view.row
    row[:len(cards)] = cards
    return hands, np.array(view.playing, bool), row, len(cards), np.array(view.pile_cards, np.int64)


class SealsRolloutAgent(Agent):
    """Rollout policy improvement over the Seals heuristic (module docstring): ``rollouts`` pile shuffles
    per decision, every take played out on each. The agent leaves the heuristic's take only for one
    whose paired mean reward is ahead of it by more than ``z`` standard errors (a one-sided test on
    the common shuffles), so that rollout noise does not replace a sound take by a lucky one.

    Args:
        rollouts: shuffles of the pile per decision (``K``), 2 to :data:`MAX_ROLLOUTS`.
        seed: seed of the agent's ``numpy.random.Generator`` (the shuffles).
        weights: the heuristic's weights, for the rollout policy and the default take.
        z: the standard errors by which a take must beat the heuristic's (>= 0; 0: plain argmax).

    Raises:
        ValueError: ``rollouts`` not an integer in 2..:data:`MAX_ROLLOUTS`, or ``z`` not a finite number >= 0.
    """

    game = "seals"

    def __init__(self, rollouts: int = 64, seed: int | None = None, weights: SealsWeights | None = None,
                 z: float = 1.5):
        super().__init__(seed)
        if not is_integer(rollouts) or not 2 <= rollouts <= MAX_ROLLOUTS:
            raise ValueError(f"rollouts={rollouts!r} is not allowed; use an integer in 2..{MAX_ROLLOUTS}")
        if isinstance(z, bool) or not isinstance(z, (int, float)) or not np.isfinite(z) or z < 0:
            raise ValueError(f"z={z!r} is not allowed; use a finite number >= 0")
        self.rollouts = int(rollouts)
        self.z = float(z)
        self.name = f"rollout:{self.rollouts}"
        self.weights = weights if weights is not None else SealsWeights()
        self._w, self._powers = weight_array(self.weights)

    def take_values(self, view: SealsSeatView) -> tuple[list[SealsPlay], np.ndarray, int]:
        """The legal takes (ascending action id), float64 ``(len, rollouts)`` their round rewards on the
        shared shuffles, and the index of the heuristic's take among them."""
        hands, playing, row, row_len, pile = view_arrays(view)
        actions = np.empty(16, np.int64)
        n = 0
        for p in view.legal_plays():
            actions[n] = p.action
            n += 1
        if len(pile):
            orders = np.stack([self.rng.permutation(pile) for _ in range(self.rollouts)])
        else:
            orders = np.zeros((self.rollouts, 0), np.int64)
        rewards = rollout_rewards(hands, view.seat, playing, row, row_len, orders, view.turns,
                                  view.config.max_turns_per_round, self._w, self._powers, actions, n)
        h = heuristic_take(hands, view.seat, playing, row, row_len, pile, 0, len(pile), self._w, self._powers)
        return [SealsPlay.from_action(int(a)) for a in actions[:n]], rewards, int(np.flatnonzero(actions[:n] == h)[0])

    def act(self, view: SealsSeatView) -> SealsPlay:
        """The take chosen by the rule of the class docstring; in the declaration stage, the most Marks.

        Raises:
            ValueError: ``view``'s seat is not to act. TypeError: a view of another game.
        """
        legal = self.legal_for(view)
        if view.phase == PHASE_DECLARE:
            return SealsPlay(DECLARE, best_declaration(view.hand))
        if len(legal) == 1:
            return legal[0]
        plays, rewards, h = self.take_values(view)
        best = int(np.argmax(rewards.mean(axis=1)))
        if best != h:
            d = rewards[best] - rewards[h]
            se = d.std(ddof=1) / np.sqrt(len(d))
            if not d.mean() > self.z * se:
                best = h
        return plays[best]


__all__ = ["MAX_ROLLOUTS", "SealsRolloutAgent", "heuristic_take", "play_round", "rollout_rewards", "take_scores",
           "view_arrays", "weight_array"]
