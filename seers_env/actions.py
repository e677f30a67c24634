"""The fixed action catalogue of the environment: ``Discrete(N_ACTIONS)``, ``N_ACTIONS == 6928``.

A legal play (one engine representative per play identity, rules section 3 [ruling],
:data:`seers_env.rulings.PLAY_IDENTITY`) is chosen by up to three decisions of the same agent. Each
decision picks one code from its own block of the catalogue:

=========  ======================  ========  =================================================================
stage      block                   codes     meaning
=========  ======================  ========  =================================================================
0 main     ``PASS``                1         pass
0 main     ``ROD``                 1         Rod of Reincarnation: take the trick
0 main     ``GIFT``                1         Gift of Fate (the target follows at stage 2)
0 main     ``HIGHEST``             1         the highest-single artifact played alone as a Single
0 main     ``GROUP(v, mask, w)``   2304      Single / Matching Set counting as value ``v`` (2..13): the suited
                                             cards of printed value ``v`` in the suits of ``mask`` (5 bits,
                                             Yellow = bit 0) plus ``w`` wilds (0..5); an artifact-changed card
                                             comes at stage 2
0 main     ``RUN(suit, lo, hi)``   330       Suited Run counting as ``suit`` over values ``lo..hi`` (66 windows)
1 wilds    ``WILDS(m)``            4096      the run values filled by wilds (bit ``v - 2`` of ``m``)
2 artifact ``NONE``                1         no artifact
2 artifact ``CARRY(kind)``         7         the artifact of ``kind`` rides along / is declared unused
2 artifact ``CAULDRON(card, d)``   120       Cauldron of Sorcery on suited ``card``: value ``+1`` or ``-1``
                                             (for a group the card is in addition to ``mask``; for a run it
                                             fills a position that is not a wild)
2 artifact ``SUIT(card)``          60        suit-change artifact: ``card`` counts as the run's suit
2 artifact ``HALF(+/-)``           2         half-step artifact: comparison value ``+1/2`` or ``-1/2``
2 artifact ``TARGET(k)``           4         Gift of Fate target: seat ``(seat + k) % n_players``, k = 1..4
=========  ======================  ========  =================================================================

:class:`Decision` narrows the legal plays by each chosen code and skips a later stage when every
remaining play has the same code there, so most plays take one decision; the mask of every decision is
exact (``mask[a] == 1`` exactly when some legal play continues with ``a``). Every legal play has its own
code path (:func:`play_codes`), so every distinct legal play is reachable.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .engine.artifacts import ARTIFACT_KINDS, CAULDRON, HALF_STEP, HIGHEST_SINGLE, SUIT_CHANGER
from .engine.cards import MAX_VALUE, MIN_VALUE, N_SUITED, N_SUITS, N_VALUES, SUIT_NAMES, card_name
from .engine.jit import njit
from .engine.moves import PlayList
from .engine.plays import Play, PlayKind
from .integers import is_integer

MAX_PLAYERS = 5
MAX_WILDS = 5
N_KINDS = len(ARTIFACT_KINDS)

# --- stage 0: main codes --------------------------------------------------------------------------
PASS = 0
ROD = 1
GIFT = 2
HIGHEST = 3
GROUP_BASE = 4
N_GROUP = N_VALUES * 32 * (MAX_WILDS + 1)  # 2304
RUN_BASE = GROUP_BASE + N_GROUP  # 2308
#: ``WINDOWS[i] == (lo, hi)``: the 66 run windows, by lo then hi.
WINDOWS: tuple[tuple[int, int], ...] = tuple(
    (lo, hi) for lo in range(MIN_VALUE, MAX_VALUE) for hi in range(lo + 1, MAX_VALUE + 1)
)
_WINDOW_INDEX = {w: i for i, w in enumerate(WINDOWS)}
N_RUN = N_SUITS * len(WINDOWS)  # 330
N_MAIN = RUN_BASE + N_RUN  # 2638
# --- stage 1: wild positions of a run -------------------------------------------------------------
WILDS_BASE = N_MAIN
N_WILDS_CODES = 1 << N_VALUES  # 4096
# --- stage 2: artifact ----------------------------------------------------------------------------
ART_BASE = WILDS_BASE + N_WILDS_CODES  # 6734
ART_NONE = ART_BASE
CARRY_BASE = ART_NONE + 1
CAULDRON_BASE = CARRY_BASE + N_KINDS
SUIT_BASE = CAULDRON_BASE + 2 * N_SUITED
HALF_BASE = SUIT_BASE + N_SUITED
TARGET_BASE = HALF_BASE + 2
N_ACTIONS = TARGET_BASE + MAX_PLAYERS - 1  # 6928

#: First code of each stage, and one past its last.
STAGE_RANGES: tuple[tuple[int, int], ...] = ((0, N_MAIN), (WILDS_BASE, ART_BASE), (ART_BASE, N_ACTIONS))
N_STAGES = 3
STAGE_NAMES = ("main", "wild positions", "artifact")

_COUNT_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
                "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen")


def group_code(value: int, suit_mask: int, n_wilds: int) -> int:
    """Main code of a Single / Matching Set (see the module table)."""
    return GROUP_BASE + ((value - MIN_VALUE) * 32 + suit_mask) * (MAX_WILDS + 1) + n_wilds


def run_code(suit: int, lo: int, hi: int) -> int:
    """Main code of a Suited Run of ``suit`` over ``lo..hi``."""
    return RUN_BASE + suit * len(WINDOWS) + _WINDOW_INDEX[(lo, hi)]


def play_codes(play: Play, seat: int, n_players: int) -> tuple[int, int, int]:
    """The decision codes ``(main, wild positions, artifact)`` of a legal play of ``seat``.

    A stage that does not apply to the play is ``-1`` (wild positions of anything but a Run). Distinct
    play identities give distinct tuples.

    Raises:
        ValueError: ``play`` is not a play the engine generates (e.g. more than 5 wilds in a group).
    """
    if play.kind == PlayKind.GIFT:
        return (GIFT, -1, TARGET_BASE + (play.target - seat) % n_players - 1)
    return _codes(play)


#: ``_WIN[lo][hi]``: window index of a run (hot path of :func:`main_code`).
_WIN = [[_WINDOW_INDEX.get((lo, hi), -1) for hi in range(MAX_VALUE + 1)] for lo in range(MAX_VALUE + 1)]
_VALUE = [c % N_VALUES + MIN_VALUE for c in range(N_SUITED)]
_SUIT_BIT = [1 << (c // N_VALUES) for c in range(N_SUITED)]


def main_code(play: Play) -> int:
    """The stage-0 code of a play (``play_codes(play, ...)[0]``), computed fast for mask building."""
    kind = play[0]
    if kind != 1:  # PASS 0 -> 0, ROD 2 -> 1, GIFT 3 -> 2
        return kind - 1 if kind else PASS
    rank = play[3]
    art = play[6]
    if art >= 0 and play[9]:
        if art == HIGHEST_SINGLE:
            return HIGHEST
        if art == HALF_STEP:
            rank -= play[11]
    v = rank >> 1
    if play[1] == 3:
        return RUN_BASE + play[8] * 66 + _WIN[v - play[2] + 1][v]
    mask = 0
    mc = play[10]
    for c in play[4]:
        if _VALUE[c] == v and c != mc:
            mask |= _SUIT_BIT[c]
    return GROUP_BASE + ((v - MIN_VALUE) * 32 + mask) * 6 + play[5]


_WIN_ARRAY = np.array(_WIN, dtype=np.int64)


@njit(cache=True, inline="always")
def main_code_of_key(key):
    """Stage-0 code of the play with play key ``key`` (:mod:`seers_env.engine.core`); compiled."""
    kind = key >> 57 & 3
    if kind != 1:  # PASS 0 -> 0, ROD 2 -> 1, GIFT 3 -> 2
        return kind - 1 if kind else PASS
    rank = key >> 6 & 127
    art = (key >> 16 & 7) - 1
    if art >= 0 and key >> 22 & 1:
        if art == HIGHEST_SINGLE:
            return HIGHEST
        if art == HALF_STEP:
            rank -= (key >> 30 & 7) - 1
    v = rank >> 1
    if key & 3 == 3:
        size = key >> 2 & 15
        return RUN_BASE + ((key >> 19 & 7) - 1) * 66 + _WIN_ARRAY[v - size + 1, v]
    # the group's natural cards of value v (the key's suit mask) and its wilds
    return GROUP_BASE + ((v - MIN_VALUE) * 32 + (key >> 33 & 31)) * 6 + (key >> 13 & 7)


@njit(cache=True)
def main_codes_of_keys(keys: np.ndarray) -> np.ndarray:
    """Stage-0 codes of plays given by their play keys (:mod:`seers_env.engine.core`): int64 ``(n,)``.

    The compiled twin of :func:`main_code` (same codes), used to build masks without ``Play`` objects.
    """
    out = np.empty(keys.shape[0], np.int64)
    for i in range(keys.shape[0]):
        out[i] = main_code_of_key(keys[i])
    return out


def _codes(play: Play) -> tuple[int, int, int]:
    kind = play.kind
    if kind == PlayKind.PASS:
        return (PASS, -1, ART_NONE)
    if kind == PlayKind.ROD:
        return (ROD, -1, ART_NONE)
    if kind != PlayKind.MELD:
        raise ValueError(f"play kind {kind!r} is not one of {[k.name for k in PlayKind]}")
    art, used = play.artifact, play.effect_used
    if art == HIGHEST_SINGLE and used:
        return (HIGHEST, -1, ART_NONE)
    rank = play.rank
    if art < 0:
        stage2 = ART_NONE
    elif not used:
        stage2 = CARRY_BASE + art
    elif art == HALF_STEP:
        rank -= play.modifier
        stage2 = HALF_BASE + (play.modifier > 0)
    elif art == CAULDRON:
        stage2 = CAULDRON_BASE + 2 * play.modified_card + (play.modifier > 0)
    elif art == SUIT_CHANGER:
        stage2 = SUIT_BASE + play.modified_card
    else:
        raise ValueError(f"artifact {ARTIFACT_KINDS[art].name!r} has no effect used with a meld")
    v = rank // 2
    if play.meld_type == 3:  # Suited Run
        wmask = 0
        for x in play.wild_values:
            wmask |= 1 << (x - MIN_VALUE)
        return (run_code(play.run_suit, v - play.size + 1, v), WILDS_BASE + wmask, stage2)
    mask = 0
    for c in play.suited:
        s, cv = divmod(c, N_VALUES)
        if cv + MIN_VALUE == v and c != play.modified_card:
            mask |= 1 << s
    if play.wilds > MAX_WILDS:
        raise ValueError(f"a group with {play.wilds} wilds is outside the catalogue (at most {MAX_WILDS})")
    return (group_code(v, mask, play.wilds), -1, stage2)


class Decision:
    """The pending choice of one agent among its legal plays, made by one to three actions.

    Args:
        legal_plays: the engine's legal plays (``Game.legal_plays()``), non-empty.
        seat: the deciding seat (0-based).
        n_players: players in the game (2..5).

    Attributes:
        stage: the pending decision kind: 0 main, 1 wild positions, 2 artifact (3 once complete).
        chosen: codes chosen so far (``list[int]``).
        cands: indices into ``legal`` of the plays still compatible with the choices made.

    Only the main codes are computed up front; the full :func:`play_codes` of a play are computed when
    a main code is shared by several plays.

    Raises:
        ValueError: ``legal_plays`` is empty.
    """

    __slots__ = ("legal", "seat", "n_players", "main", "_main_array", "_full", "cands", "stage", "chosen",
                 "_mask")

    def __init__(self, legal_plays: Sequence[Play], seat: int, n_players: int):
        if not legal_plays:
            raise ValueError("a Decision needs at least one legal play (the game may be over)")
        # the engine's read-only PlayList as it is (lazy); any other sequence copied, as the caller may change it
        self.legal = legal_plays if isinstance(legal_plays, PlayList) else list(legal_plays)
        self.seat = seat
        self.n_players = n_players
        keys = getattr(legal_plays, "keys", None)  # the engine's PlayList: codes from the play keys
        if keys is not None and len(keys) == len(legal_plays):
            self._main_array = main_codes_of_keys(keys)
            self.main = self._main_array.tolist()
        else:
            self.main = [main_code(p) for p in legal_plays]
            self._main_array = None
        self._full: dict[int, tuple[int, int, int]] = {}
        self.cands = range(len(legal_plays))
        self.stage = 0
        self.chosen: list[int] = []
        self._mask: np.ndarray | None = None

    def code(self, i: int, stage: int) -> int:
        """Code of legal play ``i`` at ``stage``."""
        if stage == 0:
            return self.main[i]
        full = self._full.get(i)
        if full is None:
            full = self._full[i] = play_codes(self.legal[i], self.seat, self.n_players)
        return full[stage]

    def legal_actions(self) -> list[int]:
        """Sorted action ids allowed now."""
        st = self.stage
        return sorted({self.code(i, st) for i in self.cands})

    def mask(self) -> np.ndarray:
        """``int8`` array of shape ``(N_ACTIONS,)``: 1 exactly for the actions allowed now (a copy)."""
        if self._mask is None:
            m = np.zeros(N_ACTIONS, dtype=np.int8)
            if self.stage == 0:
                m[self.main if self._main_array is None else self._main_array] = 1
            else:
                m[[self.code(i, self.stage) for i in self.cands]] = 1
            self._mask = m
        return self._mask.copy()

    def write_mask(self, out: np.ndarray) -> None:
        """Write the mask of :meth:`mask` into ``out`` (int8, shape ``(N_ACTIONS,)``) in place."""
        out[:] = 0
        if self.stage == 0:
            out[self.main if self._main_array is None else self._main_array] = 1
        else:
            out[[self.code(i, self.stage) for i in self.cands]] = 1

    def is_legal(self, action: int) -> bool:
        """Whether ``action`` is allowed now."""
        if self.stage == 0:
            return action in self.main
        st = self.stage
        return any(self.code(i, st) == action for i in self.cands)

    def choose(self, action: int) -> Play | None:
        """Take ``action``; return the play once it is fully determined, else ``None`` (a next stage).

        Raises:
            ValueError: ``action`` is not allowed now (the message lists the allowed ones); the Decision
                is unchanged.
        """
        st = self.stage
        if st == 0:
            main = self.main
            left = [i for i in self.cands if main[i] == action]
        else:
            left = [i for i in self.cands if self.code(i, st) == action]
        if not left:
            allowed = self.legal_actions() if st < N_STAGES else []
            shown = ", ".join(map(str, allowed[:12])) + (" ..." if len(allowed) > 12 else "")
            stage = STAGE_NAMES[st] if st < N_STAGES else "(complete)"
            raise ValueError(f"action {action!r} is not allowed at the {stage} stage; allowed: {shown or 'none'}")
        self.chosen.append(int(action))
        self.cands = left
        self._mask = None
        if len(left) == 1:
            self.stage = N_STAGES
            return self.legal[left[0]]
        for nxt in range(st + 1, N_STAGES):
            first = self.code(left[0], nxt)
            if any(self.code(i, nxt) != first for i in left):
                self.stage = nxt
                return None
        raise AssertionError("two legal plays share one code path")  # excluded by play_codes

    def actions_for(self, play: Play) -> list[int]:
        """Action ids, in order, that select the legal play with ``play``'s identity from this state.

        Raises:
            ValueError: no legal play has ``play``'s identity (or it is excluded by earlier choices).
        """
        key = tuple(play[:8])
        target = next((i for i in self.cands if self.legal[i][:8] == key), None)
        if target is None:
            raise ValueError(f"play {play.describe()!r} is not among the plays left to choose from")
        left, st, out = list(self.cands), self.stage, []
        while True:
            c = self.code(target, st)
            out.append(c)
            left = [i for i in left if self.code(i, st) == c]
            if len(left) == 1:
                return out
            st = next(s for s in range(st + 1, N_STAGES)
                      if any(self.code(i, s) != self.code(left[0], s) for i in left))

    def candidates(self) -> list[Play]:
        """The legal plays still compatible with the choices made."""
        return [self.legal[i] for i in self.cands]


def decode(action: int) -> tuple[int, str, dict]:
    """Split an action id into ``(stage, block, fields)``, e.g. ``(0, "GROUP", {"value": 7, ...})``.

    Raises:
        TypeError: not an integer. ValueError: outside ``0..N_ACTIONS-1``.
    """
    if not is_integer(action):
        raise TypeError(f"action must be an integer, got {type(action).__name__}: {action!r}")
    a = int(action)
    if not 0 <= a < N_ACTIONS:
        raise ValueError(f"action {a} is outside the catalogue 0..{N_ACTIONS - 1}")
    if a < GROUP_BASE:
        return 0, ("PASS", "ROD", "GIFT", "HIGHEST")[a], {}
    if a < RUN_BASE:
        r, w = divmod(a - GROUP_BASE, MAX_WILDS + 1)
        v, mask = divmod(r, 32)
        return 0, "GROUP", {"value": v + MIN_VALUE, "suit_mask": mask, "wilds": w}
    if a < WILDS_BASE:
        s, wi = divmod(a - RUN_BASE, len(WINDOWS))
        lo, hi = WINDOWS[wi]
        return 0, "RUN", {"suit": s, "lo": lo, "hi": hi}
    if a < ART_BASE:
        m = a - WILDS_BASE
        return 1, "WILDS", {"values": [v + MIN_VALUE for v in range(N_VALUES) if m >> v & 1]}
    if a == ART_NONE:
        return 2, "NONE", {}
    if a < CAULDRON_BASE:
        return 2, "CARRY", {"kind": a - CARRY_BASE}
    if a < SUIT_BASE:
        c, up = divmod(a - CAULDRON_BASE, 2)
        return 2, "CAULDRON", {"card": c, "delta": 1 if up else -1}
    if a < HALF_BASE:
        return 2, "SUIT", {"card": a - SUIT_BASE}
    if a < TARGET_BASE:
        return 2, "HALF", {"step": 1 if a - HALF_BASE else -1}
    return 2, "TARGET", {"offset": a - TARGET_BASE + 1}


def describe_action(action: int, decision: Decision | None = None) -> str:
    """Readable text of an action.

    With the ``decision`` it belongs to, an action that completes a play gives the play's text, e.g.
    ``"Matching Set of three 7s: Plum 7, Teal 7, wild as 7"``; otherwise the catalogue entry is described.

    Raises:
        TypeError / ValueError: see :func:`decode`.
    """
    stage, block, f = decode(action)
    if decision is not None and decision.stage == stage:
        st = decision.stage
        plays = [decision.legal[i] for i in decision.cands if decision.code(i, st) == action]
        if len(plays) == 1:
            return plays[0].describe()
    if block == "PASS":
        return "Pass"
    if block == "ROD":
        return "Rod of Reincarnation: take every card of this trick and lead the next"
    if block == "GIFT":
        return "Gift of Fate (choose the new Start Seer next)"
    if block == "HIGHEST":
        return "Single: Highest Single (beats every Single)"
    if block == "GROUP":
        v, mask, w = f["value"], f["suit_mask"], f["wilds"]
        parts = [card_name(s * N_VALUES + v - MIN_VALUE) for s in range(N_SUITS) if mask >> s & 1]
        parts += [f"wild as {v}"] * w
        n = len(parts)
        head = f"Single {v}" if n == 1 else f"Matching Set of {_COUNT_WORDS[min(n, 17)]} {v}s"
        return f"{head}: {', '.join(parts) if parts else '(plus the artifact-changed card)'}"
    if block == "RUN":
        return f"Suited Run in {SUIT_NAMES[f['suit']]} from {f['lo']} to {f['hi']}"
    if block == "WILDS":
        vals = f["values"]
        return "wilds as " + ", ".join(map(str, vals)) if vals else "no wilds"
    if block == "NONE":
        return "no artifact"
    if block == "CARRY":
        return f"{ARTIFACT_KINDS[f['kind']].name} (unused)"
    if block == "CAULDRON":
        c = f["card"]
        return f"Cauldron of Sorcery: {card_name(c)} as {c % N_VALUES + MIN_VALUE + f['delta']}"
    if block == "SUIT":
        return f"{ARTIFACT_KINDS[SUIT_CHANGER].name}: {card_name(f['card'])} counts as the run's suit"
    if block == "HALF":
        return f"{ARTIFACT_KINDS[HALF_STEP].name} {'+' if f['step'] > 0 else '-'}1/2"
    k = f["offset"]
    if decision is not None:
        return f"Gift of Fate target: player_{(decision.seat + k) % decision.n_players}"
    return f"Gift of Fate target: the player {k} seat(s) to the left"


__all__ = [
    "N_ACTIONS", "N_MAIN", "N_STAGES", "STAGE_NAMES", "STAGE_RANGES", "Decision", "decode",
    "describe_action", "group_code", "main_code", "play_codes", "run_code",
]
