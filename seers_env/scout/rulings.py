"""Every SCOUT **[ruling]** in one place (rules file ``shared/rules/scout.md``; section given).

Each constant names one ruling of the rules file, or a project ruling where the rules file leaves an
engine detail open (marked "project ruling"), and says where the engine implements it. Values that the
engine reads are used directly (defaults of :class:`~seers_env.scout.game.ScoutConfig`, the cap); the
others record a fixed behaviour, so changing one means changing the code path it names. Rulings that the
rules file makes a flag or config option are fields of :class:`~seers_env.scout.game.ScoutConfig`; their
defaults live here.
"""

from __future__ import annotations

# --- Section 1: components -------------------------------------------------------------------------

#: Section 1 [ruling]: the Scout chip supply is unlimited (chips are a points counter); a round with more
#: than 23 scouts still pays every owner (``ScoutGame._scout``).
SCOUT_CHIP_SUPPLY_UNLIMITED = True

# --- Section 2: setup ------------------------------------------------------------------------------

#: Section 2 [ruling]: rotating the hand reverses its order *and* flips every card
#: (:func:`seers_env.scout.cards.rotate_faces`).
ROTATION_REVERSES_AND_FLIPS = True

#: Section 2 [ruling]: the keep/rotate choices are simultaneous. The engine asks seats in seat order
#: 0..N-1 before the first turn; a seat's view shows no other seat's choice until every seat has chosen
#: (:attr:`seers_env.scout.view.ScoutSeatView.rotated`).
ROTATION_CHOICES_SIMULTANEOUS = True
#: Project ruling: the rotation phase asks seats in this order (seat 0 first), whoever starts the round.
ROTATION_ORDER = "seat order from seat 0"

#: Section 2 [ruling], config ``ScoutConfig.first_player``: round 1 start player. ``"seat0"`` (default),
#: ``"random"`` (drawn from the game's generator right after round 1's deal) or ``"holder_of_1_2"``.
FIRST_PLAYER_CHOICES = ("seat0", "random", "holder_of_1_2")
DEFAULT_FIRST_PLAYER = "seat0"
#: Project ruling: with ``"holder_of_1_2"`` and the {1,2} card not dealt (2 players: among the 22
#: set aside), seat 0 starts.
HOLDER_OF_1_2_FALLBACK_SEAT = 0

#: Section 2: each later round starts with the player left of the previous start player
#: (seat + 1 mod N), so 2 players alternate (``ScoutGame._deal_round``).
START_PLAYER_STEP = 1

# --- Section 4: shows --------------------------------------------------------------------------------

#: Section 4 [ruling]: a single card is a set of size 1, never a run (:mod:`seers_env.scout.moves`).
SINGLE_CARD_IS_SET = True
#: Section 4: runs do not wrap around (10 is not followed by 1).
RUNS_WRAP_AROUND = False

# --- Section 5: Scout and Scout & Show -----------------------------------------------------------

#: Section 5 [ruling]: Scout & Show is legal only as a pair (a scout that leaves a legal show); the
#: engine lists (scout, show) pairs as single plays (:func:`seers_env.scout.moves.scout_show_plays`).
SCOUT_AND_SHOW_ONLY_AS_PAIR = True

#: Section 11.4 / project ruling: of (scout, show) pairs that give exactly the same state, the engine
#: keeps the one with the smallest ``(end, flip, position, start, length)``. The only duplicates are
#: (a) the scouted card shown alone at once (any position: kept at position 0, show (0, 1)), and
#: (b) the scouted card kept in hand and inserted just left or just right of the shown segment (kept:
#: inserted just left, so a show whose segment ends right before the scouted card, ``start + length ==
#: position``, is never listed).
SCOUT_SHOW_CANONICAL = "smallest (end, flip, position, start, length)"

#: Section 11.3: with a 1-card Active Set only ``end = 0`` (left) is listed.
ONE_CARD_SET_SCOUTS_FROM_LEFT_ONLY = True

# --- Section 6: round end (3-5 players) -----------------------------------------------------------

#: Section 6 [ruling]: round end (b) applies also when the last of the N-1 scouts took the final card of
#: the Active Set (``ScoutGame._scout``).
ROUND_END_B_WHEN_SET_EMPTIED = True

#: Section 6 [ruling]: safety cap on turns per round (config ``ScoutConfig.max_turns_per_round``).
DEFAULT_MAX_TURNS_PER_ROUND = 1000
#: Project ruling: a "turn" for the cap is one action of the play phase (Show, Scout, Scout & Show,
#: 2-player stop); the keep/rotate decisions do not count. In 2 players a Scout and the Show after it
#: are two turns.
TURN_COUNTS_ACTIONS = True
#: Section 6 [ruling]: a truncated round is scored as it stands with no hand-penalty exemption, and
#: reported as truncated (``ScoutGame.truncated``, round-end reason :data:`REASON_TRUNCATED`); the game
#: goes on with the next round.
TRUNCATED_ROUND_HAS_NO_EXEMPTION = True

#: Round-end reasons as the engine reports them (sections 6, 7).
REASON_WENT_OUT = "a"  # 6(a) / 7(a): the shower has no cards left
REASON_UNBEATEN = "b"  # 6(b): N-1 plain scouts after the last show; 7(b): the player to act is stuck
REASON_TRUNCATED = "truncated"  # the max_turns_per_round cap
REASONS = (REASON_WENT_OUT, REASON_UNBEATEN, REASON_TRUNCATED)

# --- Section 7: two players ------------------------------------------------------------------------

#: Section 7 [ruling]: the 22 cards set aside in round 1 are reshuffled and re-oriented before round 2 is
#: dealt from them (``ScoutGame._deal_round``).
TWO_PLAYER_RESHUFFLE_SET_ASIDE = True

#: Section 7 [ruling]: there is no pass in 2 players; config ``ScoutConfig.two_player_may_stop`` (default
#: off) adds a STOP play, legal whenever the Active Set is non-empty, that ends the round as 7(b) does
#: (the owner of the Active Set is exempt).
DEFAULT_TWO_PLAYER_MAY_STOP = False

#: Section 7 [ruling]: round end 7(b) (the player to act can neither Show nor Scout) is tested every time
#: a player is to act, also right after that player's own Scout (``ScoutGame._begin_turn``).
TWO_PLAYER_STUCK_TESTED_EVERY_TURN = True

#: Project ruling: a 2-player game has at most 2 rounds (the 44 cards make exactly two deals of 22).
TWO_PLAYER_MAX_ROUNDS = 2

# --- Sections 7 and 8: exemption -----------------------------------------------------------------------

#: Sections 7, 8 and "Open questions" (ruled): the player exempt from the hand penalty is the owner of
#: the unbeaten Active Set in (b) (6(b): the last shower O; 7(b): the owner, the stuck player's
#: opponent), the player who went out in (a), and nobody in a truncated round.
EXEMPT_PLAYER = "owner of the unbeaten set"

# --- Section 9: winners ----------------------------------------------------------------------------------

#: Section 9: a tie for the highest total is a shared win; no tie-break (``ScoutGame.winners``).
TIED_PLAYERS_SHARE_WIN = True

# --- Section 10: public information ------------------------------------------------------------------

#: Section 10 [ruling], config ``ScoutConfig.public_scout_flip_and_position``: whether a scouted card's
#: orientation and insert position are public (default yes). Off: only which card was scouted is public;
#: the view then knows the card is in that hand, not where or which way up.
DEFAULT_PUBLIC_SCOUT_FLIP_AND_POSITION = True

#: Section 10 [ruling]: hands are counted, not shown, at round end, so in round 2 of a 2-player game a
#: seat knows only the round-1 cards that it was dealt or that were shown (``ScoutGame.earlier_seen``).
ROUND_END_HANDS_SHOWN = False
