"""Duplicate-format tournaments between agents, with honest intervals and openskill ratings.

Format: ``games`` **deals** (the number of deal seeds), each played ``n_players`` times with the agent
list rotated one seat per game, so that every agent sits in every seat of every deal and the luck of
the deal cancels. A deal seed fixes every round's cards (the game's generator is used only for
dealing); each agent's generator is seeded from ``(seed, deal, rotation, seat)``, so results do not
depend on the number of workers.

Statistics per agent (a label: the spec, with ``#2``, ``#3``... added to repeated specs, e.g.
``random`` and ``random#2``):

* mean game score and mean round score with 95% intervals ``mean +/- 1.96 * sd / sqrt(D)`` computed
  over the D per-deal means (games of one deal are correlated, so deals are the independent units);
* win rate (a shared win counts ``1/k``) with a 95% Wilson score interval over the games;
* an openskill Plackett-Luce rating (``openskill.models.PlackettLuce``), updated game by game in
  (deal, rotation) order from the finishing places (ties by total and last round share a place).
"""

from __future__ import annotations

import copy
import json
import math
import os
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from seers_env.artifacts import DEFAULT_ARTIFACT_DECK
from seers_env.game import Game, GameConfig
from seers_env.scoring import placements
from seers_env.view import SeatView

from .base import Agent
from .specs import make_agent

Z95 = 1.959963984540054  # two-sided 95% normal quantile


@dataclass
class AgentStats:
    """One agent's results. Intervals are ``(low, high)``; scores are in points."""

    label: str
    spec: str
    games: int
    mean_score: float
    score_ci: tuple[float, float]
    mean_round_score: float
    round_score_ci: tuple[float, float]
    win_rate: float
    win_ci: tuple[float, float]
    mu: float
    sigma: float
    ordinal: float


@dataclass
class TournamentResult:
    """Result of :func:`run_tournament`.

    Attributes:
        specs: agent specs in list order; labels: their distinct labels (same order).
        n_players, n_rounds, deals, seed: the settings.
        agents: label -> :class:`AgentStats`.
        games: one dict per game, in (deal, rotation) order: ``deal``, ``rotation``, ``deal_seed``,
            ``seats`` (label at each seat), ``totals`` and ``round_scores`` (per seat), ``winners`` (seats).
    """

    specs: list[str]
    labels: list[str]
    n_players: int
    n_rounds: int
    deals: int
    seed: int
    agents: dict[str, AgentStats] = field(default_factory=dict)
    games: list[dict[str, Any]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict (``agents`` as label -> stats dict)."""
        d = asdict(self)
        d["agents"] = {k: asdict(v) for k, v in self.agents.items()}
        d["format"] = "seers-tournament-1"
        return d

    def to_json(self, path: str | os.PathLike) -> None:
        """Write :meth:`to_dict` as JSON to ``path``."""
        with open(path, "w", encoding="utf-8") as f:
            json.dump(self.to_dict(), f, indent=1)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> TournamentResult:
        """Inverse of :meth:`to_dict`.

        Raises:
            ValueError: not a tournament result (missing or wrong ``format``).
        """
        if d.get("format") != "seers-tournament-1":
            raise ValueError(f"format {d.get('format')!r} is not 'seers-tournament-1'")
        agents = {}
        for k, v in d["agents"].items():
            v = dict(v)
            for key in ("score_ci", "round_score_ci", "win_ci"):
                v[key] = tuple(v[key])
            agents[k] = AgentStats(**v)
        return cls(list(d["specs"]), list(d["labels"]), d["n_players"], d["n_rounds"], d["deals"], d["seed"],
                   agents, list(d["games"]))

    @classmethod
    def from_json(cls, path: str | os.PathLike) -> TournamentResult:
        """Read a result written by :meth:`to_json`."""
        with open(path, encoding="utf-8") as f:
            return cls.from_dict(json.load(f))

    def table(self):
        """A ``rich.table.Table`` of the per-agent stats, best mean game score first."""
        from rich.table import Table

        t = Table(title=f"{self.deals} deals x {self.n_players} seat rotations = {len(self.games)} games, "
                        f"{self.n_players} players, {self.n_rounds} rounds, seed {self.seed}")
        # means have symmetric normal intervals (shown as +/- half-width); Wilson intervals are not
        t.caption = ("score: mean game / round score ±95% interval over per-deal means; win: rate [Wilson 95%]; "
                     "openskill PlackettLuce mu±sigma and ordinal")
        for col in ("agent", "games", "game", "round", "win", "mu±σ", "ordinal"):
            if col == "agent":  # full names, however narrow the terminal; numbers wrap instead
                width = min(48, max(len(label) for label in self.labels))
                t.add_column(col, no_wrap=True, min_width=width)
            else:
                t.add_column(col, justify="right")  # wraps at spaces, never inside a number
        for s in sorted(self.agents.values(), key=lambda s: -s.mean_score):
            t.add_row(s.label, str(s.games), f"{s.mean_score:.2f} ±{(s.score_ci[1] - s.score_ci[0]) / 2:.2f}",
                      f"{s.mean_round_score:.2f} ±{(s.round_score_ci[1] - s.round_score_ci[0]) / 2:.2f}",
                      f"{s.win_rate:.2f} [{s.win_ci[0]:.2f}, {s.win_ci[1]:.2f}]",
                      f"{s.mu:.1f}±{s.sigma:.1f}", f"{s.ordinal:.1f}")
        return t


def spec_name(spec: str | Agent) -> str:
    """The name of a seat's entry: the spec string itself, or an :class:`Agent` instance's ``name``."""
    return spec if isinstance(spec, str) else str(getattr(spec, "name", type(spec).__name__))


def _instantiate(spec: str | Agent, seed: int) -> Agent:
    """A fresh agent for one game: ``make_agent(spec, seed)``, or a reseeded copy of an Agent instance."""
    if isinstance(spec, str):
        return make_agent(spec, seed=seed)
    agent = copy.deepcopy(spec)
    agent.reset(seed)
    return agent


def agent_labels(specs: list[str | Agent]) -> list[str]:
    """Distinct labels: a spec's second occurrence becomes ``spec#2``, and so on."""
    seen: dict[str, int] = {}
    out = []
    for s in map(spec_name, specs):
        seen[s] = seen.get(s, 0) + 1
        out.append(s if seen[s] == 1 else f"{s}#{seen[s]}")
    return out


def seat_order(n_players: int, rotation: int) -> list[int]:
    """Index into the agent list of the agent at each seat for ``rotation``: seat ``s`` gets agent
    ``(s - rotation) % n_players``."""
    return [(s - rotation) % n_players for s in range(n_players)]


def deal_seeds(seed: int, deals: int) -> list[int]:
    """The deal seeds of a tournament (the first ``deals`` of one sequence: a prefix is stable)."""
    ss = np.random.SeedSequence(seed)
    return [int(x) for x in ss.generate_state(2 * deals, dtype=np.uint32).view(np.uint64)]


def play_deal(specs: list[str], deal: int, deal_seed: int, seed: int, n_rounds: int = 4,
              artifact_deck: tuple[str, ...] = DEFAULT_ARTIFACT_DECK) -> list[dict[str, Any]]:
    """Play one deal in every seat rotation; returns one game record per rotation (see
    :class:`TournamentResult`). Agent seeds come from ``(seed, deal, rotation, seat)``."""
    n = len(specs)
    config = GameConfig(n_players=n, n_rounds=n_rounds, artifact_deck=tuple(artifact_deck))
    records = []
    for rotation in range(n):
        order = seat_order(n, rotation)
        agents = []
        for seat in range(n):
            agent_seed = int(np.random.SeedSequence([seed, deal, rotation, seat]).generate_state(1)[0])
            agents.append(_instantiate(specs[order[seat]], agent_seed))
        game = Game(config, seed=deal_seed)
        views = [SeatView(game, s) for s in range(n)]
        while not game.game_over:
            seat = game.current
            game.apply(agents[seat].act(views[seat]))
        records.append({"deal": deal, "rotation": rotation, "deal_seed": deal_seed, "agents": order,
                        "totals": game.totals, "round_scores": [list(r) for r in game.round_scores],
                        "winners": game.winners()})
    return records


def wilson_interval(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a proportion (``successes`` may be fractional: shared wins)."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    center = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, center - half), min(1.0, center + half))


def mean_ci(values: list[float], z: float = Z95) -> tuple[float, tuple[float, float]]:
    """Mean and normal 95% interval ``mean +/- z * sd / sqrt(n)`` (sd with ``n - 1``)."""
    a = np.asarray(values, dtype=float)
    m = float(a.mean())
    if len(a) < 2:
        return m, (-math.inf, math.inf)
    half = z * float(a.std(ddof=1)) / math.sqrt(len(a))
    return m, (m - half, m + half)


def summarize(specs: list[str], records: list[dict[str, Any]], n_rounds: int, deals: int,
              seed: int) -> TournamentResult:
    """Compute every statistic of a :class:`TournamentResult` from the game records."""
    from openskill.models import PlackettLuce

    n = len(specs)
    labels = agent_labels(specs)
    games = []
    per_deal: dict[int, list[list[float]]] = {}  # deal -> per agent list of game scores
    wins = [0.0] * n
    model = PlackettLuce()
    ratings = [model.rating(name=label) for label in labels]
    for r in records:
        order = r["agents"]
        totals = r["totals"]
        games.append({"deal": r["deal"], "rotation": r["rotation"], "deal_seed": r["deal_seed"],
                      "seats": [labels[a] for a in order], "totals": totals,
                      "round_scores": r["round_scores"], "winners": r["winners"]})
        bucket = per_deal.setdefault(r["deal"], [[] for _ in range(n)])
        for seat, a in enumerate(order):
            bucket[a].append(totals[seat])
        for seat in r["winners"]:
            wins[order[seat]] += 1 / len(r["winners"])
        places = placements(totals, r["round_scores"][-1])
        new = model.rate([[ratings[a]] for a in order], ranks=places)
        for seat, a in enumerate(order):
            ratings[a] = new[seat][0]
    result = TournamentResult([spec_name(s) for s in specs], labels, n, n_rounds, deals, seed, {}, games)
    n_games = len(records)
    for a, label in enumerate(labels):
        deal_means = [float(np.mean(per_deal[d][a])) for d in sorted(per_deal)]
        m, ci = mean_ci(deal_means)
        rm, rci = mean_ci([x / n_rounds for x in deal_means])
        result.agents[label] = AgentStats(
            label=label, spec=spec_name(specs[a]), games=n_games, mean_score=m, score_ci=ci, mean_round_score=rm,
            round_score_ci=rci, win_rate=wins[a] / max(n_games, 1), win_ci=wilson_interval(wins[a], n_games),
            mu=float(ratings[a].mu), sigma=float(ratings[a].sigma), ordinal=float(ratings[a].ordinal()))
    return result


def run_tournament(specs: list[str], games: int, n_players: int | None = None, seed: int = 0,
                   workers: int = 2, n_rounds: int = 4, progress: bool = True,
                   artifact_deck: tuple[str, ...] = DEFAULT_ARTIFACT_DECK) -> TournamentResult:
    """Run a duplicate-format tournament (module docstring).

    Args:
        specs: one entry per seat: an agent spec (see :func:`agents.make_agent`) or an
            :class:`~agents.base.Agent` instance (picklable; a deep copy reseeded with
            :meth:`~agents.base.Agent.reset` plays each game; labelled by its ``name``). Repeats are
            labelled ``spec#2``...
        games: number of deals; each is played ``n_players`` times (``games * n_players`` games).
        n_players: must equal ``len(specs)`` when given (2..5).
        seed: tournament seed (deals and agent seeds); same seed, same result, whatever ``workers``.
        workers: processes (``ProcessPoolExecutor``); 1 runs in this process.
        n_rounds: rounds per game.
        progress: show a rich progress bar.
        artifact_deck: artifact deck of the games (``()``: the variant without artifacts).

    Returns:
        A :class:`TournamentResult`.

    Raises:
        ValueError: bad specs, player count, games or workers (nothing is run).
    """
    specs = [s.strip() if isinstance(s, str) else s for s in specs]
    for s in specs:
        if not isinstance(s, (str, Agent)):
            raise ValueError(f"tournament entry {s!r} is neither an agent spec string nor an agents.Agent")
    if n_players is None:
        n_players = len(specs)
    if n_players not in (2, 3, 4, 5) or len(specs) != n_players:
        raise ValueError(f"need one agent per seat, 2..5 seats (n_players={n_players!r}); got "
                         f"{len(specs)}: {[spec_name(x) for x in specs]}")
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise ValueError(f"games={games!r} must be an integer >= 1 (number of deals)")
    if not isinstance(workers, int) or workers < 1:
        raise ValueError(f"workers={workers!r} must be an integer >= 1")
    GameConfig(n_players=n_players, n_rounds=n_rounds, artifact_deck=tuple(artifact_deck))  # validates
    for s in specs:  # every agent is built and checked against the table before any game
        if isinstance(s, str) and s.startswith("ppo:"):
            path = s[len("ppo:"):]
            if not (os.path.isfile(path) or os.path.isfile(path + ".zip")):
                raise ValueError(f"agent spec {s!r}: no trained model at {path!r}; give the path of a "
                                 f"model.zip written by seers train")
        agent = make_agent(s) if isinstance(s, str) else s  # raises ValueError on a bad spec
        agent.check_use(n_players, tuple(artifact_deck))  # a model trained for another table: ValueError
    seeds = deal_seeds(seed, games)
    by_deal: dict[int, list[dict[str, Any]]] = {}
    bar = None
    if progress:
        from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn,
                                   TimeRemainingColumn)

        bar = Progress(TextColumn("deals"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                       TimeRemainingColumn())
        bar.start()
        task = bar.add_task("deals", total=games)
    try:
        if workers == 1:
            for d in range(games):
                by_deal[d] = play_deal(specs, d, seeds[d], seed, n_rounds, artifact_deck)
                if bar:
                    bar.advance(task)
        else:
            with ProcessPoolExecutor(max_workers=workers) as pool:
                futures = {pool.submit(play_deal, specs, d, seeds[d], seed, n_rounds, artifact_deck): d
                           for d in range(games)}
                for fut in as_completed(futures):
                    by_deal[futures[fut]] = fut.result()
                    if bar:
                        bar.advance(task)
    finally:
        if bar:
            bar.stop()
    records = [r for d in range(games) for r in by_deal[d]]
    return summarize(specs, records, n_rounds, games, seed)
