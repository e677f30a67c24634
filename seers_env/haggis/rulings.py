"""Every Haggis **[ruling]** in one place (rules file ``shared/rules/haggis.md``; section given).

Each constant names one ruling of the rules file (or a project ruling where it leaves an engine detail
open, marked "project ruling") and says where the engine implements it. Rulings that the rules file makes
a flag are fields of :class:`~seers_env.haggis.game.HaggisConfig`; their defaults live here.
"""

from __future__ import annotations

# --- Section 1: cards --------------------------------------------------------------------------------

#: Section 1 (variant flag only), config ``HaggisConfig.card_points``: ``"standard"`` (3/5/7/9 one
#: point, J 2, Q 3, K 5) or ``"one_each"`` (every card one point, zimoch84's strategy).
CARD_POINTS_CHOICES = ("standard", "one_each")
DEFAULT_CARD_POINTS = "standard"

# --- Section 2: setup ---------------------------------------------------------------------------------

#: Section 2 [ruling]: with 2 players the removed suit is suit index 4 (``cards.SETUP``).
TWO_PLAYER_REMOVED_SUIT = 4
#: Section 2: number cards dealt to each player (plus their own J, Q, K).
CARDS_DEALT = 14
#: Section 2 [ruling]: round 1 is led by seat 0 (``HaggisGame._deal_round``).
FIRST_ROUND_LEADER = 0
#: Section 2 [ruling], config ``HaggisConfig.tie_leader``: later rounds are led by the strictly lowest
#: total; on a shared lowest total ``"bga"`` gives the lead to the player left of the winner of the
#: previous round's last trick (even when not among the tied), ``"first_tied_clockwise"`` to the first
#: tied seat clockwise from that player (``HaggisGame._next_leader``).
TIE_LEADER_CHOICES = ("bga", "first_tied_clockwise")
DEFAULT_TIE_LEADER = "bga"

# --- Section 3: turns ---------------------------------------------------------------------------------

#: Section 3: a player who passed may play again in the same trick (only consecutive passes end it).
PASS_KEEPS_PLAYER_IN_TRICK = True

# --- Section 4: combinations ------------------------------------------------------------------------------

#: Section 4.1 [ruling]: with a number card, a wild stands for any rank 2..its own rank (J 2..11,
#: Q 2..12, K 2..13) and any suit (:func:`seers_env.haggis.moves.wilds_fit`).
WILD_UP_TO_OWN_RANK = True
#: Section 4.1: two or three face cards alone are always a bomb, never a set or a sequence.
FACES_ALONE_ARE_BOMBS = True
#: Section 4.3: a sequence's value is its top rank lo + L - 1, lo the lowest number-card rank
#: (project ruling from the BGA code: a lower top is never offered).
SEQUENCE_VALUE_FROM_LOWEST_NUMBER = True
#: Section 4.5 / 11: the player declares the shape; a (cards, shape) pair fixes the value, so every
#: distinct (cards, shape) is one play (:mod:`seers_env.haggis.moves`).
DECLARED_SHAPE = True

# --- Section 5: captures ----------------------------------------------------------------------------------

#: Section 5 [ruling]: a trick won by a bomb goes to the player of the combination before the bomb; a lone
#: bombed lead goes to the player seated just before the winner (BGA), not to the bomber (zimoch84)
#: (``HaggisGame._close_trick``).
LONE_BOMB_TO_SEAT_BEFORE_WINNER = True

# --- Section 6: going out ---------------------------------------------------------------------------------

#: Section 6 [ruling]: going out scores 5 x the cards of the opponent holding the most (BGA), not
#: 5 x all opponents' cards (``HaggisGame._go_out``).
GOING_OUT_POINTS_PER_CARD = 5
GOING_OUT_COUNTS_LARGEST_HAND = True

# --- Section 7: bets ------------------------------------------------------------------------------------

#: Section 7: the bets (0 = none, 15 little, 30 big).
BETS = (0, 15, 30)
#: Section 7 [ruling]: the bet is a decision of its own at the start of the player's first turn of the
#: round, before that turn's play or pass (``HaggisGame.legal_plays``).
BET_AT_FIRST_TURN = True
#: Section 7 [ruling]: resolved when the first player goes out: that player scores their own bet; each
#: other bet failed and is scored in full by the first player out and by every player with no bet; failed
#: bettors lose nothing and do not score each other's failures (``HaggisGame._resolve_bets``).
FAILED_BET_TO_WINNER_AND_NON_BETTORS = True

# --- Section 9: game end ----------------------------------------------------------------------------------

#: Section 9 [ruling], config ``HaggisConfig.target``: 350 (long, default) or 250 (short).
TARGET_CHOICES = (250, 350)
DEFAULT_TARGET = 350
#: Section 9 [ruling]: a shared highest total plays another round, even above the target.
TIE_PLAYS_ANOTHER_ROUND = True
#: Project ruling, config ``HaggisConfig.n_rounds``: a fixed-length game ends after exactly that many
#: rounds whatever the totals (target and tie rule ignored); ``None`` (default) plays to the target.
DEFAULT_N_ROUNDS = None
#: Project ruling: a game played to a target stops after this many rounds all the same (a safety cap
#: reported as ``HaggisGame.capped``; every round hands out at least 36 points, so it never binds in
#: practice).
MAX_ROUNDS = 100

# --- Section 10: information -----------------------------------------------------------------------------

#: Section 10: each player's face cards still held are public (they lie face up).
FACES_PUBLIC = True
