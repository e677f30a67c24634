"""The self-play league: the learner's opponents, drawn anew for every episode (game).

Each opponent seat is drawn independently from a weighted pool: baseline agents (any spec that
``agents.make_agent`` accepts, e.g. ``random``, ``greedy``, ``heuristic``) and ``self``, a frozen snapshot
of the learner saved during training (fictitious-self-play style league, as in AlphaStar's league training,
Vinyals et al. 2019, simplified to uniform draws over recent snapshots).

The mix is written ``"random:1,greedy:1,heuristic:2,self:1"`` (weights need not sum to 1).
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np

from .policy import SnapshotOpponent

#: Default opponent mix of ``seers train``.
DEFAULT_MIX = "random:1,greedy:1,heuristic:2,self:2"
SELF = "self"
SNAPSHOT_PREFIX = "snapshot_"


def parse_mix(text: str) -> dict[str, float]:
    """Parse an opponent mix ``"spec:weight,spec:weight,..."`` (a missing weight means 1).

    Args:
        text: comma-separated entries; ``spec`` is ``self`` or an agent spec. The weight is the part after
            the last colon when that part is a number, so a spec with its own number needs an explicit
            weight: ``ismcts:200:1`` (``ismcts:200`` means ismcts with weight 200).

    Returns:
        ``{spec: weight}`` in the order given, weights > 0.

    Raises:
        ValueError: empty mix, a negative or non-finite weight, all weights zero, a repeated spec, or an
            unknown agent spec (the message lists the valid ones).
    """
    mix: dict[str, float] = {}
    for raw in str(text).split(","):
        entry = raw.strip()
        if not entry:
            continue
        spec, weight = entry, 1.0
        if ":" in entry:
            head, tail = entry.rsplit(":", 1)
            try:
                weight = float(tail)
                spec = head
            except ValueError:
                pass  # e.g. "ppo:runs/x/model.zip" without a weight
        if not np.isfinite(weight) or weight < 0:
            raise ValueError(f"opponent weight {weight!r} in {entry!r} must be a finite number >= 0")
        if spec in mix:
            raise ValueError(f"opponent {spec!r} appears twice in the mix {text!r}")
        if spec != SELF:
            _check_spec(spec)
        if weight > 0:
            mix[spec] = weight
    if not mix:
        raise ValueError(f"opponent mix {text!r} has no opponent with a weight > 0; "
                         f"write e.g. {DEFAULT_MIX!r} (specs: self or an agent spec)")
    return mix


def _check_spec(spec: str) -> None:
    from agents import make_agent

    if spec.startswith("ppo:"):
        if not Path(spec[4:]).is_file():
            raise ValueError(f"opponent {spec!r}: no model file at {spec[4:]!r}")
        return
    make_agent(spec, seed=0)  # raises ValueError listing the valid specs


def list_snapshots(snapshot_dir: str | os.PathLike | None) -> list[str]:
    """Snapshot files in ``snapshot_dir`` (``snapshot_<steps>.zip``), oldest first (by step count)."""
    if snapshot_dir is None or not os.path.isdir(snapshot_dir):
        return []
    found = []
    for name in os.listdir(snapshot_dir):
        if name.startswith(SNAPSHOT_PREFIX) and name.endswith(".zip"):
            try:
                found.append((int(name[len(SNAPSHOT_PREFIX):-4]), name))
            except ValueError:
                continue
    return [os.path.join(snapshot_dir, name) for _, name in sorted(found)]


class LeagueSampler:
    """Opponent sampler for :class:`seers_env.wrappers.SingleAgentSeersEnv` (``opponent_sampler=``).

    Called at every reset with the environment's generator; returns ``n_players - 1`` opponents, each
    drawn independently by weight. ``self`` draws uniformly among the ``window`` most recent snapshots in
    ``snapshot_dir``; while there is none yet, a ``self`` draw is redrawn among the other entries (or gives
    a random agent when ``self`` is the only entry). Picklable (it holds only data), so it can be sent to
    subprocess workers; snapshots are loaded lazily there.

    Args:
        mix: ``{spec: weight}`` (see :func:`parse_mix`) or its text form.
        n_players: players at the table, 2..5.
        snapshot_dir: folder of self-play snapshots, or ``None``.
        window: how many of the newest snapshots ``self`` draws from.

    Raises:
        ValueError: a bad mix (see :func:`parse_mix`), ``n_players`` outside 2..5, ``window`` < 1.
    """

    def __init__(self, mix: dict[str, float] | str, n_players: int,
                 snapshot_dir: str | os.PathLike | None = None, window: int = 5):
        self.mix = parse_mix(mix) if isinstance(mix, str) else dict(mix)
        if not self.mix or any(w < 0 for w in self.mix.values()):
            raise ValueError(f"opponent mix {mix!r} needs at least one spec with weight > 0")
        if n_players not in (2, 3, 4, 5):
            raise ValueError(f"n_players={n_players!r} is not allowed; choose one of 2, 3, 4, 5")
        if window < 1:
            raise ValueError(f"window={window!r} must be >= 1")
        self.n_players = n_players
        self.snapshot_dir = None if snapshot_dir is None else str(snapshot_dir)
        self.window = window

    def draw_specs(self, rng: np.random.Generator) -> list[str]:
        """The specs of the next episode's opponents (``self`` resolved to a snapshot's ``ppo:`` spec)."""
        specs = list(self.mix)
        weights = np.array([self.mix[s] for s in specs], dtype=float)
        snapshots = list_snapshots(self.snapshot_dir)[-self.window:] if SELF in self.mix else []
        if SELF in self.mix and not snapshots:
            keep = [i for i, s in enumerate(specs) if s != SELF]
            specs = [specs[i] for i in keep] or ["random"]
            weights = weights[keep] if keep else np.ones(1)
        weights = weights / weights.sum()
        out = []
        for _ in range(self.n_players - 1):
            spec = specs[int(rng.choice(len(specs), p=weights))]
            if spec == SELF:
                spec = "ppo:" + snapshots[int(rng.integers(len(snapshots)))]
            out.append(spec)
        return out

    def __call__(self, rng: np.random.Generator) -> list:
        """``n_players - 1`` opponents: ``Agent`` objects for baselines, callables for learned policies."""
        from agents import make_agent

        opponents = []
        for spec in self.draw_specs(rng):
            seed = int(rng.integers(2**31))
            if spec.startswith("ppo:"):
                opponents.append(SnapshotOpponent(spec[4:], seed=seed))
            else:
                opponents.append(make_agent(spec, seed=seed))
        return opponents
