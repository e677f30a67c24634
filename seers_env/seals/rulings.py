"""Every Seals **[ruling]** in one place (rules file ``shared/rules/seals.md``; section given).

Each constant names one ruling of the rules file, or a project ruling where the rules file leaves an
engine detail open (marked "project ruling"), and says where the engine implements it. Rulings that are
config options are fields of :class:`~seers_env.seals.game.SealsConfig` with their defaults here.
"""

from __future__ import annotations

# --- Section 1: components ---------------------------------------------------------------------------

#: Section 1 [ruling]: the seed's "2 Red Coins" have no rule in the text and are not modelled.
RED_COINS_MODELLED = False
#: Section 1 [ruling]: 2 to 4 players (publisher); default 3 (``SealsConfig.n_players``).
MIN_PLAYERS, MAX_PLAYERS, DEFAULT_PLAYERS = 2, 4, 3
#: Project ruling: the five colours' names are labels only. The rulebook (seed 002, "Game Turn"
#: examples) names blue, green, red and black cards; the fifth name is the project's.
COLOUR_NAMES = ("Red", "Blue", "Green", "Yellow", "Black")
#: Project ruling: the Mark supply is unlimited (a points counter); a declaration worth more Marks than
#: the 15 of the supply still pays them all (``SealsGame._end_round``).
MARK_SUPPLY_UNLIMITED = True

# --- Section 2: setup --------------------------------------------------------------------------------

#: Section 2: round 1's first player is drawn from the game's generator before the first shuffle; each
#: later round's first player is one seat clockwise of the previous one (``SealsGame._deal_round``).
FIRST_PLAYER_RANDOM = True
START_PLAYER_STEP = 1
#: Project ruling: in a tie-break round (section 6) the first player is the first seat clockwise from
#: the usual next first player that plays the round.
TIE_BREAK_START_SKIPS_SITTERS_OUT = True
#: Section 2/6: the round counter holds this many Marks: the game has this many rounds before
#: tie-breaks (``SealsConfig.n_rounds``).
DEFAULT_ROUND_COUNTER = 5

# --- Section 3: a turn -------------------------------------------------------------------------------

#: Section 3: the face-up row is refilled to this many cards at the start of every turn.
ROW_SIZE = 4
#: Section 3 [ruling]: a pile that cannot refill the row reveals what is left; a turn that starts with
#: no face-up card and an empty pile ends the round with no winner (``SealsGame._begin_turn``).
ROUND_ENDS_WHEN_NOTHING_TO_TAKE = True
#: Section 3 [ruling]: no hand limit.
HAND_LIMIT = None
#: Section 3 [ruling]: hands are public (every card was taken face up); the draw pile's order is the
#: only hidden information (:class:`~seers_env.seals.view.SealsSeatView`).
HANDS_PUBLIC = True
#: Project ruling: a declaration is asked for (``phase == "declare"``) only when the hand after the take
#: holds at least one set; otherwise the turn ends at once (declaring nothing is the only choice).
DECLARE_ASKED_ONLY_WITH_A_SET = True

# --- Section 4: sets and Marks -----------------------------------------------------------------------

#: Section 4 [ruling]: a 1-10 run may mix colours (publisher).
RUN_ANY_COLOURS = True
#: Section 4: four of a kind is exactly four cards; a fifth of that symbol stays in hand. Since the
#: round ends at once on a declaration, which four are laid down never matters: a declaration is the
#: set of set kinds it lays down (:mod:`seers_env.seals.moves`).
FOUR_OF_A_KIND_SIZE = 4
#: Section 4 [ruling]: a player may decline to declare sets they hold (the declaration "none").
MAY_DECLINE = True

# --- Section 5: round end ----------------------------------------------------------------------------

#: Round-end reasons as the engine reports them.
REASON_DECLARED = "declared"  # section 5: a player laid down sets
REASON_EXHAUSTED = "exhausted"  # section 3 [ruling]: no card left to take
REASON_TRUNCATED = "truncated"  # section 5 [ruling]: max_turns_per_round
REASONS = (REASON_DECLARED, REASON_EXHAUSTED, REASON_TRUNCATED)
#: Section 5 [ruling]: a round without a winner (exhausted or truncated) gives no Marks and still takes
#: one Mark from the round counter.
NO_WINNER_ROUND_USES_COUNTER = True
#: Section 5 [ruling]: the safety cap on turns (takes) per round (``SealsConfig.max_turns_per_round``).
DEFAULT_MAX_TURNS_PER_ROUND = 500

# --- Section 6: game end -----------------------------------------------------------------------------

#: Section 6: after a round, a player with this many Marks or more wins at once.
MARKS_TO_WIN = 5
#: Section 6 [ruling]: at most this many tie-break rounds; then the tie is a shared win
#: (``SealsConfig.max_tie_break_rounds``).
DEFAULT_MAX_TIE_BREAK_ROUNDS = 3
#: Project ruling: tie-break rounds take no Mark from the (empty) round counter; a tie-break round
#: without a winner counts towards the cap.
TIE_BREAK_USES_COUNTER = False
