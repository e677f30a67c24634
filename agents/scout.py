"""SCOUT baseline agents: :class:`ScoutGreedyAgent` and :class:`ScoutHeuristicAgent`.

Rules: ``docs/scout_rules.md`` (full text with every ruling: ``shared/rules/scout.md``); "section N" below
refers to the latter. Both agents read only a :class:`~seers_env.scout.view.ScoutSeatView` (what the seat
may know, section 10) and return a member of ``view.legal_plays()`` (the order documented in
:mod:`seers_env.scout.moves`). They are deterministic: ``seed`` is accepted for the common interface
(:class:`agents.base.Agent`) and unused.

The ISMCTS agent (:mod:`agents.ismcts`, through :mod:`agents.games`) uses the greedy agent as its rollout
policy and :meth:`ScoutHeuristicAgent.scores` to rank candidate plays, so both are written to be fast:
the greedy agent never lists the legal plays (it builds its play from the hand), and the heuristic
values every legal play with a per-decision table of the hand's structure (see below), not by
re-evaluating each resulting hand from scratch.

**Hand structure** (:func:`hand_structure`). A hand's plan is a partition of its cards, left to right, into
valid segments (single cards, sets, runs: section 4), each of which can later be shown in one turn. The
value of a partition is the sum of a per-segment value (:class:`ScoutWeights`: a cost per segment, a
bonus growing faster than the length, extra for sets, a little for high values); the hand's structure is
the best partition's value, found by dynamic programming over the hand (each position has at most one
chain type through it, so it is O(hand size x segment length)). The heuristic keeps the forward and
backward tables of that program for the current hand, so the value of the hand after removing a
segment (a Show) or inserting one card (a Scout) is found in O(segment length^2) from them; a Scout &
Show that does not show the scouted card builds the tables once per shown segment.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields
from functools import cache

import numpy as np

from seers_env.integers import is_real_number
from seers_env.scout.cards import CARD_NUMBERS, FACE_BOTTOM, FACE_VALUE
from seers_env.scout.game import PHASE_ROTATE
from seers_env.scout.moves import show_segments
from seers_env.scout.plays import KEEP_PLAY, ROTATE, SCOUT, SCOUT_SHOW, SHOW, STOP, ScoutPlay
from seers_env.scout.view import ScoutSeatView

from .base import Agent

_SET, _ASC, _DESC = 0, 1, 2  # chain types: step 0, +1, -1 (left to right)
_TYPE_OF_STEP = {0: _SET, 1: _ASC, -1: _DESC}
_MAX_LEN = 46  # longer than any hand


def _key(length: int, is_set: int, low: int) -> int:
    """Strength key of a segment (as :func:`seers_env.scout.moves.strength_key`)."""
    return (((length * 2) | is_set) << 4) | low


# ------------------------------------------------------------------------------------------------
# greedy
# ------------------------------------------------------------------------------------------------

def _longest_containing(v: list[int], pos: int, c: int) -> int:
    """Length of the longest valid segment of ``v`` with value ``c`` inserted at ``pos`` that holds it."""
    n = len(v)
    best = 1
    for d in (0, 1, -1):
        left = 0
        while pos - 1 - left >= 0 and v[pos - 1 - left] == c - d * (left + 1):
            left += 1
        right = 0
        while pos + right < n and v[pos + right] == c + d * (right + 1):
            right += 1
        best = max(best, left + right + 1)
    return best


class ScoutGreedyAgent(Agent):
    """A simple rule bot for SCOUT in the spirit of RLCard's rule agents (one fixed rule per situation,
    no look-ahead). The idea is "shed cards cheaply":

    * rotation (section 2): always keep the hand as dealt;
    * an Active Set on the table (section 4): show the *cheapest* winning segment, i.e. the one with the
      smallest strength key (fewest cards, then a run before a set, then the lowest lowest value); ties:
      the leftmost;
    * no Active Set (start of a round, or the set was scouted away, section 5): show the *longest* valid
      segment (the most cards shed; nothing can be collected anyway); ties: the weakest, then the
      leftmost;
    * no winning segment: Scout (sections 5, 7; 2 players: the round would already have ended without a
      chip, section 7(b)) the card, orientation and insert position that make the longest valid segment
      holding the scouted card; ties: the first in the documented order (left end, kept, leftmost);
    * never Scout & Show, never STOP (2-player flag ``two_player_may_stop``).

    Deterministic; it builds its play from the hand (the engine's play lists are not needed), so it is
    cheap enough to be the ISMCTS rollout policy.
    """

    name = "greedy"

    def act(self, view: ScoutSeatView) -> ScoutPlay:
        """The greedy play (class docstring); a member of ``view.legal_plays()``.

        Raises:
            ValueError: ``view``'s seat is not to act (the game is over or another seat is).
            TypeError: a view of another game.
        """
        self.check_view(view)
        if view.game_over or view.current != view.seat:
            raise ValueError(f"seat {view.seat} is not to act now (seat {view.current} is, or the game is "
                             "over); act() needs the acting seat's view")
        if view.phase == PHASE_ROTATE:
            return KEEP_PLAY
        v = [FACE_VALUE[f] for f in view.hand_faces()]
        active = view.active
        beat = _active_key(active) if active else -1
        segs = show_segments(v, beat)
        if segs:
            if beat < 0:
                s, L = min(segs, key=lambda sl: (-sl[1], _seg_key(v, sl[0], sl[1]), sl[0]))
            else:
                s, L = min(segs, key=lambda sl: (_seg_key(v, sl[0], sl[1]), sl[0]))
            return ScoutPlay.show(s, L)
        # no show: scout (3-5 players always possible with an Active Set; 2 players a chip is left)
        ends = (0,) if len(active) == 1 else (0, 1)
        best, best_len = None, 0
        for e in ends:
            card, top = active[0] if e == 0 else active[-1]
            a, b = CARD_NUMBERS[card]
            for f in (0, 1):
                c = top if f == 0 else a + b - top
                for p in range(len(v) + 1):
                    length = _longest_containing(v, p, c)
                    if length > best_len:
                        best, best_len = (e, f, p), length
        if best is None:  # defensive: a position the engine would not produce
            return view.legal_plays()[0]
        return ScoutPlay.scout(*best)


def _active_key(active: list[tuple[int, int]]) -> int:
    """Strength key of the Active Set given as ``(card, top)`` pairs."""
    vals = [t for _, t in active]
    n = len(vals)
    if n == 1:
        return _key(1, 1, vals[0])
    if vals[0] == vals[1]:
        return _key(n, 1, vals[0])
    return _key(n, 0, min(vals[0], vals[-1]))


def _seg_key(v: list[int], s: int, L: int) -> int:
    """Strength key of the valid segment ``v[s:s+L]``."""
    if L == 1:
        return _key(1, 1, v[s])
    first, last = v[s], v[s + L - 1]
    if first == last:
        return _key(L, 1, first)
    return _key(L, 0, min(first, last))


# ------------------------------------------------------------------------------------------------
# heuristic: weights and the hand-structure program
# ------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class ScoutWeights:
    """Tunable weights of :class:`ScoutHeuristicAgent`, in points of round score.

    Defaults were tuned in duplicate games (one heuristic against a field of greedy agents, and against a
    field of default heuristics) at 2-5 players; the notes say what the measurements showed.

    Hand value (section 8: each card in hand at round end costs a point):
        card: cost of each card held.
        segment: cost of each segment of the hand's best partition (each is one more turn to shed it).
        length: bonus per card beyond the first in a segment (a longer show sheds more, beats more).
        length2: bonus per squared extra card (long segments count much more, section 4 rule 1).
        set_extra: extra bonus per card beyond the first for a set (sets beat runs, section 4 rule 2).
        high: bonus of a segment with lowest value 10 (linear from 0 at 1; section 4 rule 3).
        cap: a segment's value is at most ``cap`` per card. Without it long segments were worth more than
            shedding their cards and the agent hoarded (scouting every turn, far behind greedy).
        urgency: the structure value is scaled by ``1 / (1 + urgency * max(0, danger_cards - c))``,
            ``c`` the fewest cards another player holds (a round about to end leaves no time to play it).
        danger_cards: see ``urgency``.
    Play terms:
        collect: value of each card collected by a Show (section 4: one point each).
        opponent: value of one point scored by an opponent (``None``: ``1 / (n_players - 1)``, the
            weight of the score-minus-mean-of-the-others difference).
        table: weight of the expected Scout chips the shown set earns while nobody beats it (section 5;
            2 players: the chips the opponent spends trying, section 7). Measured: 0.3 lost about 2
            points a game to 0 at 5 players against greedy, 0.5 about 1 against the default heuristic.
        exempt: weight of the expected hand-penalty exemption when nobody beats the shown set and the round
            ends by 6(b) (2 players 7(b)): the chance of that times the worth of the hand left. 1.0 was best
            against greedy, 0 against heuristics (they beat strong sets more often); 0.5 in between.
        given: weight of the expected loss from an opponent beating the shown set and collecting it.
        scout_show_chip: option value of the unused Scout & Show chip (section 5: once per round).
        own_chip: 2 players: value of one own Scout chip (a point at scoring plus the option to scout).
        out: bonus for going out (section 6(a)/7(a)), on top of ``opponent`` times the cards the others
            then lose.
    """

    card: float = 1.0
    segment: float = 0.6
    length: float = 0.55
    length2: float = 0.5
    set_extra: float = 0.2
    high: float = 0.4
    cap: float = 1.0
    urgency: float = 0.3
    danger_cards: int = 3
    collect: float = 1.0
    opponent: float | None = None
    table: float = 0.15
    exempt: float = 0.5
    given: float = 1.0
    scout_show_chip: float = 1.5
    own_chip: float = 1.3
    out: float = 3.0

    def __post_init__(self) -> None:
        for f in fields(self):
            x = getattr(self, f.name)
            if f.name == "opponent" and x is None:
                continue
            if not is_real_number(x) or not math.isfinite(x):
                raise ValueError(f"ScoutWeights.{f.name}={x!r} is not allowed; each weight must be a finite "
                                 "number (opponent may also be None)")

    def segment_table(self) -> tuple[list[list[float]], list[list[float]]]:
        """``(sets, runs)``: ``sets[k][low]`` (singles at ``k = 1``) and ``runs[k][low]``, the value of a
        segment of ``k`` cards with lowest value ``low`` (1..10), for ``k < 46``."""
        return _segment_table(self.segment, self.length, self.length2, self.set_extra, self.high, self.cap)


@cache
def _segment_table(segment, length, length2, set_extra, high, cap):
    sets = [[0.0] * 11 for _ in range(_MAX_LEN)]
    runs = [[0.0] * 11 for _ in range(_MAX_LEN)]
    for k in range(1, _MAX_LEN):
        base = -segment + length * (k - 1) + length2 * (k - 1) ** 2
        for low in range(1, 11):
            h = high * (low - 1) / 9
            sets[k][low] = min(cap * k, base + set_extra * (k - 1) + h)
            runs[k][low] = min(cap * k, base + h)
    return sets, runs


DEFAULT_WEIGHTS = ScoutWeights()


class _Structure:
    """The hand-structure program of one hand of values ``v`` (module docstring).

    ``F[i]``: best partition value of ``v[:i]``; ``B[i]``: of ``v[i:]``. ``bl[i]``/``bt[i]``: length and
    type of the chain (of one step) ending at ``i`` (length 1, type -1 when none); ``fl``/``ft`` the chain
    starting at ``i``.
    """

    __slots__ = ("v", "n", "F", "B", "bl", "bt", "fl", "ft", "sets", "runs")

    def __init__(self, v: list[int], sets: list[list[float]], runs: list[list[float]]):
        n = len(v)
        self.v, self.n, self.sets, self.runs = v, n, sets, runs
        bl, bt = [1] * n, [-1] * n
        for i in range(1, n):
            d = v[i] - v[i - 1]
            if -1 <= d <= 1:
                t = _TYPE_OF_STEP[d]
                bt[i] = t
                bl[i] = bl[i - 1] + 1 if bt[i - 1] == t else 2
        fl, ft = [1] * n, [-1] * n
        for i in range(n - 2, -1, -1):
            d = v[i + 1] - v[i]
            if -1 <= d <= 1:
                t = _TYPE_OF_STEP[d]
                ft[i] = t
                fl[i] = fl[i + 1] + 1 if ft[i + 1] == t else 2
        s1 = sets[1]
        F = [0.0] * (n + 1)
        for i in range(1, n + 1):
            x = v[i - 1]
            best = F[i - 1] + s1[x]
            k_max = bl[i - 1]
            if k_max > 1:
                t = bt[i - 1]
                for k in range(2, k_max + 1):
                    if t == _SET:
                        val = F[i - k] + sets[k][x]
                    elif t == _ASC:
                        val = F[i - k] + runs[k][x - k + 1]
                    else:
                        val = F[i - k] + runs[k][x]
                    if val > best:
                        best = val
            F[i] = best
        B = [0.0] * (n + 1)
        for i in range(n - 1, -1, -1):
            x = v[i]
            best = B[i + 1] + s1[x]
            k_max = fl[i]
            if k_max > 1:
                t = ft[i]
                for k in range(2, k_max + 1):
                    if t == _SET:
                        val = B[i + k] + sets[k][x]
                    elif t == _ASC:
                        val = B[i + k] + runs[k][x]
                    else:
                        val = B[i + k] + runs[k][x - k + 1]
                    if val > best:
                        best = val
            B[i] = best
        self.F, self.B, self.bl, self.bt, self.fl, self.ft = F, B, bl, bt, fl, ft

    @property
    def value(self) -> float:
        return self.F[self.n]

    def removed(self, a: int, b: int) -> float:
        """Structure of the hand without ``v[a:b]`` (``a <= b``)."""
        F, B, v = self.F, self.B, self.v
        best = F[a] + B[b]
        if a > 0 and b < self.n:
            d = v[b] - v[a - 1]
            if -1 <= d <= 1:
                t = _TYPE_OF_STEP[d]
                left = self.bl[a - 1] if self.bt[a - 1] == t else 1
                right = self.fl[b] if self.ft[b] == t else 1
                table = self.sets if t == _SET else self.runs
                for i in range(1, left + 1):
                    fa = F[a - i]
                    for j in range(1, right + 1):
                        if t == _SET:
                            low = v[a - 1]
                        elif t == _ASC:
                            low = v[a - i]
                        else:
                            low = v[b + j - 1]
                        val = fa + table[i + j][low] + B[b + j]
                        if val > best:
                            best = val
        return best

    def inserted(self, p: int, c: int) -> float:
        """Structure of the hand with value ``c`` inserted at position ``p`` (``0..n``)."""
        F, B, v, n = self.F, self.B, self.v, self.n
        best = F[p] + self.sets[1][c] + B[p]
        for t, d in ((_SET, 0), (_ASC, 1), (_DESC, -1)):
            left = 0
            if p > 0 and v[p - 1] == c - d:
                left = self.bl[p - 1] if self.bt[p - 1] == t else 1
            right = 0
            if p < n and v[p] == c + d:
                right = self.fl[p] if self.ft[p] == t else 1
            if left == 0 and right == 0:
                continue
            table = self.sets if t == _SET else self.runs
            for i in range(left + 1):
                fa = F[p - i]
                for j in range(right + 1):
                    if i + j == 0:
                        continue
                    low = c if t == _SET else (c - i if t == _ASC else c - j)
                    val = fa + table[i + j + 1][low] + B[p + j]
                    if val > best:
                        best = val
        return best


def hand_structure(values: list[int], weights: ScoutWeights = DEFAULT_WEIGHTS) -> float:
    """Structure value of a hand of top numbers ``values`` (left to right): the best partition of it into
    valid segments (section 4), each valued by :meth:`ScoutWeights.segment_table` (module docstring).
    ``0.0`` for an empty hand."""
    sets, runs = weights.segment_table()
    return _Structure(list(values), sets, runs).value


def hand_value(values: list[int], weights: ScoutWeights = DEFAULT_WEIGHTS) -> float:
    """Estimated worth of holding ``values`` (higher is better): ``-card * len + structure`` (no urgency)."""
    return -weights.card * len(values) + hand_structure(values, weights)


# ------------------------------------------------------------------------------------------------
# chance that a hand cannot beat a set
# ------------------------------------------------------------------------------------------------

_MC_HANDS = 4000
_MAX_MC_SIZE = 30
_KEY_SPAN = _key(_MAX_LEN, 1, 15) + 1


@cache
def _no_beat_table() -> np.ndarray:
    """``T[m, key]``: estimated chance that a hand of ``m`` cards (random cards of the 45, random
    orientations) holds no valid segment stronger than ``key`` (section 4). Monte Carlo with a fixed seed
    (``numpy.random.default_rng(0)``, :data:`_MC_HANDS` hands; the hand of ``m`` cards is the first ``m``
    of each sampled deal, so the table falls with ``m``), the same table every run, about 10 ms."""
    rng = np.random.default_rng(0)
    table = np.ones((_MAX_MC_SIZE + 1, _KEY_SPAN))
    tops = np.array(CARD_NUMBERS)  # (45, 2)
    cards = np.argsort(rng.random((_MC_HANDS, len(CARD_NUMBERS))), axis=1)[:, :_MAX_MC_SIZE]
    v = tops[cards, rng.integers(0, 2, size=cards.shape)]
    best = np.zeros(_MC_HANDS, dtype=np.int64)
    chain = [np.ones(_MC_HANDS, dtype=np.int64) for _ in range(3)]  # set, ascending, descending
    for i in range(_MAX_MC_SIZE):
        x = v[:, i]
        if i > 0:
            d = x - v[:, i - 1]
            for t, step in ((0, 0), (1, 1), (2, -1)):
                chain[t] = np.where(d == step, chain[t] + 1, 1)
        best = np.maximum(best, ((2 * chain[0] + 1) << 4) | x)  # the set (or single) ending here
        best = np.maximum(best, np.where(chain[1] > 1, ((2 * chain[1]) << 4) | (x - chain[1] + 1), 0))
        best = np.maximum(best, np.where(chain[2] > 1, ((2 * chain[2]) << 4) | x, 0))
        table[i + 1] = np.cumsum(np.bincount(best, minlength=_KEY_SPAN)[:_KEY_SPAN]) / _MC_HANDS
    return table


def no_beat_chance(hand_size: int, key: int) -> float:
    """Estimated chance that a hand of ``hand_size`` cards cannot beat a set of strength ``key``
    (:func:`_no_beat_table`; hands above 30 cards use the 30-card row)."""
    if hand_size <= 0:
        return 1.0
    return float(_no_beat_table()[min(hand_size, _MAX_MC_SIZE), min(key, _KEY_SPAN - 1)])


# ------------------------------------------------------------------------------------------------
# heuristic agent
# ------------------------------------------------------------------------------------------------

class ScoutHeuristicAgent(Agent):
    """A planning heuristic for SCOUT: every legal play is scored by the estimated worth of what it leaves
    and the best is played (:meth:`score_array`). Scores are in points of round score:

    * the hand left: ``-card * cards + urgency-scaled structure`` (module docstring: the best partition
      of the hand into valid segments, long segments worth much more, section 4);
    * rotation (section 2): KEEP and ROTATE are scored by the value of the hand each gives;
    * Show (section 4): the cards collected, the hand left, and the expected value of the shown set on the
      table: each opponent in turn order is estimated to fail to beat it with :func:`no_beat_chance`
      (one card more for an opponent who still holds the Scout & Show chip), every failing opponent
      scouts (a chip for us, section 5), all failing ends the round by 6(b) with our hand exempt; in 2
      players a failing opponent spends chips and, out of chips, ends the round by 7(b) (section 7); an
      opponent who beats it collects it (``given``);
    * going out (6(a)/7(a)) adds ``out`` and the cards the others then lose;
    * Scout (section 5): the hand with the card inserted (so a card that extends a set or run, at the right
      place and way up, scores well), minus a chip for the owner (3-5 players) or our own chip (2 players,
      ``own_chip``); a plain Scout that ends the round by 6(b) (the next player is the owner) is valued
      exactly: every card held then counts and the owner is exempt;
    * Scout & Show (section 5): both parts, minus ``scout_show_chip`` (the chip is spent for the round);
    * STOP (2 players, flag ``two_player_may_stop``): the round ends now, every card counts and the owner
      is exempt (section 7 [ruling]).

    Args:
        seed: unused (deterministic).
        weights: a :class:`ScoutWeights` (default :data:`DEFAULT_WEIGHTS`).

    Raises:
        TypeError: ``weights`` is not a :class:`ScoutWeights`.
    """

    name = "heuristic"

    def __init__(self, seed: int | None = None, weights: ScoutWeights | None = None):
        if weights is not None and not isinstance(weights, ScoutWeights):
            raise TypeError(f"weights must be a ScoutWeights, got {type(weights).__name__}: {weights!r}")
        super().__init__(seed)
        self.weights = weights if weights is not None else DEFAULT_WEIGHTS

    # --- per-decision helpers -------------------------------------------------------------------
    def _table_value(self, key: int, hand_left_value: float, ctx: dict) -> float:
        """Expected value of leaving a set of strength ``key`` on the table (class docstring).

        Each opponent in turn faces the set less the cards scouted before (section 5: a scout takes an
        end card, so the set shrinks); it fails to beat it with :func:`no_beat_chance` and then scouts.
        3-5 players: each scout pays us a chip; all ``n - 1`` failing ends the round by 6(b) with our
        hand exempt. 2 players: a failing opponent spends a chip and tries again with one card more; out
        of chips it is stuck and the round ends by 7(b), our hand exempt. A set scouted away ends the
        chain (the next player may show anything). An opponent who beats it collects what is left.
        """
        cached = ctx["table_cache"].get(key)
        if cached is None:
            length, is_set, low = key >> 5, (key >> 4) & 1, key & 15
            alive, chips, given = 1.0, 0.0, 0.0
            if ctx["two_players"]:
                m, c = ctx["opp_sizes"][0], ctx["opp_chips"]
                tries = [(m + j, length - j) for j in range(c + 1)]
            else:
                tries = [(m, length - i) for i, m in enumerate(ctx["opp_sizes"])]
            for j, (m, left) in enumerate(tries):
                if left <= 0:
                    alive = 0.0
                    break
                k = key if left == length else _key(left, 1 if left == 1 else is_set, low)
                q = no_beat_chance(m, k)
                given += alive * (1.0 - q) * left
                alive *= q
                if j < len(tries) - 1 or not ctx["two_players"]:
                    chips += alive
            if ctx["two_players"]:
                chips *= ctx["opp"]  # the opponent's own chips (section 7), not ours
            cached = ctx["table_cache"][key] = (chips, given, alive)
        chips, given, survive = cached
        w = self.weights
        return (w.table * chips + w.exempt * survive * max(0.0, -hand_left_value)
                - w.given * ctx["opp"] * given)

    def _after(self, cards_left: int, structure: float, collected: int, key: int, ctx: dict) -> float:
        """Score of a Show (or the show of a Scout & Show) leaving ``cards_left`` cards of ``structure``."""
        w = self.weights
        if cards_left == 0:  # 6(a) / 7(a): the round ends, the others lose their hands
            return w.collect * collected + w.out + ctx["opp"] * ctx["opp_cards"]
        value = -w.card * cards_left + ctx["scale"] * structure
        return w.collect * collected + value + self._table_value(key, value, ctx)

    def _context(self, view: ScoutSeatView) -> dict:
        """What the play terms need from the position, computed once per decision."""
        w = self.weights
        seat, n_players = view.seat, view.n_players
        sizes = view.hand_sizes
        others = [(seat + k) % n_players for k in range(1, n_players)]  # turn order after us
        two = n_players == 2
        used = view.scout_show_used
        fewest = min(sizes[s] for s in others)
        return {
            "two_players": two, "sizes": sizes, "table_cache": {},
            "opp": w.opponent if w.opponent is not None else 1.0 / (n_players - 1),
            "scale": 1.0 / (1.0 + w.urgency * max(0, w.danger_cards - fewest)),
            # an opponent holding the Scout & Show chip may add a card before showing (section 5)
            "opp_sizes": [sizes[s] + (0 if two or used[s] else 1) for s in others],
            "opp_chips": view.chips[others[0]] if two else 0,
            "opp_cards": sum(sizes[s] for s in others),
        }

    # --- scoring ------------------------------------------------------------------------------------
    def score_array(self, view: ScoutSeatView) -> np.ndarray:
        """Score of every legal play, in legal-play order: float64 ``(len(view.legal_plays()),)``
        (higher is better; class docstring). Empty when the seat is not to act."""
        legal = view.legal_plays()
        out = np.empty(len(legal), dtype=np.float64)
        if not legal:
            return out
        w = self.weights
        sets, runs = w.segment_table()
        faces = view.hand_faces()
        v = [FACE_VALUE[f] for f in faces]
        n = len(v)
        if view.phase == PHASE_ROTATE:
            keep = -w.card * n + _Structure(v, sets, runs).value
            rot = -w.card * n + _Structure([FACE_BOTTOM[f] for f in reversed(faces)], sets, runs).value
            for i, p in enumerate(legal):
                out[i] = rot if p.kind == ROTATE else keep
            return out
        ctx = self._context(view)
        seat, n_players, sizes, opp, two, scale = (view.seat, view.n_players, ctx["sizes"], ctx["opp"],
                                                   ctx["two_players"], ctx["scale"])
        st = _Structure(v, sets, runs)
        active = view.active
        n_active = len(active)
        owner = view.active_owner
        ends_round = (not two) and (seat + 1) % n_players == owner  # 6(b) after a plain Scout
        chip_cost = w.own_chip if two else opp  # 2 players: our own chip; else the owner gains one
        removed_cache: dict[tuple[int, int], float] = {}
        inserted_cache: dict[tuple[int, int], float] = {}
        side_cache: dict[tuple[int, int], _Structure] = {}
        scout_vals = {}
        for e in ((0,) if n_active == 1 else (0, 1)) if n_active else ():
            card, top = active[0] if e == 0 else active[-1]
            a, b = CARD_NUMBERS[card]
            scout_vals[e, 0] = top
            scout_vals[e, 1] = a + b - top
        for i, p in enumerate(legal):
            kind = p[0]
            if kind == SHOW:
                s, L = p[4], p[5]
                r = removed_cache.get((s, s + L))
                if r is None:
                    r = removed_cache[s, s + L] = st.removed(s, s + L)
                out[i] = self._after(n - L, r, n_active, _seg_key(v, s, L), ctx)
            elif kind == SCOUT:
                c = scout_vals[p[1], p[2]]
                pos = p[3]
                if ends_round:  # 6(b): the round ends now; every card counts, the owner is exempt
                    out[i] = -w.card * (n + 1) - opp * (1 + sizes[owner])
                    continue
                r = inserted_cache.get((pos, c))
                if r is None:
                    r = inserted_cache[pos, c] = st.inserted(pos, c)
                out[i] = -w.card * (n + 1) + scale * r - chip_cost
            elif kind == SCOUT_SHOW:
                c = scout_vals[p[1], p[2]]
                pos, s, L = p[3], p[4], p[5]
                if s <= pos < s + L:  # the scouted card is shown: v[s:s+L-1] leaves the hand
                    r = removed_cache.get((s, s + L - 1))
                    if r is None:
                        r = removed_cache[s, s + L - 1] = st.removed(s, s + L - 1)
                    if L == 1:
                        key = _key(1, 1, c)
                    else:
                        first = v[s] if s < pos else c
                        last = c if pos == s + L - 1 else v[s + L - 2]
                        key = _key(L, 1, first) if first == last else _key(L, 0, min(first, last))
                else:  # an original segment is shown; the scouted card stays in the hand
                    a0 = s if s + L <= pos else s - 1
                    side = side_cache.get((a0, L))
                    if side is None:
                        side = side_cache[a0, L] = _Structure(v[:a0] + v[a0 + L:], sets, runs)
                    q = pos if a0 >= pos else pos - L
                    r = side.inserted(q, c)
                    key = _seg_key(v, a0, L)
                    out[i] = self._after(n + 1 - L, r, n_active - 1, key, ctx) - opp - w.scout_show_chip
                    continue
                out[i] = self._after(n + 1 - L, r, n_active - 1, key, ctx) - opp - w.scout_show_chip
            elif kind == STOP:  # section 7 [ruling]: ends the round as 7(b), the owner exempt
                out[i] = -w.card * n - opp * sizes[owner]
            else:  # KEEP / ROTATE cannot occur in the play phase
                out[i] = 0.0
        return out

    def scores(self, view: ScoutSeatView) -> list[tuple[float, ScoutPlay]]:
        """``(score, play)`` for every legal play, in legal-play order (higher is better)."""
        return list(zip(self.score_array(view).tolist(), view.legal_plays()))

    def act(self, view: ScoutSeatView) -> ScoutPlay:
        """The best-scoring legal play (the first of the best, :meth:`score_array`).

        Raises:
            ValueError: ``view``'s seat is not to act (it has no legal plays now).
            TypeError: a view of another game.
        """
        self.check_view(view)
        scores = self.score_array(view)
        if scores.shape[0] == 0:
            raise ValueError(f"seat {view.seat} is not to act now (seat {view.current} is, or the game is "
                             "over); act() needs the acting seat's view")
        return view.legal_plays()[int(scores.argmax())]
