"""Test helper: games that differ only in cards one seat cannot see."""

from seers_env.cards import WILD


def swap_unseen_cards(game, seat):
    """A clone of ``game`` where two other seats exchanged one suited card ``seat`` cannot see
    (not publicly known to be in their hands)."""
    other = game.clone()
    a, b = [s for s in range(game.n_players) if s != seat][:2]
    ca = next(c for c in other.hands[a] if c < WILD and c not in other.known[a])
    cb = next(c for c in other.hands[b] if c < WILD and c not in other.known[b])
    other.hands[a].remove(ca)
    other.hands[b].remove(cb)
    other.hands[a] = sorted(other.hands[a] + [cb])
    other.hands[b] = sorted(other.hands[b] + [ca])
    other._invalidate()
    return other
