"""A deliberately naive SCOUT legal-play reference, written from the rules text (``shared/rules/scout.md``).

It shares no code with :mod:`seers_env.scout.moves`: it reads only the card table
(:data:`seers_env.scout.cards.CARD_NUMBERS`), the play type, and the game's public attributes. Every
segment ``(s, L)`` is tested for validity and strength by the section 4 text; every scout
``(end, flip, position)`` is listed; every Scout & Show pair is found by inserting the scouted card into a
copy of the hand and trying every segment of the new hand, and pairs that leave the same state (hand as a
(card, top) sequence, and Active Set) are kept once: the first one met in the documented order.

The result is built in the documented order by construction (loops in field order), never sorted.
"""

from __future__ import annotations

from seers_env.scout.cards import CARD_NUMBERS
from seers_env.scout.plays import ScoutPlay


def other_number(card: int, top: int) -> int:
    a, b = CARD_NUMBERS[card]
    return b if top == a else a


def is_valid_show(values: list[int]) -> bool:
    """Section 4: one card, all equal (a set), or each one more / each one less (a run)."""
    if len(values) == 1:
        return True
    if all(v == values[0] for v in values):
        return True
    if all(values[i + 1] == values[i] + 1 for i in range(len(values) - 1)):
        return True
    if all(values[i + 1] == values[i] - 1 for i in range(len(values) - 1)):
        return True
    return False


def is_set(values: list[int]) -> bool:
    """Section 4 [ruling]: a single card counts as a set."""
    return all(v == values[0] for v in values)


def stronger(a: list[int], b: list[int]) -> bool:
    """Section 4: is the valid show ``a`` strictly stronger than the Active Set ``b`` (empty: anything)?"""
    if not b:
        return True
    if len(a) != len(b):
        return len(a) > len(b)
    if is_set(a) != is_set(b):
        return is_set(a)
    return min(a) > min(b)


def reference_legal_plays(game) -> list[ScoutPlay]:
    """Every legal play of the seat to act in ``game``, in the documented order."""
    if game.game_over:
        return []
    if game.phase == "rotate":
        return [ScoutPlay(0), ScoutPlay(1)]  # KEEP, ROTATE
    seat = game.current
    n_players = game.n_players
    hand = game.hands[seat]
    active = game.active
    active_values = [top for _, top in active]
    out: list[ScoutPlay] = []

    # SHOW (kind 2): every segment of the hand
    values = [top for _, top in hand]
    for s in range(len(hand)):
        for L in range(1, len(hand) - s + 1):
            seg = values[s:s + L]
            if is_valid_show(seg) and stronger(seg, active_values):
                out.append(ScoutPlay(2, 0, 0, 0, s, L))

    if active:
        ends = [0] if len(active) == 1 else [0, 1]
        # SCOUT (kind 3): 3-5 players always; 2 players only with a chip left
        if n_players > 2 or game.chips[seat] > 0:
            for e in ends:
                for f in (0, 1):
                    for p in range(len(hand) + 1):
                        out.append(ScoutPlay(3, e, f, p, 0, 0))
        # SCOUT_SHOW (kind 4): 3-5 players, once per round
        if n_players > 2 and not game.scout_show_used[seat]:
            seen_states = set()
            for e in ends:
                for f in (0, 1):
                    card, top = active[0] if e == 0 else active[-1]
                    rest = active[1:] if e == 0 else active[:-1]
                    rest_values = [t for _, t in rest]
                    new_top = other_number(card, top) if f else top
                    for p in range(len(hand) + 1):
                        new_hand = list(hand)
                        new_hand.insert(p, (card, new_top))
                        new_values = [t for _, t in new_hand]
                        for s in range(len(new_hand)):
                            for L in range(1, len(new_hand) - s + 1):
                                seg = new_values[s:s + L]
                                if not (is_valid_show(seg) and stronger(seg, rest_values)):
                                    continue
                                state = (tuple(new_hand[:s] + new_hand[s + L:]), tuple(new_hand[s:s + L]))
                                if state in seen_states:
                                    continue
                                seen_states.add(state)
                                out.append(ScoutPlay(4, e, f, p, s, L))
    # STOP (kind 5): 2 players with the flag and an Active Set
    if n_players == 2 and game.config.two_player_may_stop and active:
        out.append(ScoutPlay(5))
    return out
