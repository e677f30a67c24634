"""Expert iteration: distil the network-guided search back into the play-scoring network.

The guided search (``learned+search``, :mod:`train.guided_search`) plays better than the network that
guides it (``docs/guided_search.md``). Here every seat of whole games is played by that search; at each
decision with a choice we keep what the network sees (the state row and the legal plays' rows) and the
search's root visit counts over the legal plays. The network is then fitted to the visit distribution
(soft cross-entropy, the policy target of AlphaZero, Silver et al. 2018, and of expert iteration,
Anthony, Tian and Barber, NeurIPS 2017), starting from the model that guided the search, with its own
logits and values on the same decisions as anchors (a KL term to the start policy and a squared error
to the start values) so that a few thousand decisions move the policy toward the search without
forgetting the rest. The value anchor keeps the value head that the search's leaves use.

Usage::

    python -m train.search_distill --players 4 --minutes 50 --seed 41 --out runs/seers4p_exit

writes ``OUT/shard-<k>.npz`` (the decisions of worker ``k``, rewritten every few minutes so that a
cut-off run keeps them; each names its game and table, checked against the model before a fit),
``OUT/model.pt`` (a ``learned:`` model file) and ``OUT/summary.json``; ``--data OUT`` fits on the shards
already there without collecting. Every hyperparameter is a flag (``--help``).
"""

from __future__ import annotations

import glob
import json
import os
import time
from dataclasses import dataclass
from multiprocessing import get_context
from typing import Annotated, Optional

import numpy as np
import typer

#: The default search: the strongest measured at about 0.5 s of CPU per decision (docs/guided_search.md).
DEFAULT_SEARCH = "learned+search:150:worlds=64:opponents=mixture:leaf=mixed"


@dataclass
class SearchData:
    """Decisions of the search with their root visit counts, one row per decision with a choice.

    Attributes:
        states: float32 ``(N, state_dim)``; hidden: float32 ``(N, privileged_dim)`` (every hand, for the
            privileged critic); plays: float32 ``(R, play_dim [+ 1])`` (:func:`train.scoring_policy.
            play_rows` of the network's configuration); offsets: int64 ``(N + 1,)``, decision ``i``'s rows
            are ``plays[offsets[i]:offsets[i + 1]]``;
        visits: float32 ``(R,)``, the search's root visits of each legal play (0 for plays never tried);
        chosen: int64 ``(N,)``, the play the search made, an index within its decision;
        game: the game's name (:data:`seers_env.games.GAMES`); n_players: the table's players.
    """

    states: np.ndarray
    hidden: np.ndarray
    plays: np.ndarray
    offsets: np.ndarray
    visits: np.ndarray
    chosen: np.ndarray
    game: str = ""
    n_players: int = 0

    def __len__(self) -> int:
        return len(self.chosen)


#: The arrays of a shard (:func:`save_data`), besides ``game`` and ``n_players``.
ARRAYS = ("states", "hidden", "plays", "offsets", "visits", "chosen")
#: The largest shard :func:`load_data` decompresses, in bytes (a collection of hours is far smaller).
MAX_SHARD_BYTES = 4 << 30


def _pack(states, hidden, plays, visits, chosen, adapter, n_players: int) -> SearchData:
    offsets = np.zeros(len(chosen) + 1, np.int64)
    offsets[1:] = np.cumsum([len(p) for p in plays])
    if not chosen:
        return SearchData(np.zeros((0, adapter.state_dim), np.float32),
                          np.zeros((0, adapter.privileged_dim), np.float32),
                          np.zeros((0, 1), np.float32), offsets, np.zeros(0, np.float32), np.zeros(0, np.int64),
                          adapter.name, n_players)
    return SearchData(np.stack(states), np.stack(hidden), np.concatenate(plays), offsets,
                      np.concatenate(visits).astype(np.float32), np.asarray(chosen, np.int64), adapter.name,
                      n_players)


def save_data(data: SearchData, path: str) -> None:
    """Write ``data`` to ``path`` (``.npz``) atomically: to ``path + ".part"``, then a rename (a run cut
    off while writing leaves the previous shard whole)."""
    tmp = path + ".part"
    with open(tmp, "wb") as f:
        np.savez_compressed(f, game=np.array(data.game), n_players=np.array(data.n_players, np.int64),
                            **{k: getattr(data, k) for k in ARRAYS})
    os.replace(tmp, path)


class SearchDataError(ValueError):
    """A shard that is not an ``.npz`` of :class:`SearchData`'s arrays, or whose shapes, dtypes or values
    do not make decisions (the message names the file and what is wrong)."""


_FLOAT_ARRAYS = ("states", "hidden", "plays", "visits")


def load_data(path: str) -> SearchData:
    """A shard written by :func:`save_data`, read without unpickling anything.

    Raises:
        SearchDataError: not a readable ``.npz`` of plain arrays, larger than :data:`MAX_SHARD_BYTES`
            decompressed, a missing array, a wrong dtype or rank, a value that is not finite, negative
            visits, a decision without visits, or offsets that do not make decisions.
    """
    import zipfile

    try:
        with zipfile.ZipFile(path) as z:
            size = sum(i.file_size for i in z.infolist())
    except (OSError, zipfile.BadZipFile) as err:
        raise SearchDataError(f"{path!r} is not a readable .npz archive ({type(err).__name__}: {err})") from None
    if size > MAX_SHARD_BYTES:
        raise SearchDataError(f"{path!r} decompresses to {size:,} bytes, over the {MAX_SHARD_BYTES:,} allowed")
    try:
        with np.load(path, allow_pickle=False) as z:
            missing = [k for k in (*ARRAYS, "game", "n_players") if k not in z.files]
            if missing:
                raise SearchDataError(f"{path!r} lacks the arrays {', '.join(missing)}")
            arrays = {k: z[k] for k in ARRAYS}
            game, n_players = z["game"], z["n_players"]
    except SearchDataError:
        raise
    except Exception as err:
        raise SearchDataError(f"{path!r} is not a readable .npz of plain arrays ({type(err).__name__}: "
                              f"{err})") from None
    if game.dtype.kind != "U" or game.ndim != 0 or n_players.dtype.kind not in "iu" or n_players.ndim != 0:
        raise SearchDataError(f"{path!r}: 'game' must be a string and 'n_players' an integer")
    bad = [k for k in _FLOAT_ARRAYS if arrays[k].dtype != np.float32]
    bad += [k for k in ("offsets", "chosen") if arrays[k].dtype.kind not in "iu"]
    if bad:
        raise SearchDataError(f"{path!r}: wrong dtype of {', '.join(bad)} (float32 features and visits, "
                              f"integer offsets and choices)")
    d = SearchData(**arrays, game=str(game), n_players=int(n_players))
    n, off = len(d.chosen), d.offsets.astype(np.int64)
    shapes = (d.states.ndim == 2 and d.hidden.ndim == 2 and d.plays.ndim == 2 and off.ndim == 1
              and d.visits.ndim == 1 and d.chosen.ndim == 1 and len(d.states) == n == len(d.hidden)
              and len(off) == n + 1 and off[0] == 0 and bool(np.all(np.diff(off) >= 2))
              and off[-1] == len(d.plays) == len(d.visits)
              and bool(np.all((d.chosen >= 0) & (d.chosen < np.diff(off)))))
    if not shapes:
        raise SearchDataError(f"{path!r}: the arrays' shapes or offsets do not make decisions (see SearchData)")
    if not all(np.isfinite(arrays[k]).all() for k in _FLOAT_ARRAYS):
        raise SearchDataError(f"{path!r}: an array holds a NaN or an infinity")
    if n and (d.visits.min() < 0 or np.add.reduceat(d.visits, off[:-1]).min() <= 0):
        raise SearchDataError(f"{path!r}: visits must be >= 0 with at least one per decision")
    d.offsets = off
    return d


def concat(parts: list[SearchData]) -> SearchData:
    """One :class:`SearchData` from several (offsets renumbered).

    Raises:
        SearchDataError: the parts are of different games, tables or feature widths.
    """
    parts = [p for p in parts if len(p)]
    if not parts:
        raise SearchDataError("no decisions in the shards")
    kinds = {(p.game, p.n_players, p.states.shape[1], p.hidden.shape[1], p.plays.shape[1]) for p in parts}
    if len(kinds) > 1:
        raise SearchDataError(f"the shards mix games, tables or feature widths: {sorted(kinds)}")
    offs, rows = [np.zeros(1, np.int64)], 0
    for p in parts:
        offs.append(p.offsets[1:] + rows)
        rows += int(p.offsets[-1])
    cat = np.concatenate
    return SearchData(cat([p.states for p in parts]), cat([p.hidden for p in parts]),
                      cat([p.plays for p in parts]), cat(offs), cat([p.visits for p in parts]),
                      cat([p.chosen for p in parts]), parts[0].game, parts[0].n_players)


def collect(model: str, n_players: int, search: str, seconds: float, seed: int, shard: str,
            save_every: float = 300.0, report_every: float = 0.0, max_decisions: int = 0) -> int:
    """Whole games with ``search`` (an agent spec; the model ``learned+search`` loads) in every seat
    until ``seconds`` of wall time have passed or ``max_decisions`` decisions are recorded (0: no such
    limit; the same seed then records the same decisions on any machine), written to ``shard`` every
    ``save_every`` seconds and at the end. Returns the decisions recorded.

    Raises:
        ValueError: a bad agent spec or a model that does not fit the table (from ``agents.make_agent``);
            an agent without root visits (``last_visits``: the ISMCTS family).
    """
    from agents.specs import make_agent
    from agents.games import play_key

    from .game_adapters import game_adapter
    from .scoring_policy import cached_policy

    net, config = cached_policy(model)  # the search's LearnedAgent loads the same file through this cache
    adapter = game_adapter(config.game)
    prior = net.cfg.heuristic_prior
    rng = np.random.default_rng(seed)
    seats = [make_agent(search, seed=int(rng.integers(2**31)), game=config.game) for _ in range(n_players)]
    if not hasattr(seats[0], "last_visits"):
        raise ValueError(f"agent spec {search!r} is not a search with root visits (learned+search:..., "
                         f"ismcts:...)")
    key = play_key(config.game)
    table = adapter.game_config(n_players, config.artifact_deck)
    states, hidden, plays, visits, chosen = [], [], [], [], []
    t0 = last_save = last_report = time.perf_counter()

    def going() -> bool:
        return time.perf_counter() - t0 < seconds and not (max_decisions and len(chosen) >= max_decisions)

    while going():
        game = adapter.new_game(table, int(rng.integers(2**62)))
        while not game.game_over and going():
            seat = game.current
            view = adapter.seat_view(game, seat)
            legal = game.legal_plays()
            agent = seats[seat]
            play = agent.act(view)
            if len(legal) > 1:
                root = agent.last_visits
                states.append(adapter.encode_state(view))
                plays.append(adapter.play_rows(view, legal, prior))
                hidden.append(adapter.privileged(game, seat))
                visits.append(np.array([root.get(key(p), (0, 0.0))[0] for p in legal], np.float32))
                chosen.append(legal.index(play))
            game.apply(play)
            now = time.perf_counter()
            if now - last_save >= save_every:
                save_data(_pack(states, hidden, plays, visits, chosen, adapter, n_players), shard)
                last_save = now
            if report_every > 0 and now - last_report >= report_every:
                last_report = now
                print(f"  {len(chosen):,} decisions of this process in {now - t0:.0f} s "
                      f"({len(chosen) / (now - t0):.1f}/s), {max(0.0, seconds - (now - t0)) / 60:.0f} min left",
                      flush=True)  # at most 80 columns up to a million decisions
    save_data(_pack(states, hidden, plays, visits, chosen, adapter, n_players), shard)
    return len(chosen)


def _collect_job(args):
    return collect(*args)


def fit(data: SearchData, model: str, epochs: int, lr: float, minibatch: int, kl_weight: float,
        value_weight: float, holdout: float, seed: int, sharpen: float = 1.0, log=print):
    """Fine-tunes the model at ``model`` toward the visit distributions of ``data`` (module docstring).

    The last ``holdout`` fraction of decisions (by recording order, so whole games stay together mostly)
    is held out; the epoch with the lowest held-out soft cross-entropy is kept. The target of a decision is
    its visits raised to ``sharpen`` (1: the visit distribution; larger: nearer the most visited play),
    normalised. Returns ``(net, config, stats)``; ``stats`` holds, per split, the soft cross-entropy and
    how often the network's greedy play is the search's most visited play, before and after.

    Raises:
        ValueError: fewer than 2 decisions; FloatingPointError: the loss stopped being finite (``lr``).
    """
    import copy

    import torch

    from .scoring_policy import load_policy, segment_log_softmax

    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    net, config = load_policy(model)
    ref = copy.deepcopy(net).eval()
    n = len(data)
    if n < 2:
        raise ValueError(f"{n} decisions: fitting needs at least 2 (one to train on, one held out)")
    n_val = min(n - 1, max(1, int(round(n * holdout))))
    train_idx, val_idx = np.arange(n - n_val), np.arange(n - n_val, n)
    sizes = np.diff(data.offsets)
    top_visits = np.repeat(np.maximum.reduceat(data.visits, data.offsets[:-1]), sizes).astype(np.float64)
    powered = (data.visits / top_visits) ** sharpen  # AlphaZero's visits^(1/temperature), scaled: no overflow
    target_all = (powered / np.repeat(np.add.reduceat(powered, data.offsets[:-1]), sizes)).astype(np.float32)

    def batch(idx):
        rows = np.concatenate([np.arange(data.offsets[i], data.offsets[i + 1]) for i in idx])
        seg = torch.from_numpy(np.repeat(np.arange(len(idx)), sizes[idx]))
        return (torch.from_numpy(data.states[idx]), torch.from_numpy(data.plays[rows]), seg,
                torch.from_numpy(data.hidden[idx]), torch.from_numpy(target_all[rows]),
                torch.from_numpy(data.visits[rows]))

    def evaluate(m, idx) -> dict:
        m.eval()
        ce_sum = agree = 0.0
        with torch.no_grad():
            for start in range(0, len(idx), 1024):
                part = idx[start:start + 1024]
                states, rows, seg, hidden, target, visits = batch(part)
                logits, _ = m(states, rows, seg, hidden)
                logp = segment_log_softmax(logits, seg, len(part))
                ce_sum += float(-(target * logp).sum())
                top = torch.full((len(part),), -torch.inf).scatter_reduce(0, seg, logits, "amax")
                most = torch.full((len(part),), -torch.inf).scatter_reduce(0, seg, visits, "amax")
                pick_visits = torch.zeros(len(part)).index_add(
                    0, seg, ((logits >= top[seg]) & (visits >= most[seg])).float())
                agree += float((pick_visits > 0).sum())
        return {"soft_ce": ce_sum / len(idx), "agrees_with_search": agree / len(idx)}

    stats = {"train_before": evaluate(net, train_idx), "holdout_before": evaluate(net, val_idx)}
    log(f"held out: soft cross-entropy (CE); how often the network's top play is the\n"
        f"search's most visited\n  before: CE {stats['holdout_before']['soft_ce']:.4f}, top play = search's "
        f"{stats['holdout_before']['agrees_with_search']:.1%}")
    opt = torch.optim.Adam(net.parameters(), lr=lr, eps=1e-5)
    best = (stats["holdout_before"]["soft_ce"], copy.deepcopy(net.state_dict()), 0)
    for epoch in range(epochs):
        net.train()
        perm = rng.permutation(train_idx)
        for start in range(0, len(perm), minibatch):
            idx = np.sort(perm[start:start + minibatch])
            states, rows, seg, hidden, target, _ = batch(idx)
            logits, values = net(states, rows, seg, hidden)
            with torch.no_grad():
                ref_logits, ref_values = ref(states, rows, seg, hidden)
                ref_p = segment_log_softmax(ref_logits, seg, len(idx)).exp()
            logp = segment_log_softmax(logits, seg, len(idx))
            ce = -(target * logp).sum() / len(idx)
            kl = (ref_p * (ref_p.clamp_min(1e-12).log() - logp)).sum() / len(idx)
            vl = (values - ref_values).pow(2).mean()
            loss = ce + kl_weight * kl + value_weight * vl
            if not torch.isfinite(loss):
                raise FloatingPointError(f"the loss became {float(loss)} at epoch {epoch + 1}: lower --lr "
                                         f"(was {lr})")
            opt.zero_grad()
            loss.backward()
            opt.step()
        held = evaluate(net, val_idx)
        log(f"  epoch {epoch + 1}/{epochs}: CE {held['soft_ce']:.4f}, top play = search's "
            f"{held['agrees_with_search']:.1%}")
        if held["soft_ce"] < best[0]:
            best = (held["soft_ce"], copy.deepcopy(net.state_dict()), epoch + 1)
    net.load_state_dict(best[1])
    net.eval()
    log(f"kept epoch {best[2]} (held-out CE {best[0]:.4f})" if best[2] else
        "kept the start model: no epoch lowered the held-out CE")
    stats.update({"train_after": evaluate(net, train_idx), "holdout_after": evaluate(net, val_idx),
                  "best_epoch": best[2], "train_decisions": len(train_idx), "holdout_decisions": len(val_idx)})
    return net, config, stats


def main(players: Annotated[Optional[int], typer.Option(help="Players at the table (2..5); default 4, or "
                                                         "the shards' with --data.", show_default=False)] = None,
         model: Annotated[Optional[str], typer.Option(help="The model that guides the search and is "
                                                          "fine-tuned (default: the shipped one).")] = None,
         search: Annotated[str, typer.Option(help="The search in every seat: a learned+search spec without "
                                                  "a model (it gets --model), or ismcts:<n>; default "
                                                  "learned+search:150 with worlds=64, opponents=mixture "
                                                  "and leaf=mixed.", show_default=False)] = DEFAULT_SEARCH,
         minutes: Annotated[float, typer.Option(help="Wall minutes of collection (the default run takes "
                                                     "about 50 minutes and a minute or two to fit).")] = 50.0,
         decisions: Annotated[int, typer.Option(help="Stop each process after this many decisions (0: "
                                                     "only --minutes).")] = 0,
         workers: Annotated[int, typer.Option(help="Collection processes (one per core).")] = 2,
         epochs: Annotated[int, typer.Option(help="Passes over the decisions.")] = 8,
         lr: Annotated[float, typer.Option(help="Adam learning rate.")] = 1e-4,
         minibatch: Annotated[int, typer.Option(help="Decisions per gradient step.")] = 128,
         kl_weight: Annotated[float, typer.Option(help="Weight of KL(start policy || new).")] = 0.5,
         value_weight: Annotated[float, typer.Option(help="Weight of the squared error to the start "
                                                          "values.")] = 1.0,
         sharpen: Annotated[float, typer.Option(help="Exponent of the visits in the target (1: the visit "
                                                     "distribution).")] = 1.0,
         holdout: Annotated[float, typer.Option(help="Fraction of decisions held out to pick the "
                                                     "epoch.")] = 0.1,
         seed: Annotated[int, typer.Option(help="Seeds the games, the searches and the fit.")] = 41,
         out: Annotated[str, typer.Option(help="Run folder (must hold no shards when collecting).")] =
         "runs/search_distill",
         data: Annotated[Optional[str], typer.Option(help="Fit on the shards of this run folder "
                                                          "instead of collecting.")] = None) -> None:
    """Distil the guided search into the play-scoring network (expert iteration).

    Writes OUT/shard-*.npz, OUT/model.pt (agent spec learned:OUT/model.pt) and OUT/summary.json.

    With --data, an OUT/model.pt already there is replaced.

    The held-out decisions are the last of the last shard.
    """
    from agents.specs import make_agent

    from .scoring_policy import load_policy, save_policy, shipped_model_path

    if players is None and data:  # the shards' table
        found = sorted(glob.glob(os.path.join(data, "shard-*.npz")))
        try:
            players = load_data(found[0]).n_players if found else 4
        except SearchDataError as err:
            raise typer.BadParameter(str(err)) from None
    players = 4 if players is None else players
    if not 2 <= players <= 5:
        raise typer.BadParameter(f"--players {players!r} is not allowed; the game is played by 2 to 5")
    if not 0 <= seed < 2**63:
        raise typer.BadParameter(f"--seed {seed!r} is not allowed; use an integer in [0, 2**63)")
    if not 0 < holdout < 1:
        raise typer.BadParameter(f"--holdout {holdout!r} is not allowed; use a fraction in (0, 1)")
    if not 0 <= decisions <= 1 << 40:
        raise typer.BadParameter(f"--decisions {decisions!r} is not allowed; use an integer >= 0")
    for name, value, top in (("epochs", epochs, 10_000), ("minibatch", minibatch, 1 << 20),
                             ("workers", workers, 64)):
        if not 1 <= value <= top:
            raise typer.BadParameter(f"--{name} {value!r} is not allowed; use an integer in 1..{top}")
    for name, value in (("minutes", minutes), ("lr", lr), ("sharpen", sharpen)):
        if not 0 < value < float("inf"):
            raise typer.BadParameter(f"--{name} {value!r} is not allowed; use a finite number > 0")
    for name, value in (("kl-weight", kl_weight), ("value-weight", value_weight)):
        if not 0 <= value < float("inf"):
            raise typer.BadParameter(f"--{name} {value!r} is not allowed; use a finite number >= 0")
    if os.path.exists(out) and not os.path.isdir(out):
        raise typer.BadParameter(f"--out {out!r} is a file, not a run folder")
    model = model or shipped_model_path(players)
    try:
        net, config = load_policy(model)
    except (OSError, ValueError) as err:
        raise typer.BadParameter(f"--model: {err}") from None
    if config.n_players != players:
        raise typer.BadParameter(f"--model {model!r} plays {config.n_players} players, not --players {players}")
    spec = search.strip()
    if spec.startswith("learned+search"):
        if os.path.isfile(spec.rpartition(":")[2]):
            raise typer.BadParameter(f"--search {search!r} names a model file; give it with --model")
        spec = f"{spec}:{model}"
    try:
        agent = make_agent(spec, game=config.game)
    except ValueError as err:
        raise typer.BadParameter(f"--search: {err}") from None
    if not hasattr(agent, "last_visits"):
        raise typer.BadParameter(f"--search {search!r} is not a search with root visits; use learned+search:"
                                 f"<budget>[:options] or ismcts:<iterations>")
    folder = data or out
    if data is None and glob.glob(os.path.join(out, "shard-*.npz")):
        raise typer.BadParameter(f"--out {out!r} already holds shards; fit on them with --data {out}, or "
                                 f"collect into a new folder")
    t0 = time.perf_counter()
    if data is None:
        os.makedirs(out, exist_ok=True)
        seeds = [int(s.generate_state(1)[0]) for s in np.random.SeedSequence(seed).spawn(workers)]
        jobs = [(model, players, spec, minutes * 60.0, s, os.path.join(out, f"shard-{k}.npz"), 300.0,
                 60.0 if k == 0 else 0.0, decisions) for k, s in enumerate(seeds)]
        print(f"collecting for {minutes:g} min"
              + (f" or {decisions:,} decisions a process" if decisions else "")
              + f", {workers} process{'es' if workers > 1 else ''};\n  in every seat: {spec}", flush=True)
        if workers == 1:
            counts = [_collect_job(jobs[0])]
        else:
            with get_context("spawn").Pool(workers) as pool:
                counts = pool.map(_collect_job, jobs)
        print(f"  {sum(counts):,} decisions in {time.perf_counter() - t0:.0f} s", flush=True)
    shards = sorted(glob.glob(os.path.join(folder, "shard-*.npz")))
    if not shards:
        raise typer.BadParameter(f"no shard-*.npz in {folder!r}")
    try:
        d = concat([load_data(p) for p in shards])
    except SearchDataError as err:
        raise typer.BadParameter(str(err)) from None
    widths = (net.cfg.state_dim, net.cfg.privileged_dim, net.cfg.play_dim + bool(net.cfg.heuristic_prior))
    if (d.game, d.n_players) != (config.game, players) or (d.states.shape[1], d.hidden.shape[1],
                                                            d.plays.shape[1]) != widths:
        raise typer.BadParameter(
            f"the shards in {folder!r} are of {d.game!r} at {d.n_players} players, the model {model!r} of "
            f"{config.game!r} at {players}" + (f"; use --players {d.n_players} or that table's model"
                                               if (d.game, d.n_players) != (config.game, players)
                                               else "; their feature widths differ"))
    print(f"fitting on {len(d):,} decisions from {len(shards)} shards", flush=True)
    t1 = time.perf_counter()
    try:
        net, config, stats = fit(d, model, epochs, lr, minibatch, kl_weight, value_weight, holdout, seed,
                                 sharpen)
    except (ValueError, FloatingPointError) as err:
        raise typer.BadParameter(str(err)) from None
    path = os.path.join(out, "model.pt")
    os.makedirs(out, exist_ok=True)
    source = (f"--data {data}" if data else f"--search {search} --minutes {minutes:g} --decisions {decisions} "
                                           f"--workers {workers}")
    save_policy(net, config, path,
                trained_with=f"train.search_distill --players {players} --model {model} {source} "
                             f"--epochs {epochs} --lr {lr} --minibatch {minibatch} --kl-weight {kl_weight} "
                             f"--value-weight {value_weight} --sharpen {sharpen:g} --holdout {holdout} "
                             f"--seed {seed}")
    summary = {"players": players, "model": model, "search": None if data else search, "data": data,
               "decisions": len(d), "decisions_per_process": decisions, "epochs": epochs, "lr": lr,
               "minibatch": minibatch, "kl_weight": kl_weight,
               "value_weight": value_weight, "sharpen": sharpen, "holdout": holdout, "seed": seed,
               "collect_s": t1 - t0, "fit_s": time.perf_counter() - t1, **stats}
    with open(os.path.join(out, "summary.json"), "w") as f:
        json.dump(summary, f, indent=2, allow_nan=False)
    print(f"wrote {path} (agent spec learned:{path})")


if __name__ == "__main__":
    typer.run(main)
