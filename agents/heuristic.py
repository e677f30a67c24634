"""``heuristic``: the strongest rule-based player of the project (no search).

It scores every legal play by the value of the hand it leaves (:func:`hand_value`) plus a few
situational terms, and plays the best one (passing is one of the candidates when following):

* structure: the fewest melds the suited cards split into (:func:`fewest_melds`, exact, memoised),
  plus one play for each artifact that cannot ride along with those melds and each artifact action;
* shedding: every card held costs a point at scoring (rules section 5), so each card shed is worth one;
* control: high cards, wilds and the highest-single artifact win tricks, so spending them is charged;
* the Bonus (section 4): with 5 or fewer cards a hand is valued by the bonus it would score (its lowest
  value, 0 with a wild or an artifact), so the agent aims to end with a few high cards and sheds wilds
  and artifacts first; it knows that a player in the Bonus cannot pass
  (only legal plays are ever scored, and the engine omits the pass then);
* artifacts: riding along with a meld sheds a card for free, so it is taken unless the artifact is
  worth more as control; Cauldron, suit change and half step are used when the meld they make scores
  best; the Rod is used when the lead is worth the cards it picks up; the Gift when the lead is worth
  less than a card, given to the player with most cards;
* passing: when following, a pass competes with the plays through a bias that turns negative when an
  opponent is close to going out (then every card shed counts).

All legal plays are scored at once by compiled code (:mod:`seers_env.play_eval`, from the engine's play
keys), so thousands of legal plays cost well under a millisecond. Deterministic: ``seed`` is accepted for
the common interface and unused.
"""

from __future__ import annotations

import numpy as np

from seers_env import play_eval
from seers_env.artifacts import HIGHEST_SINGLE, ROD
from seers_env.cards import FIRST_ARTIFACT, N_VALUES, WILD
from seers_env.features import fewest_melds, plays_needed  # noqa: F401  (fewest_melds re-exported)
from seers_env.integers import is_real_number
from seers_env.plays import Play
from seers_env.scoring import BONUS_MAX_CARDS, bonus_points
from seers_env.view import SeatView

from .base import Agent

_ROD_CARD = FIRST_ARTIFACT + ROD

#: Weights of :func:`hand_value` and the play terms (tuned against ``greedy`` in 4-player games, tournament seed 7);
#: the data lives in :data:`seers_env.play_eval.HEURISTIC_DEFAULTS` so that the environment's batch features
#: (:mod:`seers_env.vector_features`) can score plays as this agent does without importing it. Read-only: pass
#: overrides as ``weights=``.
WEIGHTS = play_eval.HEURISTIC_DEFAULTS


def hand_value(hand: list[int] | tuple[int, ...], weights: dict | None = None) -> float:
    """Estimated worth (in round-score points, higher is better) of holding ``hand``.

    Args:
        hand: card ids (see :mod:`seers_env.cards`).
        weights: overrides of :data:`WEIGHTS`.

    Returns:
        ``-card * len(hand) - play * plays_needed + control + bonus * bonus_points(hand)`` (the last term
        only with 5 or fewer cards, section 4); ``out`` for an empty hand.
    """
    w = WEIGHTS if weights is None else {**WEIGHTS, **weights}
    if not hand:
        return w["out"]
    _, plays = plays_needed(tuple(hand))
    suited = [c for c in hand if c < WILD]
    wilds = hand.count(WILD)
    kinds = [c - FIRST_ARTIFACT for c in hand if c > WILD]
    control = (w["high"] * sum(max(0, c % N_VALUES - 8) for c in suited)
               + w["wild"] * wilds + w["highest_single"] * kinds.count(HIGHEST_SINGLE))
    value = -w["card"] * len(hand) - w["play"] * plays + control
    if len(hand) <= BONUS_MAX_CARDS:
        value += w["bonus"] * bonus_points(hand)
    return value


class HeuristicAgent(Agent):
    """Rule-based player: maximises :func:`hand_value` of the hand left plus situational terms
    (module docstring). ``weights`` overrides :data:`WEIGHTS` (for tuning).

    Raises:
        ValueError: ``weights`` has a key not in :data:`WEIGHTS` or a value that is not a finite number
            (the message names them and the allowed keys); TypeError: ``weights`` is not a dict.
    """

    name = "heuristic"
    game = "seers_catalog"

    def __init__(self, seed: int | None = None, weights: dict | None = None):
        if weights is not None and not isinstance(weights, dict):
            raise TypeError(f"weights must be a dict of overrides of WEIGHTS, got {type(weights).__name__}")
        weights = weights or {}
        unknown = [k for k in weights if k not in WEIGHTS]
        if unknown:
            raise ValueError(f"unknown heuristic weights {unknown!r}; allowed keys: {list(WEIGHTS)}")
        bad = {k: v for k, v in weights.items()
               if not is_real_number(v) or not np.isfinite(v)}
        if bad:
            raise ValueError(f"heuristic weights {bad!r} are not allowed; each must be a finite number")
        super().__init__(seed)
        self.weights = {**WEIGHTS, **weights}
        self._weight_values: tuple = ()
        self._weight_array = np.zeros(0)

    def score_array(self, view: SeatView) -> np.ndarray:
        """Score of every legal play, in legal-play order: float64 ``(len(view.legal_plays()),)``
        (higher is better; the values of :meth:`scores`).

        Computed for all plays at once by compiled code (:func:`seers_env.play_eval.heuristic_values`,
        from the engine's play keys: no ``Play`` object is built), with the arithmetic of
        :func:`hand_value` and the play terms done term by term in the same order.

        Raises:
            ValueError: a legal play spends cards the seat does not hold (a view not of this position).
            KeyError: a weight of :data:`WEIGHTS` was deleted from ``self.weights`` after construction.
        """
        w = self.weights
        legal = view.legal_plays()
        game = view._game
        seat = view.seat
        hand = game.hands[seat]
        leading = game.top is None
        sizes = game.hand_sizes()
        danger = min(sizes[s] for s in range(len(sizes)) if s != seat) <= w["danger_cards"]
        trick = game.trick_cards() if not leading and _ROD_CARD in hand else []  # the Rod picks it up
        table = play_eval.table_of_plays(legal)
        values = tuple(w[k] for k in play_eval.HEURISTIC_WEIGHTS)
        if values != self._weight_values:  # weights may be changed after construction
            self._weight_values = values
            self._weight_array = np.array(values, dtype=np.float64)
        scores, bad = play_eval.heuristic_scores(np.array(hand, dtype=np.int64), table,
                                                 np.array(trick, dtype=np.int64), self._weight_array, leading,
                                                 bool(danger), np.array(sizes, dtype=np.int64))
        if bad >= 0:  # not from this position's legal plays
            raise ValueError(f"play {legal[bad]!r} spends cards that seat {seat} does not hold (hand {hand})")
        return scores

    def scores(self, view: SeatView) -> list[tuple[float, Play]]:
        """``(score, play)`` for every legal play, in legal-play order (higher score is better)."""
        return list(zip(self.score_array(view).tolist(), view.legal_plays()))

    def act(self, view: SeatView) -> Play:
        """The best-scoring legal play (the first of the best, :meth:`score_array`).

        Raises:
            ValueError: ``view``'s seat is not to act (it has no legal plays now).
            TypeError: a view of another game.
        """
        self.check_view(view)
        scores = self.score_array(view)
        if scores.shape[0] == 0:
            raise ValueError(f"seat {view.seat} is not to act now (seat {view._game.current} is, or the "
                             "round is over); act() needs the acting seat's view")
        return view.legal_plays()[int(scores.argmax())]  # the first of the best, as before
