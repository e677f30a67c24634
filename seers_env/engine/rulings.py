"""Every ruling the engine follows where the seed rules are silent, in one place.

Each constant names one **[ruling]** of the rules file (``docs/rules.md``, a copy of
``shared/rules/seers_catalog.md``; section given) or a project ruling of our own (marked "project
ruling"), and says where the engine implements it. Three are values the engine reads
(:data:`DEFAULT_ROUNDS`, :data:`RANDOM_SUITS_EACH_ROUND`, :data:`HIGHEST_SINGLE_RANK`); the others record
a fixed behaviour, so changing one of them means changing the code path it names (each has a named test
in ``tests/test_rulings.py``). The artifact kinds' timings are data in :mod:`seers_env.artifacts`."""

from __future__ import annotations

#: Section 2 [ruling]: which suits are used is drawn at random each round.
RANDOM_SUITS_EACH_ROUND = True

#: Section 2 [ruling]: the 3 suited cards removed in a 2-player game stay hidden all round.
TWO_PLAYER_REMOVED_CARDS_HIDDEN = True

#: Section 2 [ruling]: rounds per game (configurable, this is the default).
DEFAULT_ROUNDS = 4

#: Section 3 [ruling]: runs do not wrap around (13 is not followed by 2); every value, also a wild's,
#: stays within 2..13 (also in a 2-player game whose cards only go up to 10).
RUNS_WRAP_AROUND = False  # core._runs: windows lie within 2..13
WILD_VALUE_RANGE = (2, 13)  # core: wilds only take values of cards.MIN_VALUE..MAX_VALUE

#: Section 3 [ruling]: a Start Seer who cannot open passes without being put out of the trick that the
#: next player opens. If every player in turn cannot open, the round ends and is scored.
LEAD_PASS_PUTS_OUT_OF_TRICK = False  # Game._pass, leading branch

#: Section 3 [ruling]: at most one artifact per play; an artifact played with a meld does not count
#: toward the meld's size.
MAX_ARTIFACTS_PER_PLAY = 1  # core.melds_keys adds one artifact kind per play

#: Section 3 [ruling]: two plays are the same play when they differ only in a choice that changes
#: nothing. The engine identifies a play by (cards that leave the hand, meld type, size, comparison
#: value, Gift target): see :meth:`seers_env.plays.Play.identity`. So the suit of a wild in a Single or
#: Set, a suit change inside a Single or Set, and any effect that leaves the meld as it would be without
#: it, are all the same play as discarding the artifact with the meld; the engine keeps one
#: representative, preferring no effect.
PLAY_IDENTITY = ("kind", "meld_type", "size", "rank", "suited", "wilds", "artifact", "target")

#: Section 4 [ruling]: Rod of Reincarnation and Gift of Fate are actions, not melds: holding one never
#: forces a player in the Bonus to play.
ACTIONS_FORCE_BONUS_PLAY = False  # core.legal_keys: PASS depends on melds only

#: Section 6 [ruling], Gift of Fate: the chosen player becomes Start Seer of a fresh lead, so the count of
#: Start Seers who could not open starts again from zero (``Game._gift``).
GIFT_RESTARTS_LEAD_PASS_COUNT = True  # Game._gift

#: Project ruling (section 3 says the Start Seer "plays any legal meld" and passes only when they cannot):
#: a Start Seer who holds a legal opening meld must lead (a meld or the Gift of Fate); the Gift of Fate
#: alone does not count as an opening meld, so a Start Seer whose only option is the Gift may pass.
START_SEER_MUST_LEAD_WHEN_ABLE = True  # core.legal_keys, leading branch

#: Section 6 [ruling]: the default artifact deck is Go First + two copies of each of the six other kinds.
#: (The deck itself is :data:`seers_env.artifacts.DEFAULT_ARTIFACT_DECK`.)
DEFAULT_DECK_COPIES_PER_KIND = 2

#: Section 6 [ruling], Rod of Reincarnation: the picked-up cards (wilds and artifacts included) go to the
#: taker's hand publicly; the Rod itself is discarded; the trick ends and the taker leads the next one.
ROD_TAKES_ARTIFACTS_AND_WILDS = True  # Game._rod

#: Section 6 [ruling], half-step artifact: comparison values are kept in half steps (value * 2), so a
#: 7 is rank 14 and 7 1/2 is rank 15.
RANK_UNIT = "half step"

#: Section 6 [ruling], highest-single artifact: played alone as a Single it has this rank, above every
#: other Single; nothing beats it.
HIGHEST_SINGLE_RANK = 100

#: Project ruling: without a Go First card in play (the no-artifact variant or a custom deck without it),
#: the first Start Seer of each round is drawn at random from the game's generator.
START_SEER_WITHOUT_GO_FIRST = "random seat"  # Game._deal

#: Section 5 [ruling]: players tied on total and on last-round score share the win (a draw among them).
TIED_PLAYERS_SHARE_WIN = True  # scoring.winners
