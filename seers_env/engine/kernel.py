"""The compiled game kernel: whole Seers Catalog games as numpy arrays, stepped by numba functions.

:class:`Game` keeps its state in Python lists and :class:`~seers_env.plays.Play` objects; this module keeps
the state of ``N`` games (*slots*) in three arrays and applies *play keys* (:mod:`seers_env.engine.core`)
to them in compiled code (numba, ``cache=True`` via :mod:`seers_env.engine.jit`). A seeded kernel game plays
exactly as a seeded :class:`Game`: the same legal plays in the same order (both list them with
:func:`seers_env.engine.core.legal_keys`), the same hands, scores and totals (``tests/test_kernel.py``).

State of slot ``i`` (``P`` players, ``C == 68`` card ids, see :mod:`seers_env.engine.cards`):

* ``cards``: ``int16 (N, N_PLANES, 68)``, card counts by card id. Planes: ``HAND + s`` the hand of seat
  ``s``; ``PLAYED + s`` the cards seat ``s`` played this round (face-up, section 3); ``KNOWN + s`` the
  cards publicly known to be in seat ``s``'s hand (taken with the Rod, section 6); ``TRICK`` every card
  played to this trick; ``DISCARDS`` cards set aside this round; ``HIDDEN`` the 2-player removed cards
  (section 2); ``PENDING + s`` and ``PENDING_HIDDEN`` the next deal, drawn ahead (see below).
* ``scal``: ``int64 (N, N_SCALARS)``, named by the ``S_*`` constants: seat to act, Start Seer, top meld
  type / size / rank (type 0: no meld, the Start Seer leads), top seat, lead passes, round, Go First
  holder, game over, passed flags and suits in play (5 each), totals (5), the next deal's Go First holder
  / Start Seer / suits, the player and round counts, the last play's outcome, and the round's play
  history: the number of plays made this round and the last :data:`HISTORY_LEN` play keys with their
  seats (a ring buffer, ``S_HIST_*``; what ``Game.events`` holds since the round's deal, for
  :mod:`seers_env.vector_features`).
* ``scores``: ``int64 (N, n_rounds, 5)``, the round scores so far (section 5).

**Dealing** draws in Python (a round is dealt once per ~70 plays):
:func:`~seers_env.engine.game.draw_deal_arrays` draws it from the slot's ``numpy.random.Generator`` exactly
as :class:`Game` does, and :func:`put_pending_deal` writes it (compiled). The next round is
drawn *ahead* into the ``PENDING`` planes, so that a compiled loop can end a round and go on; the caller
refills it between compiled calls (:meth:`KernelGames.refill`).

**Positions**: :meth:`KernelGames.load_game` puts a :class:`~seers_env.engine.game.Game`'s position (a saved
or hand-made one, ``Game.from_dict``) in a slot, which then plays on as that game would.

Rules implemented here: passing, leading and the lead-pass ruling (section 3), melds and tricks (3),
the Bonus through :func:`~seers_env.engine.core.legal_keys` (4), scoring (5), Rod of Reincarnation and
Gift of Fate (6), with the rulings of :mod:`seers_env.engine.rulings`.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..integers import is_integer
from . import core
from .artifacts import GIFT, ROD
from .cards import ARTIFACTS_PER_PLAYER, FIRST_ARTIFACT, MIN_VALUE, N_SUITED, N_VALUES, SETUP_BY_PLAYERS, \
    SUITED_PER_PLAYER, WILD, WILDS_PER_PLAYER
from .game import Deal, Game, GameConfig, draw_deal_arrays
from .jit import njit
from .plays import Play
from .scoring import BONUS_MAX_CARDS

# the fixed behaviours this kernel implements (see rulings.py); changing one means changing this module
from .rulings import (  # noqa: F401  (named here so that a changed ruling is found by grep)
    GIFT_RESTARTS_LEAD_PASS_COUNT,
    LEAD_PASS_PUTS_OUT_OF_TRICK,
    ROD_TAKES_ARTIFACTS_AND_WILDS,
)

assert not LEAD_PASS_PUTS_OUT_OF_TRICK and GIFT_RESTARTS_LEAD_PASS_COUNT and ROD_TAKES_ARTIFACTS_AND_WILDS

N_CARD_IDS = FIRST_ARTIFACT + core.N_KINDS  # 68
MAX_SEATS = 5

# --- card planes --------------------------------------------------------------------------------------
HAND = 0
PLAYED = 5
KNOWN = 10
TRICK = 15
DISCARDS = 16
HIDDEN = 17
PENDING = 18
PENDING_HIDDEN = 23
N_PLANES = 24

# --- scalars ------------------------------------------------------------------------------------------
S_CURRENT = 0
S_START = 1
S_TOP_TYPE = 2
S_TOP_SIZE = 3
S_TOP_RANK = 4
S_TOP_SEAT = 5
S_LEAD_PASSES = 6
S_ROUND = 7
S_GO_FIRST = 8
S_OVER = 9
S_PASSED = 10  # 5 flags
S_SUITS = 15  # 5 flags
S_TOTALS = 20  # 5 totals
S_PENDING_READY = 25
S_PENDING_GO_FIRST = 26
S_PENDING_START = 27
S_PENDING_NEW_GAME = 28  # the pending deal opens a new game (the batch API's autoreset)
S_PENDING_SUITS = 29  # 5 flags
S_N_PLAYERS = 34
S_N_ROUNDS = 35
S_OUTCOME = 36  # of the last play: one of the OUT_* codes
S_TRICK_WINNER = 37  # of the last play: the seat that won a trick, or -1
S_ERROR = 38  # 1 when a round ended without a pending deal (the caller did not refill)
#: Plays of the current round kept per slot (``S_HIST_*``): what play-scoring features read as history.
HISTORY_LEN = 16
S_HIST_COUNT = 39  # plays made this round (reset at each deal)
S_HIST_KEYS = 40  # the round's last HISTORY_LEN play keys, a ring indexed by play count % HISTORY_LEN
S_HIST_SEATS = S_HIST_KEYS + HISTORY_LEN  # ... and the seats that made them
N_SCALARS = S_HIST_SEATS + HISTORY_LEN

#: Outcomes of :func:`apply_key` (``scal[i, S_OUTCOME]``).
OUT_NOTHING = 0
OUT_TRICK = 1  # a trick was won (``S_TRICK_WINNER``)
OUT_ROUND = 2  # a round ended and was scored; the pending deal is now in play
OUT_GAME_OVER = 3  # the last round ended and was scored; the game is over

ROD_CARD = FIRST_ARTIFACT + ROD
GIFT_CARD = FIRST_ARTIFACT + GIFT


@njit(cache=True)
def hand_array(cards, i, seat, buf):
    """The sorted card ids of seat ``seat``'s hand in slot ``i`` into ``buf`` (int64); their number."""
    n = 0
    plane = HAND + seat
    for c in range(N_CARD_IDS):
        for _ in range(cards[i, plane, c]):
            buf[n] = c
            n += 1
    return n


@njit(cache=True)
def legal_keys(cards, scal, i, buf):
    """Play keys of every legal play of the seat to act in slot ``i``, in the order of
    :func:`seers_env.engine.moves.legal_plays` (int64 array; empty once the game is over).

    ``buf``: int64 scratch of at least 68 + 30 * 5 entries (a hand's card ids)."""
    if scal[i, S_OVER]:
        return np.empty(0, np.int64)
    seat = scal[i, S_CURRENT]
    n = hand_array(cards, i, seat, buf)
    return core.legal_keys(buf[:n], scal[i, S_TOP_TYPE], scal[i, S_TOP_SIZE], scal[i, S_TOP_RANK], seat,
                           scal[i, S_N_PLAYERS], n <= BONUS_MAX_CARDS)


@njit(cache=True)
def legal_keys_folded(cards, scal, i, buf):
    """:func:`legal_keys` with the ride-along copies folded (:func:`seers_env.engine.core.legal_keys_folded`):
    ``(keys int64, ride bitmask of the artifact kinds held)``."""
    if scal[i, S_OVER]:
        return np.empty(0, np.int64), 0
    seat = scal[i, S_CURRENT]
    n = hand_array(cards, i, seat, buf)
    return core.legal_keys_folded(buf[:n], scal[i, S_TOP_TYPE], scal[i, S_TOP_SIZE], scal[i, S_TOP_RANK], seat,
                                  scal[i, S_N_PLAYERS], n <= BONUS_MAX_CARDS)


@njit(cache=True, inline="always")
def _take(cards, i, seat, c, k):
    """Seat ``seat`` plays ``k`` copies of card ``c``: out of the hand and of its known cards, face-up."""
    cards[i, HAND + seat, c] -= k
    known = cards[i, KNOWN + seat, c]
    cards[i, KNOWN + seat, c] = known - k if known > k else 0
    cards[i, PLAYED + seat, c] += k


@njit(cache=True)
def meld_cards(key, out):
    """Card counts (``out``, length 68, zeroed here) of the cards a meld key takes out of the hand."""
    out[:] = 0
    meld_type = key & 3
    naturals = key >> 33 & 4095
    extra = key >> 45 & 4095
    if meld_type == core.RUN:
        base = ((key >> 19 & 7) - 1) * N_VALUES
        for b in range(N_VALUES):
            if naturals >> b & 1:
                out[base + b] += 1
    elif meld_type != 0 and extra:
        for s in range(5):
            if naturals >> s & 1:
                out[s * N_VALUES + extra - MIN_VALUE] += 1
    modified = (key >> 23 & 127) - 1
    if modified >= 0:
        out[modified] += 1
    out[WILD] += key >> 13 & 7
    art = (key >> 16 & 7) - 1
    if art >= 0:
        out[FIRST_ARTIFACT + art] += 1


@njit(cache=True)
def _next_active(scal, i, seat):
    n = scal[i, S_N_PLAYERS]
    for step in range(1, n + 1):
        nxt = (seat + step) % n
        if not scal[i, S_PASSED + nxt]:
            return nxt
    return seat


@njit(cache=True)
def _new_trick(cards, scal, i, leader):
    cards[i, TRICK, :] = 0
    scal[i, S_TOP_TYPE] = 0
    scal[i, S_TOP_SIZE] = 0
    scal[i, S_TOP_RANK] = 0
    scal[i, S_TOP_SEAT] = -1
    for s in range(MAX_SEATS):
        scal[i, S_PASSED + s] = 0
    scal[i, S_LEAD_PASSES] = 0
    scal[i, S_START] = leader
    scal[i, S_CURRENT] = leader


@njit(cache=True)
def round_score(cards, i, seat):
    """Round score of a hand (section 5): the lowest value among 1..5 cards held (wild and artifact 0),
    minus one point per card held."""
    held = 0
    low = 99
    for c in range(N_CARD_IDS):
        k = cards[i, HAND + seat, c]
        if k:
            held += k
            v = c % N_VALUES + MIN_VALUE if c < N_SUITED else 0
            if v < low:
                low = v
    if 1 <= held <= BONUS_MAX_CARDS:
        return low - held
    return -held


@njit(cache=True)
def install_pending(cards, scal, scores, i):
    """Put slot ``i``'s pending deal in play (a new round, or a new game when ``S_PENDING_NEW_GAME``)."""
    if not scal[i, S_PENDING_READY]:
        scal[i, S_ERROR] = 1
        return
    n = scal[i, S_N_PLAYERS]
    if scal[i, S_PENDING_NEW_GAME]:
        scal[i, S_ROUND] = 0
        scal[i, S_OVER] = 0
        scores[i, :, :] = 0
        for s in range(MAX_SEATS):
            scal[i, S_TOTALS + s] = 0
    for s in range(n):
        cards[i, HAND + s, :] = cards[i, PENDING + s, :]
        cards[i, PLAYED + s, :] = 0
        cards[i, KNOWN + s, :] = 0
    cards[i, HIDDEN, :] = cards[i, PENDING_HIDDEN, :]
    cards[i, DISCARDS, :] = 0
    for s in range(MAX_SEATS):
        scal[i, S_SUITS + s] = scal[i, S_PENDING_SUITS + s]
    scal[i, S_GO_FIRST] = scal[i, S_PENDING_GO_FIRST]
    _new_trick(cards, scal, i, scal[i, S_PENDING_START])
    scal[i, S_PENDING_READY] = 0
    scal[i, S_PENDING_NEW_GAME] = 0
    scal[i, S_HIST_COUNT] = 0  # a new round: no plays yet


@njit(cache=True)
def _end_round(cards, scal, scores, i):
    """Score the round (section 5); deal the next one from the pending deal, or end the game."""
    n = scal[i, S_N_PLAYERS]
    r = scal[i, S_ROUND]
    for s in range(n):
        sc = round_score(cards, i, s)
        scores[i, r, s] = sc
        scal[i, S_TOTALS + s] += sc
    if r + 1 >= scal[i, S_N_ROUNDS]:
        scal[i, S_OVER] = 1
        scal[i, S_OUTCOME] = OUT_GAME_OVER
        return
    scal[i, S_ROUND] = r + 1
    scal[i, S_OUTCOME] = OUT_ROUND
    install_pending(cards, scal, scores, i)


@njit(cache=True)
def apply_key(cards, scal, scores, i, key, tmp):
    """Apply legal play ``key`` for the seat to act in slot ``i`` (``Game.apply`` without the checks and
    the event log): sections 3 (pass, meld, trick), 5 (round end) and 6 (Rod, Gift).

    ``tmp``: int64 scratch of length 68. The outcome is in ``scal[i, S_OUTCOME]`` (``OUT_*``) and the
    trick winner in ``scal[i, S_TRICK_WINNER]``; returns the outcome.
    """
    n = scal[i, S_N_PLAYERS]
    seat = scal[i, S_CURRENT]
    scal[i, S_OUTCOME] = OUT_NOTHING
    scal[i, S_TRICK_WINNER] = -1
    h = scal[i, S_HIST_COUNT]  # the round's play history (reset by install_pending at the next deal)
    scal[i, S_HIST_KEYS + h % HISTORY_LEN] = key
    scal[i, S_HIST_SEATS + h % HISTORY_LEN] = seat
    scal[i, S_HIST_COUNT] = h + 1
    kind = key >> 57 & 3
    if kind == core.PASS_KIND:
        if scal[i, S_TOP_TYPE] == 0:  # a Start Seer who cannot open (section 3 [ruling])
            scal[i, S_LEAD_PASSES] += 1
            if scal[i, S_LEAD_PASSES] >= n:
                _end_round(cards, scal, scores, i)
            else:
                scal[i, S_START] = (seat + 1) % n
                scal[i, S_CURRENT] = (seat + 1) % n
            return scal[i, S_OUTCOME]
        scal[i, S_PASSED + seat] = 1
        left = 0
        last = -1
        for s in range(n):
            if not scal[i, S_PASSED + s]:
                left += 1
                if last < 0:
                    last = s
        if left == 1:  # all but one passed: the top meld's player wins the trick
            for c in range(N_CARD_IDS):
                cards[i, DISCARDS, c] += cards[i, TRICK, c]
            _new_trick(cards, scal, i, last)
            scal[i, S_OUTCOME] = OUT_TRICK
            scal[i, S_TRICK_WINNER] = last
        else:
            scal[i, S_CURRENT] = _next_active(scal, i, seat)
        return scal[i, S_OUTCOME]
    if kind == core.ROD_KIND:  # section 6 [ruling]: take the trick, publicly; lead the next
        _take(cards, i, seat, ROD_CARD, 1)
        cards[i, DISCARDS, ROD_CARD] += 1
        for c in range(N_CARD_IDS):
            k = cards[i, TRICK, c]
            cards[i, HAND + seat, c] += k
            cards[i, KNOWN + seat, c] += k
        _new_trick(cards, scal, i, seat)
        return OUT_NOTHING
    if kind == core.GIFT_KIND:  # section 6 [ruling]: the target becomes Start Seer and leads
        _take(cards, i, seat, GIFT_CARD, 1)
        cards[i, DISCARDS, GIFT_CARD] += 1
        scal[i, S_LEAD_PASSES] = 0
        if _hand_empty(cards, i, seat):
            _end_round(cards, scal, scores, i)
            return scal[i, S_OUTCOME]
        target = (key >> 59 & 7) - 1
        scal[i, S_START] = target
        scal[i, S_CURRENT] = target
        return OUT_NOTHING
    meld_cards(key, tmp)
    for c in range(N_CARD_IDS):
        k = tmp[c]
        if k:
            _take(cards, i, seat, c, k)
            cards[i, TRICK, c] += k
    scal[i, S_TOP_TYPE] = key & 3
    scal[i, S_TOP_SIZE] = key >> 2 & 15
    scal[i, S_TOP_RANK] = key >> 6 & 127
    scal[i, S_TOP_SEAT] = seat
    scal[i, S_LEAD_PASSES] = 0
    if _hand_empty(cards, i, seat):  # the round ends at once, even mid-trick (section 3)
        _end_round(cards, scal, scores, i)
        return scal[i, S_OUTCOME]
    scal[i, S_CURRENT] = _next_active(scal, i, seat)
    return OUT_NOTHING


@njit(cache=True, inline="always")
def _hand_empty(cards, i, seat):
    for c in range(N_CARD_IDS):
        if cards[i, HAND + seat, c]:
            return False
    return True


@njit(cache=True)
def random_play(cards, scal, scores, i, uniforms, max_plays):
    """Random play in slot ``i``: at each step list every legal play (:func:`legal_keys`) and apply
    ``legal[int(u * len(legal))]`` for the next ``u`` of ``uniforms`` (float64 in [0, 1)).

    Stops after ``max_plays`` plays, when ``uniforms`` run out, when the game ends, or when a round ends
    and slot ``i`` has no deal drawn ahead yet (the caller refills it). Returns
    ``(plays made, most legal plays at one step)``.

    Compiled code has no bounds checks, so the index is guarded here: at a ``u`` outside [0, 1) (or NaN)
    it stops before that play and returns ``most = -1`` (the error code; nothing of that play is
    applied). :func:`random_play_game` checks ``uniforms`` first and raises ``ValueError`` instead.
    """
    buf = np.empty(N_CARD_IDS + 160, np.int64)
    tmp = np.empty(N_CARD_IDS, np.int64)
    plays = 0
    most = 0
    limit = min(max_plays, uniforms.shape[0])
    while plays < limit and not scal[i, S_OVER]:
        keys = legal_keys(cards, scal, i, buf)
        nk = keys.shape[0]
        if nk > most:
            most = nk
        u = uniforms[plays]
        if not (u >= 0.0 and u < 1.0) or nk == 0:  # NaN fails both comparisons
            return plays, -1
        j = int(u * nk)
        if j >= nk:  # u * nk rounded up to nk
            j = nk - 1
        apply_key(cards, scal, scores, i, keys[j], tmp)
        plays += 1
        if scal[i, S_OUTCOME] == OUT_ROUND and not scal[i, S_OVER]:
            if not scal[i, S_PENDING_READY] and scal[i, S_ROUND] + 1 < scal[i, S_N_ROUNDS]:
                break
    return plays, most


@njit(cache=True)
def put_pending_deal(cards, scal, i, shuffled, removed, dealt, suits, go_first_holder, start_seer, new_game):
    """Write a deal drawn by :func:`~seers_env.engine.game.draw_deal_arrays` into slot ``i``'s pending
    planes and scalars (what :meth:`KernelGames._put_pending` writes for the same
    :func:`~seers_env.engine.game.draw_deal`): the first ``removed`` cards of ``shuffled`` set aside, then
    12 suited cards, one wild and the next two artifacts of ``dealt`` for each seat in turn."""
    n = scal[i, S_N_PLAYERS]
    for s in range(MAX_SEATS):
        cards[i, PENDING + s, :] = 0
        scal[i, S_PENDING_SUITS + s] = 0
    cards[i, PENDING_HIDDEN, :] = 0
    for j in range(removed):
        cards[i, PENDING_HIDDEN, shuffled[j]] += 1
    for s in range(n):
        start = removed + s * SUITED_PER_PLAYER
        for j in range(start, start + SUITED_PER_PLAYER):
            cards[i, PENDING + s, shuffled[j]] += 1
        cards[i, PENDING + s, WILD] += WILDS_PER_PLAYER
    for j in range(dealt.shape[0]):
        cards[i, PENDING + j // ARTIFACTS_PER_PLAYER, FIRST_ARTIFACT + dealt[j]] += 1
    for j in range(suits.shape[0]):
        scal[i, S_PENDING_SUITS + suits[j]] = 1
    scal[i, S_PENDING_GO_FIRST] = go_first_holder
    scal[i, S_PENDING_START] = start_seer
    scal[i, S_PENDING_NEW_GAME] = 1 if new_game else 0
    scal[i, S_PENDING_READY] = 1


def deal_counts(deal: Deal) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A :class:`~seers_env.engine.game.Deal` as card counts: ``(hands int16 (5, 68), hidden int16 (68,),
    suits int64 (5,) flags)``."""
    flat = [s * N_CARD_IDS + c for s, h in enumerate(deal.hands) for c in h]
    hands = np.bincount(flat, minlength=MAX_SEATS * N_CARD_IDS).astype(np.int16).reshape(MAX_SEATS, N_CARD_IDS)
    hidden = np.zeros(N_CARD_IDS, np.int16)
    hidden[deal.hidden] = 1
    suits = np.zeros(MAX_SEATS, np.int64)
    suits[deal.suits] = 1
    return hands, hidden, suits


class KernelGames:
    """``num_games`` Seers Catalog games on the compiled kernel (see the module docstring).

    Args:
        num_games: number of slots, at least 1.
        config: the :class:`~seers_env.engine.game.GameConfig` of every slot (default: 4 players).

    Attributes:
        cards, scal, scores: the state arrays (module docstring). Read them; change them only through
            the methods here and the compiled functions of this module.
        rngs: each slot's game generator (deals draw from it, as :class:`Game`'s own does).
        slot_rngs: each slot's generator of game seeds for :meth:`next_game_ahead`, or ``None``.

    Raises:
        ValueError: ``num_games < 1``, or more games or rounds than the memory holds (the state keeps
            every round's scores: ``num_games * n_rounds * 5`` int64).

    Every method taking a slot ``i`` (or a ``seat``) raises ``IndexError`` for one outside
    ``0 .. num_games - 1`` (``0 .. n_players - 1``; negative indices are not allowed) and ``TypeError``
    for a non-integer one, before anything changes.
    """

    def __init__(self, num_games: int, config: GameConfig | None = None):
        if not is_integer(num_games) or num_games < 1:
            raise ValueError(f"num_games={num_games!r} is not allowed; use an integer >= 1")
        self.config = config if config is not None else GameConfig()
        n = self.num_games = int(num_games)
        rounds = int(self.config.n_rounds)
        try:
            self.cards = np.zeros((n, N_PLANES, N_CARD_IDS), np.int16)
            self.scal = np.zeros((n, N_SCALARS), np.int64)
            self.scores = np.zeros((n, rounds, MAX_SEATS), np.int64)
        except (MemoryError, ValueError):  # numpy: too large to allocate, or a dimension past its maximum
            need = n * (N_PLANES * N_CARD_IDS * 2 + N_SCALARS * 8 + rounds * MAX_SEATS * 8)
            raise ValueError(f"num_games={n} games of n_rounds={rounds} rounds need {need:,} bytes of state "
                             f"(the round scores of every round are kept), more than this machine can "
                             f"allocate; use fewer games or rounds") from None
        self.scal[:, S_N_PLAYERS] = self.config.n_players
        self.scal[:, S_N_ROUNDS] = self.config.n_rounds
        self.scal[:, S_OVER] = 1
        self.rngs: list[np.random.Generator | None] = [None] * n
        self.slot_rngs: list[np.random.Generator | None] = [None] * n
        self._buf = np.empty(N_CARD_IDS + 160, np.int64)
        self._tmp = np.empty(N_CARD_IDS, np.int64)
        self._removed = SETUP_BY_PLAYERS[self.config.n_players][2]

    # --- index checks ------------------------------------------------------------------------------
    def _slot(self, i) -> int:
        """``i`` as a checked slot index (see the class docstring)."""
        return _index(i, self.num_games, "slot")

    def _seat(self, seat) -> int:
        """``seat`` as a checked seat index (see the class docstring)."""
        return _index(seat, self.config.n_players, "seat")

    # --- dealing (Python, the draws of Game) ---------------------------------------------------------
    def _put_pending(self, i: int, deal: Deal, new_game: bool) -> None:
        hands, hidden, suits = deal_counts(deal)
        self.cards[i, PENDING:PENDING + MAX_SEATS] = hands
        self.cards[i, PENDING_HIDDEN] = hidden
        sc = self.scal[i]
        sc[S_PENDING_SUITS:S_PENDING_SUITS + MAX_SEATS] = suits
        sc[S_PENDING_GO_FIRST] = deal.go_first_holder
        sc[S_PENDING_START] = deal.start_seer
        sc[S_PENDING_NEW_GAME] = int(new_game)
        sc[S_PENDING_READY] = 1

    def _draw_pending(self, i: int, new_game: bool) -> None:
        """Draw slot ``i``'s next deal from ``rngs[i]`` into its pending planes: the draws of
        :func:`~seers_env.engine.game.draw_deal` (so the same deal), written by compiled code."""
        suits, shuffled, dealt, holder, start = draw_deal_arrays(self.rngs[i], self.config)
        put_pending_deal(self.cards, self.scal, i, shuffled, self._removed, dealt, suits, holder, start, new_game)

    def new_game(self, i: int, seed: int | None = None, *, rng: np.random.Generator | None = None) -> None:
        """Start a new game in slot ``i``, dealt as ``Game(config, seed)`` (or ``Game(config, rng=rng)``)
        deals it, and draw its next round ahead.

        Raises:
            IndexError, TypeError: a bad slot ``i`` (class docstring).
        """
        i = self._slot(i)
        self.rngs[i] = rng if rng is not None else np.random.default_rng(seed)
        self._draw_pending(i, True)
        install_pending(self.cards, self.scal, self.scores, i)
        self.refill(i)

    def load_game(self, i: int, game: Game) -> None:
        """Put ``game``'s position in slot ``i`` (a saved or hand-made game, ``Game.from_dict``): hands,
        public cards, trick, scores, the seat to act, the round's play history (from ``game.events``
        since its last deal) and a copy of its generator, from which the next round is drawn ahead, so
        the slot plays on exactly as ``game`` would. ``game`` itself is not changed or kept.

        Raises:
            TypeError: ``game`` is not a :class:`~seers_env.game.Game`.
            ValueError: ``game`` has another config than this kernel (nothing changes).
            IndexError, TypeError: a bad slot ``i`` (class docstring).
        """
        i = self._slot(i)
        if not isinstance(game, Game):
            raise TypeError(f"load_game() takes a Game (Game.from_dict(saved)), got {type(game).__name__}")
        if game.config != self.config:
            raise ValueError(f"the game's config {game.config.to_dict()} is not this kernel's "
                             f"{self.config.to_dict()}")
        n = self.config.n_players
        history = []  # (seat, key) of the round's plays: the events since the last deal
        for ev in game.events:
            if ev["event"] == "deal":
                history = []
            elif ev["event"] == "play":
                history.append((int(ev["seat"]), core.repack(Play.from_dict(ev["play"]))))
        cards = np.zeros((N_PLANES, N_CARD_IDS), np.int16)
        for s in range(n):
            np.add.at(cards[HAND + s], game.hands[s], 1)
            np.add.at(cards[PLAYED + s], game.played[s], 1)
            np.add.at(cards[KNOWN + s], game.known[s], 1)
        np.add.at(cards[TRICK], game.trick_cards(), 1)
        np.add.at(cards[DISCARDS], game.discards, 1)
        np.add.at(cards[HIDDEN], game.hidden, 1)
        sc = np.zeros(N_SCALARS, np.int64)
        sc[S_N_PLAYERS], sc[S_N_ROUNDS] = n, self.config.n_rounds
        sc[S_CURRENT], sc[S_START], sc[S_TOP_SEAT] = game.current, game.start_seer, game.top_seat
        if game.top is not None:
            sc[S_TOP_TYPE], sc[S_TOP_SIZE], sc[S_TOP_RANK] = game.top
        sc[S_LEAD_PASSES], sc[S_ROUND], sc[S_GO_FIRST] = game.lead_passes, game.round, game.go_first_holder
        sc[S_OVER] = int(game.game_over)
        sc[S_PASSED:S_PASSED + n] = [int(p) for p in game.passed]
        sc[[S_SUITS + s for s in game.suits]] = 1
        sc[S_TOTALS:S_TOTALS + n] = game.totals
        sc[S_TRICK_WINNER] = -1
        sc[S_HIST_COUNT] = len(history)
        for j in range(max(0, len(history) - HISTORY_LEN), len(history)):
            sc[S_HIST_SEATS + j % HISTORY_LEN], sc[S_HIST_KEYS + j % HISTORY_LEN] = history[j]
        scores = np.zeros(self.scores.shape[1:], np.int64)
        for r, row in enumerate(game.round_scores):
            scores[r, :n] = row
        self.cards[i], self.scal[i], self.scores[i] = cards, sc, scores
        state = game.rng.bit_generator.state
        bit_gen = getattr(np.random, state["bit_generator"])()
        bit_gen.state = state
        self.rngs[i] = np.random.Generator(bit_gen)  # a copy: the game's own generator is left alone
        self.refill(i)

    def next_game_ahead(self, i: int) -> None:
        """Draw slot ``i``'s next game (its seed from ``slot_rngs[i]``, as the AEC env's ``reset()``) into
        the pending deal: it starts when the current game ends (the batch API's autoreset).

        Raises:
            IndexError, TypeError: a bad slot ``i`` (class docstring).
        """
        i = self._slot(i)
        self.rngs[i] = np.random.default_rng(int(self.slot_rngs[i].integers(2**63 - 1)))
        self._draw_pending(i, True)

    def refill(self, i: int) -> None:
        """Draw slot ``i``'s next round ahead, when it has none and one is to come: the next round of
        this game, or (with a ``slot_rngs[i]``) the first round of the slot's next game.

        Raises:
            IndexError, TypeError: a bad slot ``i`` (class docstring).
        """
        i = self._slot(i)
        sc = self.scal[i]
        if sc[S_PENDING_READY]:
            return
        if not sc[S_OVER] and sc[S_ROUND] + 1 < sc[S_N_ROUNDS]:
            self._draw_pending(i, False)
        elif self.slot_rngs[i] is not None:
            self.next_game_ahead(i)

    def refill_all(self) -> None:
        """:meth:`refill` every slot that has no deal drawn ahead."""
        for i in np.flatnonzero(self.scal[:, S_PENDING_READY] == 0).tolist():
            self.refill(i)

    # --- playing ------------------------------------------------------------------------------------
    def legal_keys(self, i: int) -> np.ndarray:
        """int64 play keys of the legal plays in slot ``i`` (``Game.legal_plays()`` order).

        Raises:
            IndexError, TypeError: a bad slot ``i`` (class docstring).
        """
        i = self._slot(i)
        return legal_keys(self.cards, self.scal, i, self._buf)

    def apply(self, i: int, key: int) -> int:
        """Apply the legal play ``key`` in slot ``i``; returns the outcome (``OUT_*``).

        Raises:
            ValueError: ``key`` is not a legal play key now (nothing changes).
            IndexError, TypeError: a bad slot ``i`` (class docstring).
        """
        i = self._slot(i)
        if int(key) not in self.legal_keys(i).tolist():
            raise ValueError(f"play key {key!r} is not a legal play in slot {i} now")
        out = apply_key(self.cards, self.scal, self.scores, i, int(key), self._tmp)
        if self.scal[i, S_ERROR]:
            raise RuntimeError(f"slot {i}: a round ended with no deal drawn ahead (call refill)")
        self.refill(i)
        return int(out)

    # --- reading -------------------------------------------------------------------------------------
    def hand(self, i: int, seat: int) -> list[int]:
        """Sorted card ids of ``seat``'s hand in slot ``i`` (as ``Game.hands[seat]``).

        Raises:
            IndexError, TypeError: a bad slot ``i`` or ``seat`` (class docstring).
        """
        i, seat = self._slot(i), self._seat(seat)
        return _ids(self.cards[i, HAND + seat])

    def plane(self, i: int, plane: int) -> list[int]:
        """Sorted card ids of one card plane of slot ``i``.

        Raises:
            IndexError, TypeError: a bad slot ``i`` (class docstring) or ``plane`` (``0 .. N_PLANES - 1``).
        """
        i, plane = self._slot(i), _index(plane, N_PLANES, "plane")
        return _ids(self.cards[i, plane])

    def round_scores(self, i: int) -> list[list[int]]:
        """The scored rounds of slot ``i`` (as ``Game.round_scores``).

        Raises:
            IndexError, TypeError: a bad slot ``i`` (class docstring).
        """
        i = self._slot(i)
        n = self.config.n_players
        done = int(self.scal[i, S_ROUND]) + int(self.scal[i, S_OVER])
        return [self.scores[i, r, :n].tolist() for r in range(done)]

    def totals(self, i: int) -> list[int]:
        """Each seat's game total in slot ``i`` (as ``Game.totals``).

        Raises:
            IndexError, TypeError: a bad slot ``i`` (class docstring).
        """
        i = self._slot(i)
        return self.scal[i, S_TOTALS:S_TOTALS + self.config.n_players].tolist()


def _index(i, n: int, what: str) -> int:
    """``i`` as an int in ``0 .. n - 1``: ``TypeError`` for a non-integer (bool included), ``IndexError``
    (naming ``what``, the value and the range) outside it."""
    if not is_integer(i):
        raise TypeError(f"{what} index {i!r} is not an integer; use an int in 0 .. {n - 1}")
    if not 0 <= i < n:
        raise IndexError(f"{what} index {i} is out of range; allowed: 0 .. {n - 1}")
    return int(i)


def _ids(counts: np.ndarray) -> list[int]:
    return np.repeat(np.arange(N_CARD_IDS), counts.astype(np.int64)).tolist()


def random_play_game(config: GameConfig, seed: int, uniforms: Sequence[float] | np.ndarray,
                     games: KernelGames | None = None) -> tuple[int, int]:
    """Play one seeded game at random on the kernel (:func:`random_play`), drawing each play's index
    from ``uniforms`` in order; returns ``(plays, most legal plays at one step)``.

    Args:
        uniforms: float64 ``(P,)``, each in [0, 1): the ``u`` of each play, in order.

    Raises:
        ValueError: ``uniforms`` is not 1-D, holds a value that is not finite or outside [0, 1) (checked
            before anything is played), or ran out before the game ended.
    """
    u = np.asarray(uniforms, dtype=np.float64)
    if u.ndim != 1:
        raise ValueError(f"uniforms must be 1-D float values in [0, 1), got shape {u.shape}")
    bad = np.flatnonzero(~((u >= 0.0) & (u < 1.0)))
    if bad.size:
        raise ValueError(f"uniforms[{int(bad[0])}] = {float(u[bad[0]])!r} is not allowed; each uniform must be "
                         "finite and in [0, 1)")
    g = games if games is not None else KernelGames(1, config)
    g.new_game(0, seed)
    used = most = 0
    while not g.scal[0, S_OVER]:
        if used >= u.shape[0]:
            raise ValueError(f"{u.shape[0]} uniforms ran out before the game ended")
        plays, m = random_play(g.cards, g.scal, g.scores, 0, u[used:], 1 << 30)
        if m < 0:  # a bad uniform (checked above, so not expected)
            raise ValueError(f"uniforms[{used + plays}] is not allowed; each uniform must be in [0, 1)")
        used += plays
        most = max(most, m)
        g.refill(0)
    return used, most


__all__ = ["HISTORY_LEN", "KernelGames", "apply_key", "legal_keys", "random_play", "random_play_game"]
