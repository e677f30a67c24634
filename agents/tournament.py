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
  (deal, rotation) order from the finishing places (ties by total and last round share a place);
* the CPU time an agent spends per decision with a choice (two or more legal plays), measured with
  ``time.process_time`` around ``act`` in the process that plays the game (each agent kind's first such
  decision in a process is left out: it also loads compiled code, e.g. 0.6 ms against 0.02 ms for the
  heuristic), and copies of one spec (``heuristic``, ``heuristic#2``) share one pooled figure. It is
  CPU time, not wall time, so an agent with a wall-time budget (``ismcts:0.1s``) shows less than its
  budget on a loaded machine. It depends on the machine and its load, unlike everything else in a
  result, so it is kept apart (:attr:`TournamentResult.cpu_ms_per_choice`) and tables leave it out (:func:`decision_time_line`).
"""

from __future__ import annotations

import copy
import math
import dataclasses
import os
import re
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from seers_env.artifacts import DEFAULT_ARTIFACT_DECK
from seers_env.games import DEFAULT_GAME, game_spec
from seers_env.integers import is_integer
from seers_env.progress import ETA_UNKNOWN, EtaEstimate, ProgressLines, is_terminal
from seers_env.seeding import check_seed

from .base import Agent
from .specs import make_agent

Z95 = 1.959963984540054  # two-sided 95% normal quantile
#: The most deals of one tournament: each deal's games (one per seat rotation) are kept in the result.
MAX_DEALS = 1_000_000


@dataclass
class AgentStats:
    """One agent's results. Intervals are ``(low, high)``; scores are in points.

    An undefined statistic (a score interval of a single deal) is ``None`` (JSON ``null``) and ``notes``
    says why, e.g. ``{"score_ci": "one deal: an interval needs two or more"}``; tables show ``n/a``.
    """

    label: str
    spec: str
    games: int
    mean_score: float
    score_ci: tuple[float, float] | None
    mean_round_score: float
    round_score_ci: tuple[float, float] | None
    win_rate: float
    win_ci: tuple[float, float]
    mu: float
    sigma: float
    ordinal: float
    notes: dict[str, str] = field(default_factory=dict)


@dataclass
class TournamentResult:
    """Result of :func:`run_tournament`.

    Attributes:
        specs: agent specs in list order; labels: their distinct labels (same order).
        n_players, n_rounds, deals, seed: the settings (``n_rounds`` ``None``: each game played to its
            target score, as Haggis by default; its per-round figures divide by the rounds each game lasted).
        agents: label -> :class:`AgentStats`.
        games: one dict per game, in (deal, rotation) order: ``deal``, ``rotation``, ``deal_seed``,
            ``seats`` (label at each seat), ``totals`` and ``round_scores`` (per seat), ``winners`` (seats).
        cpu_ms_per_choice: label -> mean CPU milliseconds per decision with a choice (agents with no such
            decision are left out; copies of one spec share their pooled figure). The one field that depends on the machine and its load: the others
            are the same for the same seed.
        game: the game played (a name of :data:`seers_env.games.GAMES`; files without one: Seers Catalog).
    """

    specs: list[str]
    labels: list[str]
    n_players: int
    n_rounds: int | None
    deals: int
    seed: int
    agents: dict[str, AgentStats] = field(default_factory=dict)
    games: list[dict[str, Any]] = field(default_factory=list)
    cpu_ms_per_choice: dict[str, float] = field(default_factory=dict)
    game: str = DEFAULT_GAME

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict (``agents`` as label -> stats dict)."""
        d = asdict(self)
        d["agents"] = {k: asdict(v) for k, v in self.agents.items()}
        d["format"] = "seers-tournament-1"
        return d

    def to_json(self, path: str | os.PathLike) -> None:
        """Write :meth:`to_dict` as strict JSON (no NaN or infinity; :func:`seers_env.jsonio.write_json`)."""
        from seers_env.jsonio import write_json

        write_json(path, self.to_dict())

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> TournamentResult:
        """Inverse of :meth:`to_dict`.

        Raises:
            ValueError: not a tournament result (missing or wrong ``format``), or a field of the wrong type
                or size (the message names it, e.g. ``games[3].totals``).
        """
        if not isinstance(d, dict) or d.get("format") != "seers-tournament-1":
            raise ValueError(f"format {d.get('format') if isinstance(d, dict) else type(d).__name__!r} is not "
                             f"'seers-tournament-1'")
        _check_result_fields(d)
        agents = {}
        for k, v in d["agents"].items():
            v = copy.deepcopy(dict(v))  # nothing shared with d (notes)
            for key in ("score_ci", "round_score_ci", "win_ci"):
                ci = v[key]  # files of older versions wrote an undefined interval as (-inf, inf)
                v[key] = None if ci is None or not all(math.isfinite(x) for x in ci) else tuple(ci)
            agents[k] = AgentStats(**v)
        return cls(list(d["specs"]), list(d["labels"]), d["n_players"], d["n_rounds"], d["deals"], d["seed"],
                   agents, copy.deepcopy(list(d["games"])),  # nothing shared with d
                   {str(k): float(v) for k, v in d.get("cpu_ms_per_choice", {}).items()},  # older files: none
                   game_spec(d.get("game", DEFAULT_GAME)).name)

    @classmethod
    def from_json(cls, path: str | os.PathLike) -> TournamentResult:
        """Read a result written by :meth:`to_json` (JSON: nothing in it runs).

        Raises:
            ValueError: the file is not JSON or not a tournament result (the message names it).
        """
        from seers_env.jsonio import read_json_file

        d = read_json_file(path, "tournament result", strict=False)  # older files wrote -Infinity
        try:
            return cls.from_dict(d)
        except (KeyError, TypeError, ValueError, AttributeError) as err:
            raise ValueError(f"tournament result {os.fspath(path)!r} is damaged or of another kind "
                             f"({type(err).__name__}: {err})") from None

    def table(self, wide: bool = False, paired: dict[str, Any] | None = None, wide_hint: bool = False,
              title: str | None = None, notes: tuple[str, ...] = ()):
        """A ``rich.table.Table`` of the per-agent stats, best mean game score first.

        Args:
            wide: every column (games, round score, openskill mu±sigma too); default: the columns that
                fit 80 characters.
            paired: the result of :func:`paired_differences` (adds the difference from its baseline).
            wide_hint: add the caption line "--wide: all columns" (for commands that have ``--wide``).
            title: the table's one header line instead of the default (deals, games, players, rounds, seed).
            notes: caption lines added below the table.
        """
        from rich.table import Table

        cells = table_cells(self, wide=wide, paired=paired, wide_hint=wide_hint, title=title, notes=notes)
        t = Table(title=cells["title"], caption="\n".join(cells["legend"] + cells["caption"]),
                  caption_justify="left")
        for i, col in enumerate(cells["headers"]):
            width = max(len(col), *(len(r[i]) for r in cells["rows"]))
            # every cell is printed whole: no wrapping, no ellipsis (the default columns fit 80 characters)
            t.add_column(col, justify="left" if i == 0 else "right", no_wrap=True, min_width=width)
        for row in cells["rows"]:
            t.add_row(*row)
        return t

    def text(self, wide: bool = False, paired: dict[str, Any] | None = None, wide_hint: bool = False,
             title: str | None = None, notes: tuple[str, ...] = ()) -> str:
        """The same table as :meth:`table` as plain text (a Markdown pipe table with its caption), for
        output that is not a terminal (files, pipes, notebooks)."""
        cells = table_cells(self, wide=wide, paired=paired, wide_hint=wide_hint, title=title, notes=notes)
        return markdown_table(cells)


def _is_int(x: Any, lo: int = 0) -> bool:
    return isinstance(x, int) and not isinstance(x, bool) and x >= lo


def _is_number(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def _check_result_fields(d: dict[str, Any]) -> None:
    """Check the fields of a tournament result dict that tables and paired differences read.

    Raises:
        ValueError: the first field missing or of the wrong type or size, named (``agents['x'].score_ci``).
    """
    def need(ok: bool, where: str, what: str) -> None:
        if not ok:
            raise ValueError(f"{where} must be {what}")

    missing = [k for k in ("specs", "labels", "n_players", "n_rounds", "deals", "seed", "agents", "games") if k not in d]
    if missing:
        raise ValueError(f"it lacks the field{'s' if len(missing) > 1 else ''} {', '.join(missing)}")
    n = d["n_players"]
    need(_is_int(n, 2), "n_players", "an integer >= 2")
    need(d["n_rounds"] is None or _is_int(d["n_rounds"], 1), "n_rounds", "an integer >= 1 or null")
    need(_is_int(d["deals"]), "deals", "an integer >= 0")
    need(_is_int(d["seed"]), "seed", "an integer >= 0")
    for key in ("specs", "labels"):
        need(isinstance(d[key], list) and len(d[key]) == n and all(isinstance(x, str) for x in d[key]), key,
             f"a list of {n} strings (one per seat)")
    labels = d["labels"]
    need(len(set(labels)) == n, "labels", "distinct")
    agents = d["agents"]
    need(isinstance(agents, dict) and set(agents) == set(labels), "agents", "an object with one entry per label")
    for label, stats in agents.items():
        at = f"agents[{label!r}]"
        need(isinstance(stats, dict), at, "an object")
        need(stats.get("label") == label, f"{at}.label", f"the label {label!r}")
        need(isinstance(stats.get("spec"), str), f"{at}.spec", "a string")
        need(_is_int(stats.get("games")), f"{at}.games", "an integer >= 0")
        for key in ("mean_score", "mean_round_score", "win_rate", "mu", "sigma", "ordinal"):
            need(_is_number(stats.get(key)), f"{at}.{key}", "a number")
        for key in ("score_ci", "round_score_ci", "win_ci"):
            ci = stats.get(key)
            pair = isinstance(ci, (list, tuple)) and len(ci) == 2 and all(map(_is_number, ci))
            if key == "win_ci":  # a Wilson interval: always defined
                need(pair and all(map(math.isfinite, ci)), f"{at}.{key}", "a pair of finite numbers")
            else:
                need(ci is None or pair, f"{at}.{key}", "null or a pair of numbers")
        notes = stats.get("notes", {})
        need(isinstance(notes, dict) and all(isinstance(v, str) for v in notes.values()), f"{at}.notes",
             "an object of strings")
        need(set(stats) <= {f.name for f in dataclasses.fields(AgentStats)}, at, "an object of AgentStats fields")
    games = d["games"]
    need(isinstance(games, list), "games", "a list")
    for i, g in enumerate(games):
        at = f"games[{i}]"
        need(isinstance(g, dict), at, "an object")
        for key in ("deal", "rotation", "deal_seed"):
            need(_is_int(g.get(key)), f"{at}.{key}", "an integer >= 0")
        need(isinstance(g.get("seats"), list) and len(g["seats"]) == n and all(s in agents for s in g["seats"]),
             f"{at}.seats", f"a list of {n} labels")
        need(isinstance(g.get("totals"), list) and len(g["totals"]) == n and all(map(_is_number, g["totals"])),
             f"{at}.totals", f"a list of {n} numbers")
        rounds = g.get("round_scores", [])
        need(isinstance(rounds, list) and all(isinstance(r, list) and len(r) == n and all(map(_is_number, r))
                                              for r in rounds), f"{at}.round_scores", f"a list of lists of {n} numbers")
        need(isinstance(g.get("winners"), list) and all(_is_int(w) and w < n for w in g["winners"]),
             f"{at}.winners", f"a list of seats 0..{n - 1}")
    cpu = d.get("cpu_ms_per_choice", {})
    need(isinstance(cpu, dict) and all(_is_number(v) for v in cpu.values()), "cpu_ms_per_choice",
         "an object of numbers")
    need(isinstance(d.get("game", DEFAULT_GAME), str), "game", "a game name")


def spec_name(spec: str | Agent) -> str:
    """The name of a seat's entry: the spec string itself, or an :class:`Agent` instance's ``name``."""
    return spec if isinstance(spec, str) else str(getattr(spec, "name", type(spec).__name__))


def _instantiate(spec: str | Agent, seed: int, game: str = DEFAULT_GAME) -> Agent:
    """A fresh agent for one game: ``make_agent(spec, seed, game)``, or a reseeded copy of an Agent instance."""
    if isinstance(spec, str):
        return make_agent(spec, seed=seed, game=game)
    agent = copy.deepcopy(spec)
    agent.reset(seed)
    return agent


def agent_labels(specs: list[str | Agent]) -> list[str]:
    """Distinct labels: a spec's second occurrence becomes ``spec#2``, and so on."""
    seen: dict[str, int] = {}
    out: list[str] = []
    for s in map(spec_name, specs):
        seen[s] = seen.get(s, 0) + 1
        label = s if seen[s] == 1 else f"{s}#{seen[s]}"
        while label in out:  # a spec that itself ends in "#2"
            seen[s] += 1
            label = f"{s}#{seen[s]}"
        out.append(label)
    return out


def seat_order(n_players: int, rotation: int) -> list[int]:
    """Index into the agent list of the agent at each seat for ``rotation``: seat ``s`` gets agent
    ``(s - rotation) % n_players``."""
    return [(s - rotation) % n_players for s in range(n_players)]


def deal_seeds(seed: int, deals: int) -> list[int]:
    """The deal seeds of a tournament (the first ``deals`` of one sequence: a prefix is stable)."""
    ss = np.random.SeedSequence(seed)
    return [int(x) for x in ss.generate_state(2 * deals, dtype=np.uint32).view(np.uint64)]


#: Agent kinds (:func:`spec_name`) that made a decision with a choice in this process (:func:`play_deal`).
_TIMED: set[str] = set()


def table_config(game: str = DEFAULT_GAME, n_players: int = 4, n_rounds: int | None = None,
                 artifact_deck: tuple[str, ...] | None = None):
    """The config of a tournament's games: ``game``'s config class at ``n_players`` seats.

    Args:
        game: a name of :data:`seers_env.games.GAMES`.
        n_rounds: rounds per game; ``None``: the game's default (Seers Catalog 4; SCOUT one per seat).
        artifact_deck: Seers Catalog's artifact deck (``None``: the default deck; ``()``: none); must be
            ``None`` for other games.

    Raises:
        ValueError, TypeError: a bad value (the config class's own checks), or an artifact deck for a game
            without artifacts.
    """
    spec = game_spec(game)
    options: dict[str, Any] = {} if n_rounds is None else {"n_rounds": n_rounds}
    if game == "seers_catalog":
        options["artifact_deck"] = DEFAULT_ARTIFACT_DECK if artifact_deck is None else tuple(artifact_deck)
    elif artifact_deck is not None:
        raise ValueError(f"artifact_deck={artifact_deck!r}: {spec.title} has no artifacts (use None)")
    return spec.config_class()(n_players=spec.check_players(n_players), **options)


def play_deal(specs: list[str], deal: int, deal_seed: int, seed: int, n_rounds: int | None = 4,
              artifact_deck: tuple[str, ...] | None = DEFAULT_ARTIFACT_DECK,
              game: str = DEFAULT_GAME) -> list[dict[str, Any]]:
    """Play one deal in every seat rotation; returns one game record per rotation (see
    :class:`TournamentResult`). Agent seeds come from ``(seed, deal, rotation, seat)``; the game's
    config from :func:`table_config`."""
    n = len(specs)
    spec = game_spec(game)
    config = table_config(game, n, n_rounds, artifact_deck)
    game_class, view_class = spec.game_class(), spec.view_class()
    records = []
    for rotation in range(n):
        order = seat_order(n, rotation)
        agents = []
        for seat in range(n):
            agent_seed = int(np.random.SeedSequence([seed, deal, rotation, seat]).generate_state(1)[0])
            agents.append(_instantiate(specs[order[seat]], agent_seed, game))
        game_state = game_class(config, seed=deal_seed)
        views = [view_class(game_state, s) for s in range(n)]
        cpu = [0.0] * n
        choices = [0] * n
        while not game_state.game_over:
            seat = game_state.current
            if len(game_state.legal_plays()) > 1:
                t0 = time.process_time()
                play = agents[seat].act(views[seat])
                dt = time.process_time() - t0
                name = spec_name(specs[order[seat]])
                if name in _TIMED:
                    cpu[seat] += dt
                    choices[seat] += 1
                else:  # the kind's first decision in this process also loads its compiled code: not timed
                    _TIMED.add(name)
            else:
                play = agents[seat].act(views[seat])
            game_state.apply(play)
        records.append({"deal": deal, "rotation": rotation, "deal_seed": deal_seed, "agents": order,
                        "totals": game_state.totals,
                        "round_scores": [list(r) for r in game_state.round_scores],
                        "winners": game_state.winners(), "choice_cpu_s": cpu, "choices": choices})
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


def mean_ci(values: list[float], z: float = Z95) -> tuple[float, tuple[float, float] | None]:
    """Mean and normal 95% interval ``mean +/- z * sd / sqrt(n)`` (sd with ``n - 1``).

    The interval is ``None`` (undefined) for fewer than two values.
    """
    a = np.asarray(values, dtype=float)
    m = float(a.mean())
    if len(a) < 2:
        return m, None
    half = z * float(a.std(ddof=1)) / math.sqrt(len(a))
    return m, (m - half, m + half)


def summarize(specs: list[str], records: list[dict[str, Any]], n_rounds: int | None, deals: int,
              seed: int, game: str = DEFAULT_GAME) -> TournamentResult:
    """Compute every statistic of a :class:`TournamentResult` from the game records of ``game``.

    ``n_rounds`` ``None`` (games played to a target score): a game's per-round score is its total over
    the rounds it lasted (``len(round_scores)``)."""
    from openskill.models import PlackettLuce

    n = len(specs)
    labels = agent_labels(specs)
    games = []
    per_deal: dict[int, list[list[float]]] = {}  # deal -> per agent list of game scores
    per_round: dict[int, list[list[float]]] = {}  # deal -> per agent list of game scores per round
    wins = [0.0] * n
    cpu = [0.0] * n
    choices = [0] * n
    placements = game_spec(game).placements
    model = PlackettLuce()
    ratings = [model.rating(name=label) for label in labels]
    for r in records:
        order = r["agents"]
        totals = r["totals"]
        games.append({"deal": r["deal"], "rotation": r["rotation"], "deal_seed": r["deal_seed"],
                      "seats": [labels[a] for a in order], "totals": totals,
                      "round_scores": r["round_scores"], "winners": r["winners"]})
        bucket = per_deal.setdefault(r["deal"], [[] for _ in range(n)])
        rounds_bucket = per_round.setdefault(r["deal"], [[] for _ in range(n)])
        rounds = n_rounds if n_rounds is not None else max(len(r["round_scores"]), 1)
        for seat, a in enumerate(order):
            bucket[a].append(totals[seat])
            rounds_bucket[a].append(totals[seat] / rounds)
        for seat in r["winners"]:
            wins[order[seat]] += 1 / len(r["winners"])
        for seat, a in enumerate(order):
            cpu[a] += r.get("choice_cpu_s", [0.0] * n)[seat]
            choices[a] += r.get("choices", [0] * n)[seat]
        places = placements(totals, r["round_scores"])
        new = model.rate([[ratings[a]] for a in order], ranks=places)
        for seat, a in enumerate(order):
            ratings[a] = new[seat][0]
    result = TournamentResult([spec_name(s) for s in specs], labels, n, n_rounds, deals, seed, {}, games,
                              game=game)
    n_games = len(records)
    for a, label in enumerate(labels):
        deal_means = [float(np.mean(per_deal[d][a])) for d in sorted(per_deal)]
        m, ci = mean_ci(deal_means)
        rm, rci = mean_ci([float(np.mean(per_round[d][a])) for d in sorted(per_round)])
        result.agents[label] = AgentStats(
            label=label, spec=spec_name(specs[a]), games=n_games, mean_score=m, score_ci=ci, mean_round_score=rm,
            round_score_ci=rci, win_rate=wins[a] / max(n_games, 1), win_ci=wilson_interval(wins[a], n_games),
            mu=float(ratings[a].mu), sigma=float(ratings[a].sigma), ordinal=float(ratings[a].ordinal()),
            notes={} if ci is not None else {key: "one deal: an interval needs two or more"
                                              for key in ("score_ci", "round_score_ci")})
    # copies of one spec (heuristic, heuristic#2) share one figure: their decisions pooled, so that which
    # copy happened to make a kind's untimed first decision in a process does not set them apart
    for spec in dict.fromkeys(result.specs):
        same = [a for a in range(n) if result.specs[a] == spec]
        pooled = sum(choices[a] for a in same)
        if pooled:
            for a in same:
                result.cpu_ms_per_choice[labels[a]] = 1000.0 * sum(cpu[a] for a in same) / pooled
    return result


#: The text that opens :func:`decision_time_line`.
CPU_TIME_HEAD = ("CPU time per decision with a choice, in ms (process time, not wall time; copies of an "
                 "agent pooled; varies with machine and load):")


def decision_time_line(result: TournamentResult, width: int = 80) -> str:
    """One wrapped line of each agent's mean CPU time per decision with a choice, in milliseconds
    (:attr:`TournamentResult.cpu_ms_per_choice`), slowest first; ``""`` when no agent has a figure.

    Copies of one spec (``heuristic``, ``heuristic#2``) are shown once, as ``heuristic x2`` (their
    pooled figure; the mean of their figures for results saved before copies were pooled). Agents are
    named as in the table (:func:`short_labels`). It is CPU time of the playing process
    (``time.process_time``), not wall time: an agent with a wall-time budget (``ismcts:0.1s``) shows
    less than its budget on a loaded machine. These times depend on the machine and its load (the
    module docstring); the rest of a result does not.
    """
    import textwrap

    names = short_labels(list(result.labels))
    spec_of = dict(zip(result.labels, result.specs))
    groups: dict[str, list[str]] = {}  # spec (or a label missing from labels) -> its timed labels
    for label in result.cpu_ms_per_choice:
        groups.setdefault(spec_of.get(label, label), []).append(label)
    timed = []
    for same in groups.values():
        ms = sum(result.cpu_ms_per_choice[x] for x in same) / len(same)
        timed.append((ms, names.get(same[0], same[0]) + (f" x{len(same)}" if len(same) > 1 else "")))
    timed.sort(key=lambda t: -t[0])
    if not timed:
        return ""
    # 3 significant digits, whole milliseconds from 100 on (".3g" would write 2034.5 as "2.03e+03")
    parts = [f"{name} {ms:.0f}" if ms >= 100 else f"{name} {ms:.3g}" for ms, name in timed]
    parts = [p + ("," if j < len(parts) - 1 else "") for j, p in enumerate(parts)]
    lines = textwrap.wrap(CPU_TIME_HEAD, width, subsequent_indent="  ")
    for part in parts:  # an agent's name and its figure stay on one line
        if len(lines[-1]) + 1 + len(part) <= width:
            lines[-1] += " " + part
        else:
            lines.append("  " + part)
    return "\n".join(lines)


class CheckpointError(ValueError):
    """A tournament checkpoint that cannot be used: of other settings, damaged, not a checkpoint, in use by
    another run, or asked for with Agent instances (:func:`run_tournament`, :func:`read_checkpoint`)."""


#: ``format`` of a tournament checkpoint's first line (:func:`run_tournament`'s ``checkpoint``).
CHECKPOINT_FORMAT = "seers-tournament-checkpoint-1"
#: Seconds between a checkpoint's syncs to disk (``os.fsync``); every line is flushed to the system at once.
CHECKPOINT_SYNC_S = 5.0
#: How every deal's line begins (:func:`run_tournament` writes ``{"deal": <d>, "records": [...]}``).
_DEAL_LINE_START = b'{"deal": '
#: The settings of a checkpoint's header, as messages name them.
_SETTING_NAMES = {"format": "format", "game": "game", "specs": "agents", "seed": "seed", "n_rounds": "rounds",
                  "artifact_deck": "artifact deck"}
_RECORD_KEYS = ("deal", "rotation", "deal_seed", "agents", "totals", "round_scores", "winners", "choice_cpu_s",
                "choices")


def _checkpoint_header(specs: list[str], seed: int, n_rounds: int | None,
                       artifact_deck: tuple[str, ...] | None, game: str) -> dict[str, Any]:
    return {"format": CHECKPOINT_FORMAT, "game": game, "specs": list(specs), "seed": seed, "n_rounds": n_rounds,
            "artifact_deck": None if artifact_deck is None else list(artifact_deck)}


#: The largest round score a checkpointed game may hold (points): far above any game's.
_MAX_CHECKPOINT_SCORE = 10**6


def _int_list(x: Any, length: int, lo: int, hi: int) -> bool:
    """Whether ``x`` is a list of ``length`` integers (not booleans) in ``lo..hi``."""
    return (isinstance(x, list) and len(x) == length
            and all(isinstance(v, int) and not isinstance(v, bool) and lo <= v <= hi for v in x))


def _round_count_range(game: str, n_rounds: int | None) -> tuple[int, int | None]:
    """The least and most rounds (``None``: no bound) one game of ``game`` with ``n_rounds`` may play
    (:attr:`seers_env.games.GameSpec.extra_rounds`)."""
    if n_rounds is None:
        return 1, None
    extra = game_spec(game).extra_rounds
    return (n_rounds, n_rounds) if extra is None else (1, n_rounds + extra)


def _check_deal_records(records: Any, deal: int, deal_seed: int, n: int, n_rounds: int | None,
                        where: str, game: str = DEFAULT_GAME) -> list[dict[str, Any]]:
    """The records of one checkpointed deal, checked against the run as :func:`play_deal` writes them
    (integers where it writes integers, booleans refused; CheckpointError naming ``where`` and the field)."""
    def need(ok: bool, what: str) -> None:
        if not ok:
            raise CheckpointError(f"{where}: {what}")

    big = _MAX_CHECKPOINT_SCORE
    try:
        least, most = _round_count_range(game, n_rounds)
    except ValueError as err:  # an unknown game in a file's header
        raise CheckpointError(f"{where}: {err}") from None
    if most is None:
        count = "one or more"
    else:
        count = str(most) if least == most else f"{least} to {most}"
    need(isinstance(records, list) and len(records) == n, f"records must be a list of {n} games (one per rotation)")
    for rotation, r in enumerate(records):
        at = f"records[{rotation}]"
        need(isinstance(r, dict) and set(r) == set(_RECORD_KEYS), f"{at} must have exactly the keys {_RECORD_KEYS}")
        need(_is_int(r["deal"]) and _is_int(r["rotation"]) and (r["deal"], r["rotation"]) == (deal, rotation),
             f"{at} is deal {r['deal']!r} rotation {r['rotation']!r}, expected deal {deal} rotation {rotation}")
        need(_is_int(r["deal_seed"]) and r["deal_seed"] == deal_seed, f"{at}.deal_seed {r['deal_seed']!r} is not "
             f"this tournament's {deal_seed} (another seed or another run)")
        need(_int_list(r["agents"], n, 0, n - 1) and r["agents"] == seat_order(n, rotation),
             f"{at}.agents must be the integers {seat_order(n, rotation)}")
        rounds = r["round_scores"]
        need(isinstance(rounds, list) and least <= len(rounds) and (most is None or len(rounds) <= most)
             and all(_int_list(x, n, -big, big) for x in rounds),
             f"{at}.round_scores must be {count} lists of {n} integers in -{big:,}..{big:,}")
        need(_int_list(r["totals"], n, -big * len(rounds), big * len(rounds))
             and r["totals"] == [sum(x[s] for x in rounds) for s in range(n)],
             f"{at}.totals must be {n} integers, each seat's sum of its round scores")
        need(isinstance(r["winners"], list) and 1 <= len(r["winners"]) <= n
             and all(_is_int(w) and w < n for w in r["winners"]) and len(set(r["winners"])) == len(r["winners"]),
             f"{at}.winners must be one or more distinct seats 0..{n - 1}")
        need(_int_list(r["choices"], n, 0, 10**9), f"{at}.choices must be {n} integers >= 0")
        need(isinstance(r["choice_cpu_s"], list) and len(r["choice_cpu_s"]) == n
             and all(_is_number(v) and 0 <= v < 10**9 for v in r["choice_cpu_s"]),
             f"{at}.choice_cpu_s must be {n} numbers of seconds >= 0")
    return records


def _lock_checkpoint(path: str | os.PathLike):
    """``path`` opened for appending (created if missing) and locked for this run (``fcntl.flock``, where
    the platform has it), so that a second run on it, or one resuming from it meanwhile, is refused
    instead of cutting or doubling its lines (:class:`CheckpointError`)."""
    sink = open(path, "a", encoding="utf-8")
    try:
        import fcntl
    except ImportError:  # no advisory locks here (Windows): one run per checkpoint is up to the user
        return sink
    try:
        fcntl.flock(sink.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        sink.close()
        raise CheckpointError(f"checkpoint {os.fspath(path)!r} is in use by another running tournament; wait for "
                         "it to end, or name another file") from None
    return sink


def read_checkpoint(path: str | os.PathLike, header: dict[str, Any], seeds: list[int],
                    repair: bool = True) -> dict[int, list]:
    """The finished deals of a tournament checkpoint (JSON Lines: a header, then one line per deal).

    A last line cut short (a run stopped while writing it) is dropped, and (with ``repair``) the file
    truncated to the lines before it; deals at or beyond ``len(seeds)`` are left out (a run of fewer
    deals).

    Args:
        path: the checkpoint file (it exists).
        header: the run's header (:data:`CHECKPOINT_FORMAT`, game, specs, seed, rounds, artifact deck).
        seeds: the run's deal seeds (:func:`deal_seeds`); each record must carry its deal's.
        repair: make the file end cleanly for the next appended line (a reader that only reads, such as
            ``docs/compare_checkpoints.py``, passes False and changes nothing).

    Returns:
        deal -> its game records (one per rotation, as :func:`play_deal` returns them).

    Raises:
        CheckpointError: (a ValueError) not a checkpoint, one of another run (the message names the
            settings that differ), or a damaged line (named by its number).
    """
    from seers_env.jsonio import dumps, loads_strict

    name = os.fspath(path)
    with open(path, "rb") as f:
        data = f.read()
    lines = data.split(b"\n")
    complete = lines[:-1]  # the text after the last newline is a line cut short, or empty
    cut_short = b""
    if lines[-1]:
        try:
            loads_strict(lines[-1].decode("utf-8"))
            complete.append(lines[-1])  # whole, only its newline missing
        except (UnicodeDecodeError, ValueError, RecursionError):
            if not (lines[-1].startswith(_DEAL_LINE_START) or _DEAL_LINE_START.startswith(lines[-1])) or not complete:
                complete.append(lines[-1])  # not the start of a deal's line: refused below as damage
            else:
                cut_short = lines[-1]
    if not complete:
        raise CheckpointError(f"{name!r} is not a tournament checkpoint (it holds no complete line); delete it or "
                         "name another file")
    parsed = []
    for i, line in enumerate(complete, start=1):
        try:
            parsed.append(loads_strict(line.decode("utf-8")))
        except (UnicodeDecodeError, ValueError, RecursionError) as err:
            if i == 1:
                raise CheckpointError(f"{name!r} is not a tournament checkpoint (its first line is not JSON "
                                 f"Lines: {type(err).__name__})") from None
            raise CheckpointError(f"checkpoint {name!r} line {i} is not readable JSON ({type(err).__name__}: "
                             f"{str(err)[:200]})") from None
    head = parsed[0]
    if not isinstance(head, dict) or head.get("format") != CHECKPOINT_FORMAT:
        raise CheckpointError(f"{name!r} is not a tournament checkpoint (its first line has no format "
                         f"{CHECKPOINT_FORMAT!r})")
    if set(head) != set(header):
        raise CheckpointError(f"checkpoint {name!r} line 1 must have exactly the keys {sorted(header)}")
    differ = [f"{_SETTING_NAMES[k]} {head[k]!r} (this run: {v!r})" for k, v in header.items()
              if dumps(head[k], indent=None) != dumps(v, indent=None)]  # as JSON: 1 is neither 1.0 nor true
    if differ:
        raise CheckpointError(f"checkpoint {name!r} is of another tournament: " + "; ".join(differ)
                         + "; resume with the same settings, or name another file")
    n = len(header["specs"])
    done: dict[int, list] = {}
    seen: set[int] = set()
    for i, entry in enumerate(parsed[1:], start=2):
        where = f"checkpoint {name!r} line {i}"
        if not (isinstance(entry, dict) and set(entry) == {"deal", "records"} and _is_int(entry["deal"])):
            raise CheckpointError(f"{where}: expected {{'deal': <integer >= 0>, 'records': [...]}}")
        deal = entry["deal"]
        if deal in seen:
            raise CheckpointError(f"{where}: deal {deal} is there twice")
        seen.add(deal)
        if deal < len(seeds):
            done[deal] = _check_deal_records(entry["records"], deal, seeds[deal], n, header["n_rounds"], where,
                                             header["game"])
    if not repair:
        return done
    if cut_short:  # every line is sound: drop the partial one, so that the next line starts clean
        with open(path, "r+b") as f:
            f.truncate(len(data) - len(cut_short))
    elif data and not data.endswith(b"\n"):
        with open(path, "ab") as f:
            f.write(b"\n")
    return done


def _pool_context():
    """The multiprocessing context of tournament workers: ``forkserver`` where available (a forked copy
    of a process whose torch/OpenMP thread pool is running can deadlock), else the default."""
    import multiprocessing

    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("forkserver" if "forkserver" in methods else None)


def run_tournament(specs: list[str], games: int, n_players: int | None = None, seed: int = 0,
                   workers: int = 2, n_rounds: int | None = None, progress: bool = True,
                   artifact_deck: tuple[str, ...] | None = None,
                   progress_every_s: float = 10.0, game: str = DEFAULT_GAME,
                   checkpoint: str | os.PathLike | None = None) -> TournamentResult:
    """Run a duplicate-format tournament (module docstring).

    Args:
        specs: one entry per seat: an agent spec (see :func:`agents.make_agent`) or an
            :class:`~agents.base.Agent` instance (picklable; a deep copy reseeded with
            :meth:`~agents.base.Agent.reset` plays each game; labelled by its ``name``). Repeats are
            labelled ``spec#2``...
        games: number of deals; each is played ``n_players`` times (``games * n_players`` games).
        n_players: must equal ``len(specs)`` when given (2..5).
        seed: tournament seed (deals and agent seeds); same seed, same result, whatever ``workers``.
        workers: processes (``ProcessPoolExecutor``); 1 runs in this process. At most one process per
            deal and per core is started (the result does not depend on ``workers``).
        n_rounds: rounds per game (``None``: the game's default; Seers Catalog 4).
        progress: show progress on stdout: a rich bar on a terminal, otherwise a plain line (deals done,
            deals/s, elapsed, ETA) every ``progress_every_s`` seconds and at the end; the ETA reads
            ``--`` until a rate is known (:class:`seers_env.progress.EtaEstimate`).
        artifact_deck: Seers Catalog's artifact deck (``None``: the default deck; ``()``: the variant
            without artifacts).
        game: the game played (a name of :data:`seers_env.games.GAMES`); every agent must play it.
        checkpoint: a JSON Lines file that keeps every finished deal, so that a stopped run resumes where
            it stopped: a new file gets a header line (the settings) and then one line per deal as it
            finishes (flushed at once, synced to disk every :data:`CHECKPOINT_SYNC_S` seconds and at the
            end); an existing one must be of the same settings (game, specs, seed,
            rounds, artifact deck; any ``games``: deals beyond this run's are left out), and its deals
            are not played again (:func:`read_checkpoint`). The result equals an uninterrupted run's,
            but for the CPU times, as long as the code and the models the specs name are unchanged.
            Agent specs must be strings.

    Returns:
        A :class:`TournamentResult`.

    Raises:
        ValueError: bad specs, player count, games or workers; :class:`CheckpointError` (a ValueError)
            for a checkpoint of other settings, damaged or in use (nothing is run).
        OSError: the checkpoint cannot be read or written.
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
    if isinstance(games, bool) or not isinstance(games, int) or not 1 <= games <= MAX_DEALS:
        raise ValueError(f"games={games!r} must be an integer in 1..{MAX_DEALS:,} (number of deals; every "
                         f"game of every deal is kept in the result)")
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ValueError(f"workers={workers!r} must be an integer >= 1")
    workers = min(workers, games, os.cpu_count() or 1)  # more processes than deals or cores only wait
    check_seed(seed)  # ValueError naming the seed (SeedSequence's own message does not)
    config = table_config(game, n_players, n_rounds, artifact_deck)  # validates
    n_rounds = config.n_rounds
    artifact_deck = getattr(config, "artifact_deck", None)
    for s in specs:  # every agent is built and checked against the table before any game
        if isinstance(s, str) and s.startswith("ppo:"):
            path = s[len("ppo:"):]
            if not (os.path.isfile(path) or os.path.isfile(path + ".zip")):
                raise ValueError(f"agent spec {s!r}: no trained model at {path!r}; give the path of a "
                                 f"model.zip written by seers train")
        agent = make_agent(s, game=game) if isinstance(s, str) else s  # raises ValueError on a bad spec
        agent.check_game(game, config)  # another game, or a model trained for another table: ValueError
    seeds = deal_seeds(seed, games)
    by_deal: dict[int, list[dict[str, Any]]] = {}
    sink = None
    if checkpoint is not None:
        if not all(isinstance(s, str) for s in specs):
            raise CheckpointError("a checkpoint needs agent spec strings (an Agent instance cannot be written down)")
        header = _checkpoint_header(specs, seed, n_rounds, artifact_deck, game)
        sink = _lock_checkpoint(checkpoint)
        try:
            if os.fstat(sink.fileno()).st_size:
                by_deal.update(read_checkpoint(checkpoint, header, seeds))
            else:  # a new (or empty) file
                from seers_env.jsonio import dumps

                sink.write(dumps(header, indent=None) + "\n")
                sink.flush()
        except BaseException:
            sink.close()
            raise
    todo = [d for d in range(games) if d not in by_deal]
    resumed = len(by_deal)
    if progress and sink is not None and resumed:
        print(f"resuming: {resumed} of {games} deals from {os.fspath(checkpoint)}, {len(todo)} to play", flush=True)

    synced = time.monotonic()

    def keep(deal: int, records: list[dict[str, Any]]) -> None:
        nonlocal synced
        by_deal[deal] = records
        if sink is not None:
            from seers_env.jsonio import dumps

            sink.write(dumps({"deal": deal, "records": records}, indent=None) + "\n")
            sink.flush()  # a stopped or killed run keeps it; to disk every few seconds (a crash of the machine)
            if time.monotonic() - synced >= CHECKPOINT_SYNC_S:
                os.fsync(sink.fileno())
                synced = time.monotonic()

    bar = lines = eta = None
    if progress and is_terminal():
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        # the ETA of the plain lines (none until a rate is known; rich's own column guesses from the
        # first two deals done, which arrive together from the workers)
        eta = EtaEstimate(games, start_done=resumed)
        bar = Progress(TextColumn("deals"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                       TextColumn("ETA {task.fields[eta]}"))
        bar.start()
        task = bar.add_task("deals", total=games, completed=resumed, eta=ETA_UNKNOWN)
    elif progress:  # a file or a pipe: a plain line every progress_every_s seconds
        lines = ProgressLines(games, "deals", label="tournament", every_s=progress_every_s, start_done=resumed)

    def advance() -> None:
        if bar:
            bar.update(task, completed=len(by_deal), eta=eta.text(len(by_deal)))
        elif lines:
            lines.update(len(by_deal))

    try:
        if workers == 1 or len(todo) <= 1:
            for d in todo:
                keep(d, play_deal(specs, d, seeds[d], seed, n_rounds, artifact_deck, game))
                advance()
        else:
            # forkserver, not fork: a process that has run torch's thread pool deadlocks when forked
            with ProcessPoolExecutor(max_workers=min(workers, len(todo)), mp_context=_pool_context()) as pool:
                futures = {pool.submit(play_deal, specs, d, seeds[d], seed, n_rounds, artifact_deck, game): d
                           for d in todo}
                for fut in as_completed(futures):
                    keep(futures[fut], fut.result())
                    advance()
    except BaseException:
        if sink is not None and progress:  # stopped (Ctrl-C) or failed: say what the checkpoint holds
            print(f"stopped: {len(by_deal)} of {games} deals kept in {os.fspath(checkpoint)}; the same command "
                  "resumes from it", flush=True)
        raise
    finally:
        if bar:
            bar.stop()
        if sink is not None:
            try:
                os.fsync(sink.fileno())
            finally:
                sink.close()
    if lines:
        lines.close(len(by_deal))
    records = [r for d in range(games) for r in by_deal[d]]
    return summarize(specs, records, n_rounds, games, seed, game)


# --- paired comparison with a baseline ------------------------------------------------------------

#: Two-sided 95% quantiles of Student's t with 1..30 degrees of freedom (t_{0.975, df}).
_T975 = (12.706205, 4.302653, 3.182446, 2.776445, 2.570582, 2.446912, 2.364624, 2.306004, 2.262157,
         2.228139, 2.200985, 2.178813, 2.160369, 2.144787, 2.131450, 2.119905, 2.109816, 2.100922,
         2.093024, 2.085963, 2.079614, 2.073873, 2.068658, 2.063899, 2.059539, 2.055529, 2.051831,
         2.048407, 2.045230, 2.042272)


def t975(df: int) -> float:
    """Two-sided 95% quantile of Student's t distribution with ``df`` degrees of freedom.

    Exact table values for ``df <= 30``; above, the Cornish-Fisher expansion around the normal quantile
    (Abramowitz & Stegun 26.7.5; error below 1e-5 there). Raises ValueError for ``df < 1``.
    """
    if not is_integer(df) or df < 1:
        raise ValueError(f"degrees of freedom df={df!r} must be an integer >= 1")
    if df <= len(_T975):
        return _T975[df - 1]
    z = Z95
    return (z + (z**3 + z) / (4 * df) + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * df**2)
            + (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / (384 * df**3)
            + (79 * z**9 + 776 * z**7 + 1482 * z**5 - 1920 * z**3 - 945 * z) / (92160 * df**4))


def paired_differences(result: TournamentResult | dict[str, Any], baseline: str) -> dict[str, Any]:
    """Each agent's paired difference from a baseline agent's game score, with a 95% interval.

    The pairing is the duplicate format's: in every deal, each agent's game scores are averaged over the
    deal's seat rotations (so both agents played the same cards from every seat), the baseline's deal
    mean is subtracted, and the D per-deal differences give the mean and the Student-t 95% interval
    ``mean +/- t975(D - 1) * sd / sqrt(D)`` (deals are the independent units). An interval that holds 0
    is a **tie**: the tournament cannot tell the two agents apart. This separates a real win from noise
    far better than comparing the two agents' own intervals, because the luck of the deal cancels.

    Args:
        result: a :class:`TournamentResult` (or its :meth:`~TournamentResult.to_dict`).
        baseline: the baseline's label (its spec, e.g. ``"heuristic"``; repeats are ``"random#2"``...).

    Returns:
        Plain data (JSON-ready)::

            {"baseline": label, "deals": D, "confidence": 0.95,
             "method": "...",
             "agents": {label: {"mean_diff": float (points per game), "ci": [low, high] or None (D < 2),
                                "sd": float or None, "verdict": "better" | "worse" | "tie"}}}

        for every agent but the baseline, in the tournament's agent order.

    Raises:
        ValueError: ``baseline`` is not one of the tournament's agent labels (the message lists them).
    """
    data = result.to_dict() if isinstance(result, TournamentResult) else result
    labels = list(data["labels"])
    if baseline not in labels:
        raise ValueError(f"baseline {baseline!r} is not one of the tournament's agents {labels}; the "
                         f"baseline must play in the tournament (add it to the agents)")
    per_deal: dict[int, dict[str, list[float]]] = {}
    for g in data["games"]:
        bucket = per_deal.setdefault(int(g["deal"]), {})
        for seat, label in enumerate(g["seats"]):
            bucket.setdefault(label, []).append(float(g["totals"][seat]))
    deals = sorted(per_deal)
    base = np.array([np.mean(per_deal[d][baseline]) for d in deals])
    out: dict[str, Any] = {
        "baseline": baseline, "deals": len(deals), "confidence": 0.95,
        "method": "per deal: agent's mean game score over the seat rotations minus the baseline's; "
                  "mean and Student-t 95% interval over deals; 'tie' when the interval holds 0",
        "agents": {}}
    for label in labels:
        if label == baseline:
            continue
        diff = np.array([np.mean(per_deal[d][label]) for d in deals]) - base
        out["agents"][label] = difference_stats(diff, single="tie")
    return out


def difference_stats(diff: np.ndarray, single: str = "n/a") -> dict[str, Any]:
    """Mean of per-deal differences (float ``(D,)``) with its Student-t 95% interval:
    ``{"mean_diff", "ci" ([low, high], None for D < 2), "sd", "verdict"}``; the verdict is 'better' or
    'worse' when the interval excludes 0, else 'tie' (``single`` for D < 2)."""
    m = float(diff.mean())
    if len(diff) < 2:
        return {"mean_diff": m, "ci": None, "sd": None, "verdict": single}
    sd = float(diff.std(ddof=1))
    half = t975(len(diff) - 1) * sd / math.sqrt(len(diff))
    ci = [m - half, m + half]
    return {"mean_diff": m, "ci": ci, "sd": sd,
            "verdict": "better" if ci[0] > 0 else "worse" if ci[1] < 0 else "tie"}


def seat_differences(result: TournamentResult, baseline_spec: str, workers: int = 2,
                     artifact_deck: tuple[str, ...] | None = None, progress: bool = False) -> dict[str, Any]:
    """Each agent's score minus what ``baseline_spec`` scores in the same seats of the same deals.

    :func:`paired_differences` compares two agents *at one table*, where an agent also changes its
    neighbours' scores (the seat after a strong player often gains). This answers "what if the baseline
    had sat there instead": it plays the same deals (same seed, so the same cards) with ``baseline_spec``
    in every seat, and per deal subtracts the mean seat score of that table from each agent's mean over
    the seat rotations; mean and Student-t 95% interval over deals, 'tie' when it holds 0. ``progress``
    shows that table's progress as :func:`run_tournament` does.

    Returns: plain data ``{"baseline_table": spec, "deals": D, "confidence": 0.95, "method": ...,
    "agents": {label: {"mean_diff", "ci" (None for D < 2), "sd", "verdict"}}}``.

    Raises:
        ValueError: a bad ``baseline_spec`` (nothing is run).
    """
    table = run_tournament([baseline_spec] * result.n_players, result.deals, seed=result.seed,
                           workers=workers, n_rounds=result.n_rounds, progress=progress,
                           artifact_deck=artifact_deck, game=result.game)
    base: dict[int, list[float]] = {}
    for g in table.games:
        base.setdefault(int(g["deal"]), []).extend(float(x) for x in g["totals"])
    mine: dict[int, dict[str, list[float]]] = {}
    for g in result.games:
        bucket = mine.setdefault(int(g["deal"]), {})
        for seat, label in enumerate(g["seats"]):
            bucket.setdefault(label, []).append(float(g["totals"][seat]))
    deals = sorted(mine)
    out: dict[str, Any] = {
        "baseline_table": baseline_spec, "deals": len(deals), "confidence": 0.95,
        "method": "per deal: agent's mean game score over the seat rotations minus the mean seat score of "
                  "a table of the baseline alone on the same deal; Student-t 95% interval over deals",
        "agents": {}}
    for label in result.labels:
        diff = np.array([np.mean(mine[d][label]) - np.mean(base[d]) for d in deals])
        out["agents"][label] = difference_stats(diff)
    return out


def seat_difference_lines(result: TournamentResult, seat: dict[str, Any], width: int = 80) -> str:
    """The text of :func:`seat_differences`' result ``seat`` for ``result``'s agents: a wrapped title, then
    one line per agent named as in the table (:func:`short_labels`; the table's legend gives the full
    specs), ``mean difference [95% interval]  verdict``, in the order of ``result.labels``."""
    import textwrap

    names = short_labels(list(result.labels))
    w = max((len(names.get(label, label)) for label in seat["agents"]), default=0)
    base = seat["baseline_table"]
    own_row = (f"; {names.get(base, base)}'s own row: what the others at its table changed for it"
               if base in seat["agents"] else "")
    lines = textwrap.wrap(f"Each agent minus {base} in the same seats of the same "
                          f"{seat['deals']} deals (95% t interval{own_row}):", width, subsequent_indent="  ")
    for label, d in seat["agents"].items():
        ci = "n/a" if d["ci"] is None else f"[{d['ci'][0]:+.2f}, {d['ci'][1]:+.2f}]"
        lines.append(f"  {names.get(label, label):<{w}}  {d['mean_diff']:+.2f} {ci}  {d['verdict']}".rstrip())
    return "\n".join(lines)


# --- tables that fit 80 columns -----------------------------------------------------------------------

#: Longest agent label shown in a table; longer labels get a short name and a legend line.
LABEL_WIDTH = 14


def short_labels(labels: list[str], width: int = LABEL_WIDTH) -> dict[str, str]:
    """Table names of agent labels (every name distinct, at most ``width`` characters).

    A label of at most ``width`` characters is kept. A longer ``learned:``, ``ppo:`` or ``rllib:`` label
    whose file names a run no other label names becomes that run's name
    (``learned:runs/seers4p_exit/model.pt`` -> ``seers4p_exit``); any other long label becomes its
    kind and a number (``ppo-1``; ``learned+search:500:leaf=mixed`` -> ``search-1``), as does a short
    label whose copies are long. A copy (``label#2``, :func:`agent_labels`) is named after its original
    (``seers4p_exit#2``).
    """
    out: dict[str, str] = {}
    split = {lab: _copy_of(lab) for lab in labels}  # (original, copy number or "")
    is_copy = {lab: bool(number) and base in labels for lab, (base, number) in split.items()}
    copies: dict[str, list[str]] = {lab: [] for lab in labels}  # an original's "#k" suffixes
    for lab in labels:
        if is_copy[lab]:
            copies[split[lab][0]].append("#" + split[lab][1])
    # renamed: the long labels that are no copies, and the short ones whose copies are long
    renamed = [lab for lab in labels if not is_copy[lab]
               and (len(lab) > width or any(len(lab + c) > width for c in copies[lab]))]
    taken = {lab for lab in labels if len(lab) <= width and lab not in renamed}
    runs = [_run_name(lab) for lab in renamed]
    counts: dict[str, int] = {}
    for lab, run in zip(renamed, runs):
        suffixes = ["", *copies[lab]]  # the name itself and its copies'
        room = max(map(len, suffixes))
        if run and len(run) + room <= width and runs.count(run) == 1 and all(run + c not in taken for c in suffixes):
            name = run
        else:
            kind = lab.split(":", 1)[0]
            kind = kind if len(kind) <= width - 3 else kind.rsplit("+", 1)[-1]
            kind = kind if re.fullmatch(r"[A-Za-z][A-Za-z0-9_+-]*", kind) else "agent"
            while True:
                counts[kind] = counts.get(kind, 0) + 1
                suffix = f"-{counts[kind]}"
                name = kind[:max(1, width - len(suffix) - room)] + suffix
                if all(name + c not in taken for c in suffixes):
                    break
        taken.update(name + c for c in suffixes)
        out[lab] = name
    for lab in labels:  # the labels kept, then the copies of renamed ones
        if lab not in out:
            base, number = split[lab]
            out[lab] = f"{out[base]}#{number}" if is_copy[lab] and base in out else lab
    return out


def _copy_of(label: str) -> tuple[str, str]:
    """``("spec", "2")`` for a copy's label ``spec#2`` (:func:`agent_labels`), else ``(label, "")``."""
    base, mark, number = label.rpartition("#")
    return (base, number) if mark and number.isdigit() and base else (label, "")


#: File stems that say nothing about a run; the folder above them names it instead.
_GENERIC_STEMS = ("model", "checkpoint", "policy", "final", "best", "latest")
#: Agent kinds whose spec argument is a model file or folder (``learned:runs/x/model.pt``).
_MODEL_KINDS = ("learned", "ppo", "rllib")
#: Names a run cannot take in a table: they would read as another agent.
_RESERVED_NAMES = ("random", "greedy", "heuristic", "ismcts", "learned", "ppo", "rllib", "rollout", "search",
                   "agent")


def _run_name(label: str) -> str:
    """The run a model label's file belongs to: the folder of a generically named file
    (``.../seers4p_exit/model.pt``, a checkpoint folder), else the file's stem; "" when the label is no
    ``learned:``/``ppo:``/``rllib:`` file, or the name is not plain ASCII letters, digits, ``_`` and
    ``-`` with a letter, or would read as another agent (:data:`_RESERVED_NAMES`)."""
    kind, _, path = label.partition(":")
    if kind not in _MODEL_KINDS:
        return ""
    parts = [x for x in path.replace("\\", "/").split("/") if x not in ("", ".", "..")]
    if not parts:
        return ""
    def generic(name: str) -> bool:  # model.pt, checkpoint_000010, ...
        return name.lower().rstrip("_0123456789") in _GENERIC_STEMS

    stem = parts[-1].split(".", 1)[0]
    if (not stem or generic(stem)) and len(parts) > 1:
        stem = parts[-2]
    plain = re.fullmatch(r"[A-Za-z0-9_-]*[A-Za-z][A-Za-z0-9_-]*", stem)
    reserved = re.fullmatch(r"(%s)(-\d+)?" % "|".join(_RESERVED_NAMES), stem.lower())  # also "search-1"
    return stem if plain and not generic(stem) and not reserved else ""


def _pm(mean: float, ci: tuple[float, float] | list[float] | None, signed: bool = False) -> str:
    head = f"{mean:+.2f}" if signed else f"{mean:.2f}"
    if ci is None or not all(math.isfinite(x) for x in ci):
        return f"{head} ±n/a"  # undefined (one deal)
    return f"{head} ±{(ci[1] - ci[0]) / 2:.2f}"


def rounds_text(game: str, n_rounds: int | None) -> str:
    """How long each game of a table lasts, for titles: ``"1 round"``, ``"4 rounds"``, ``"to the target
    score"`` (``n_rounds`` ``None``: Haggis played to its target); Seals counts its rounds on a round
    counter of ``n_rounds`` Marks, with tie-break rounds after it (``docs/seals_rules.md``):
    ``"a 5-Mark round counter"``."""
    if n_rounds is None:
        return "to the target score"
    if game == "seals":
        return f"a {n_rounds}-Mark round counter"
    return f"{n_rounds} round{'' if n_rounds == 1 else 's'}"


def table_cells(result: TournamentResult, wide: bool = False,
                paired: dict[str, Any] | None = None, wide_hint: bool = False,
                title: str | None = None, notes: tuple[str, ...] = ()) -> dict[str, Any]:
    """Title, headers, rows (strings, best mean game score first), legend and caption lines of a
    result's table; :meth:`TournamentResult.table` and :meth:`TournamentResult.text` render them.

    ``title`` replaces the default title (deals x seat rotations = games, players, rounds, seed);
    ``notes`` are caption lines added after the column notes.

    Default columns (fit 80 characters with the paired columns): agent, game score, win rate, openskill
    ordinal (without ``paired``); with ``wide`` also games, round score and mu±sigma.
    """
    names = short_labels(list(result.labels))
    base = paired["baseline"] if paired else None
    headers = ["agent"] + (["games"] if wide else []) + ["score ±95%"] + (["round ±95%"] if wide else []) \
        + ["win% [95%]"] + (["mu±σ"] if wide else []) + (["ordinal"] if wide or not paired else [])
    if paired:
        headers += [f"vs {names[base]}", "verdict"]
    rows = []
    for s in sorted(result.agents.values(), key=lambda s: -s.mean_score):
        row = [names[s.label]]
        if wide:
            row.append(str(s.games))
        row.append(_pm(s.mean_score, s.score_ci))
        if wide:
            row.append(_pm(s.mean_round_score, s.round_score_ci))
        row.append(f"{100 * s.win_rate:.0f} [{100 * s.win_ci[0]:.0f},{100 * s.win_ci[1]:.0f}]")
        if wide:
            row.append(f"{s.mu:.1f}±{s.sigma:.1f}")
        if wide or not paired:
            row.append(f"{s.ordinal:.1f}")
        if paired:
            p = paired["agents"].get(s.label)
            row += ["(baseline)", ""] if p is None else [_pm(p["mean_diff"], p["ci"], signed=True), p["verdict"]]
        rows.append(row)
    legend = [f"{short} = {label}" for label, short in names.items() if short != label]
    caption = ["score: mean game score ± half-width of its 95% interval over per-deal means; "
               "win%: win rate with its Wilson 95% interval (a shared win counts 1/k)"]
    if wide or not paired:
        caption.append("ordinal: openskill Plackett-Luce rating mu - 3 sigma" + (" (mu±σ: its mean and "
                       "uncertainty)" if wide else ""))
    if paired:
        caption.append(f"vs {names[base]}: paired per-deal difference from {names[base]}'s game score ± "
                       f"half-width of its 95% t interval over {paired['deals']} deals; 'tie' when the "
                       f"interval holds 0")
    caption += list(notes)
    if wide_hint and not wide:
        caption.append("--wide: all columns")
    if title is None:
        def count(k: int, word: str) -> str:
            return f"{k:,} {word}{'' if k == 1 else 's'}"

        title = (f"{count(result.deals, 'deal')} x {result.n_players} seat rotations = "
                 f"{count(len(result.games), 'game')}, "
                 f"{result.n_players} players, "
                 f"{rounds_text(result.game, result.n_rounds)}, "
                 f"seed {result.seed}")
        if result.game != DEFAULT_GAME:
            title = f"{game_spec(result.game).title}: {title}"
    return {"title": title, "headers": headers, "rows": rows, "legend": legend, "caption": caption}


def markdown_table(cells: dict[str, Any], width: int = 80) -> str:
    """Render :func:`table_cells` as a Markdown pipe table with the title above and the legend and
    caption (title and caption wrapped at ``width`` characters) below; cells are never cut."""
    import textwrap

    headers, rows = cells["headers"], cells["rows"]
    widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h) for i, h in enumerate(headers)]

    def line(values):
        return "| " + " | ".join(v.ljust(w) if i == 0 else v.rjust(w)
                                  for i, (v, w) in enumerate(zip(values, widths))) + " |"

    # break_on_hyphens off: "half-width", "per-deal" and agent specs stay whole
    out = [*textwrap.wrap(cells["title"], width, subsequent_indent="  ", break_on_hyphens=False), "", line(headers),
           "|" + "|".join(("-" * (w + 1) + ":") if i else (":" + "-" * (w + 1))
                          for i, w in enumerate(widths)) + "|"]
    out += [line(r) for r in rows]
    out.append("")
    for text in cells["legend"] + cells["caption"]:
        wrapped = textwrap.wrap(text, width, subsequent_indent="  ", break_on_hyphens=False)
        if len(wrapped) > 1 and len(wrapped[-1].split()) == 1:  # no lone word ("0") on a line of its own
            head, _, word = wrapped[-2].rpartition(" ")
            tail = f"{word} {wrapped[-1].strip()}"
            if head.strip() and text.endswith(" " + tail) and len(tail) + 2 <= width:
                wrapped[-2:] = [head, "  " + tail]
        out += wrapped
    return "\n".join(out)


def print_table(result: TournamentResult, wide: bool = False, paired: dict[str, Any] | None = None,
                file=None, wide_hint: bool = False, title: str | None = None, notes: tuple[str, ...] = ()) -> None:
    """Print a result's table to ``file`` (default ``sys.stdout``): a rich table on a terminal, plain
    text (:meth:`TournamentResult.text`) otherwise; ``title`` and ``notes`` as in :func:`table_cells`."""
    import sys

    file = sys.stdout if file is None else file
    kwargs = {"wide": wide, "paired": paired, "wide_hint": wide_hint, "title": title, "notes": notes}
    if file.isatty():
        from rich.console import Console

        Console(file=file).print(result.table(**kwargs))
    else:
        print(result.text(**kwargs), file=file, flush=True)
