"""Expert iteration (train.search_distill): the search's visit counts recorded, read back safely, fitted."""

import os

import numpy as np
import pytest

from train.scoring_policy import load_policy, shipped_model_path
from train.search_distill import SearchData, SearchDataError, collect, concat, fit, load_data, save_data

ITERATIONS = 6


@pytest.fixture(scope="module")
def shards(tmp_path_factory):
    folder = tmp_path_factory.mktemp("exit")
    model = shipped_model_path(4)
    paths = []
    for name in ("a", "b"):
        path = str(folder / f"shard-{name}.npz")
        collect(model, 4, f"learned+search:{ITERATIONS}:{model}", 600.0, seed=5, shard=path,
                max_decisions=40 if name == "a" else 30)
        paths.append(path)
    return [load_data(p) for p in paths]


def test_each_decision_keeps_the_search_root_visits_and_its_choice(shards):
    d = shards[0]
    assert len(d) > 5
    sizes = np.diff(d.offsets)
    assert np.all(sizes >= 2)  # only decisions with a choice
    totals = np.add.reduceat(d.visits, d.offsets[:-1])
    assert np.all(totals == ITERATIONS)  # every iteration passes through one root edge
    most = np.maximum.reduceat(d.visits, d.offsets[:-1])
    assert np.all(d.visits[d.offsets[:-1] + d.chosen] == most)  # the search plays its most visited play
    assert d.states.shape[0] == d.hidden.shape[0] == len(d) and d.plays.shape[0] == d.offsets[-1]


def test_the_same_seed_records_the_same_decisions(shards):
    a, b = shards  # budgets of 40 and 30 decisions: the first 30 are the same play
    assert (len(a), len(b)) == (40, 30)
    n = 30
    rows = int(a.offsets[n])
    assert np.array_equal(a.states[:n], b.states[:n]) and np.array_equal(a.chosen[:n], b.chosen[:n])
    assert np.array_equal(a.visits[:rows], b.visits[:rows]) and np.array_equal(a.plays[:rows], b.plays[:rows])


def test_a_hostile_or_damaged_shard_is_refused_by_name(tmp_path, shards):
    pickled = tmp_path / "pickled.npz"
    np.savez(pickled, states=np.array([object()], dtype=object))
    with pytest.raises(SearchDataError, match="pickled.npz"):
        load_data(str(pickled))
    d = shards[0]
    bad = SearchData(d.states, d.hidden, d.plays, d.offsets, d.visits, d.chosen + 1000)
    path = str(tmp_path / "bad.npz")
    save_data(bad, path)
    with pytest.raises(SearchDataError, match="offsets do not make decisions"):
        load_data(path)
    with pytest.raises(SearchDataError, match="not a readable"):
        (tmp_path / "text.npz").write_text("not numpy")
        load_data(str(tmp_path / "text.npz"))
    nan = SearchData(d.states, d.hidden, d.plays, d.offsets, np.where(d.visits > 0, np.nan, d.visits).astype(
        np.float32), d.chosen, d.game, d.n_players)
    save_data(nan, path)
    with pytest.raises(SearchDataError, match="NaN"):
        load_data(path)
    wide = SearchData(d.states.astype(np.float64), d.hidden, d.plays, d.offsets, d.visits, d.chosen, d.game,
                      d.n_players)
    save_data(wide, path)
    with pytest.raises(SearchDataError, match="dtype of states"):
        load_data(path)


def test_a_shard_is_written_whole_under_a_name_the_fit_never_reads_half_written(tmp_path, shards):
    path = str(tmp_path / "shard-0.npz")
    save_data(shards[0], path)
    assert sorted(os.listdir(tmp_path)) == ["shard-0.npz"]
    back = load_data(path)
    assert (back.game, back.n_players) == ("seers_catalog", 4)
    assert np.array_equal(back.visits, shards[0].visits) and np.array_equal(back.offsets, shards[0].offsets)


def test_fitting_moves_the_policy_toward_the_visits_and_keeps_the_values(shards):
    import torch

    data = concat(shards)
    model = shipped_model_path(4)
    net, config, stats = fit(data, model, epochs=3, lr=3e-3, minibatch=16, kl_weight=0.0, value_weight=10.0,
                             holdout=0.3, seed=1, log=lambda *_: None)
    assert stats["holdout_after"]["soft_ce"] <= stats["holdout_before"]["soft_ce"]
    ref, ref_config = load_policy(model)
    assert config == ref_config
    if stats["best_epoch"] > 0:  # a fitted net: closer to the search on the decisions it trained on
        assert stats["train_after"]["soft_ce"] < stats["train_before"]["soft_ce"]
    states, hidden = torch.from_numpy(data.states), torch.from_numpy(data.hidden)
    rows = torch.from_numpy(data.plays)
    seg = torch.from_numpy(np.repeat(np.arange(len(data)), np.diff(data.offsets)))
    with torch.no_grad():
        _, v_new = net(states, rows, seg, hidden)
        _, v_ref = ref(states, rows, seg, hidden)
    assert float((v_new - v_ref).abs().mean()) < 0.1  # the value anchor (values in points / 10)
    assert all(p is not q for p, q in zip(net.parameters(), ref.parameters()))  # its own weights


def test_few_decisions_a_large_holdout_and_a_large_sharpen_fit_or_are_refused(shards):
    d = shards[0]
    two = SearchData(d.states[:2], d.hidden[:2], d.plays[:d.offsets[2]], d.offsets[:3], d.visits[:d.offsets[2]],
                     d.chosen[:2], d.game, d.n_players)
    model = shipped_model_path(4)
    _, _, stats = fit(two, model, epochs=1, lr=1e-4, minibatch=8, kl_weight=0.5, value_weight=1.0,
                      holdout=0.999, seed=0, sharpen=1000.0, log=lambda *_: None)
    assert stats["train_decisions"] == 1 and stats["holdout_decisions"] == 1
    assert np.isfinite(stats["holdout_after"]["soft_ce"])
    one = SearchData(d.states[:1], d.hidden[:1], d.plays[:d.offsets[1]], d.offsets[:2], d.visits[:d.offsets[1]],
                     d.chosen[:1], d.game, d.n_players)
    with pytest.raises(ValueError, match="at least 2"):
        fit(one, model, epochs=1, lr=1e-4, minibatch=8, kl_weight=0.5, value_weight=1.0, holdout=0.5, seed=0)


def test_shards_of_another_table_or_a_used_folder_are_refused(tmp_path, shards):
    from typer.testing import CliRunner
    import typer

    from train.search_distill import main

    app = typer.Typer()
    app.command()(main)
    d = shards[0]
    folder = tmp_path / "three"
    folder.mkdir()
    save_data(SearchData(d.states, d.hidden, d.plays, d.offsets, d.visits, d.chosen, d.game, 3),
              str(folder / "shard-0.npz"))
    result = CliRunner().invoke(app, ["--data", str(folder), "--players", "4", "--out", str(tmp_path / "fit")])
    assert result.exit_code == 2 and "at 3 players" in result.output, result.output
    assert not (tmp_path / "fit").exists()
    result = CliRunner().invoke(app, ["--out", str(folder), "--minutes", "0.01"])
    assert result.exit_code == 2 and "already holds shards" in result.output, result.output
    assert sorted(os.listdir(folder)) == ["shard-0.npz"]


def test_bad_flags_are_refused_before_any_work(tmp_path):
    from typer.testing import CliRunner
    import typer

    from train.search_distill import main

    app = typer.Typer()
    app.command()(main)
    out = tmp_path / "run"
    for flags in (["--holdout", "1.5"], ["--minutes", "0"], ["--kl-weight", "-1"], ["--players", "7"],
                  ["--players", "3", "--model", shipped_model_path(4)], ["--search", "heuristic"],
                  ["--search", "learned"], ["--model", "/nonexistent.pt"], ["--seed", "-1"]):
        result = CliRunner().invoke(app, [*flags, "--out", str(out)])
        assert result.exit_code == 2, (flags, result.output)
        assert not os.path.exists(out)
