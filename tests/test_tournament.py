"""Duplicate-format tournament: seat rotation, seeding, statistics, JSON and the ``seers eval`` command."""

import math

import pytest
from typer.testing import CliRunner

from agents.base import Agent
from agents.tournament import (TournamentResult, agent_labels, deal_seeds, mean_ci, run_tournament,
                               seat_order, wilson_interval)
from seers_cli import app


def test_seat_rotation_puts_every_agent_in_every_seat_once_per_deal():
    for n in (2, 3, 4, 5):
        orders = [seat_order(n, r) for r in range(n)]
        for seat in range(n):
            assert sorted(o[seat] for o in orders) == list(range(n))
        for o in orders:
            assert sorted(o) == list(range(n))


def test_labels_distinguish_repeated_specs():
    assert agent_labels(["random", "greedy", "random", "random"]) == ["random", "greedy", "random#2", "random#3"]


def test_deal_seeds_are_seeded_and_prefix_stable():
    assert deal_seeds(3, 5) == deal_seeds(3, 5)
    assert deal_seeds(3, 5)[:2] == deal_seeds(3, 2)
    assert deal_seeds(3, 5) != deal_seeds(4, 5)
    assert len(set(deal_seeds(0, 50))) == 50


def test_tournament_plays_each_deal_in_every_rotation():
    r = run_tournament(["random", "greedy", "heuristic"], games=2, seed=1, workers=1, n_rounds=1, progress=False)
    assert len(r.games) == 6
    for deal in range(2):
        games = [g for g in r.games if g["deal"] == deal]
        assert [g["rotation"] for g in games] == [0, 1, 2]
        for seat in range(3):
            assert sorted(g["seats"][seat] for g in games) == ["greedy", "heuristic", "random"]
        # the same deal (one game seed, which fixes every round's cards) in every rotation
        assert {g["deal_seed"] for g in games} == {deal_seeds(1, 2)[deal]}
    # totals are consistent with the round scores; stats see every game
    for g in r.games:
        assert g["totals"] == [sum(rs[s] for rs in g["round_scores"]) for s in range(3)]
    assert all(s.games == 6 for s in r.agents.values())


def test_same_seed_same_results_whatever_the_workers():
    kwargs = dict(games=3, seed=5, n_rounds=1, progress=False)
    a = run_tournament(["random", "greedy"], workers=1, **kwargs).to_dict()
    b = run_tournament(["random", "greedy"], workers=2, **kwargs).to_dict()
    assert set(a.pop("cpu_ms_per_choice")) == set(b.pop("cpu_ms_per_choice")) == {"random", "greedy"}
    assert a == b  # everything but the CPU times
    c = run_tournament(["random", "greedy"], workers=1, games=3, seed=6, n_rounds=1, progress=False).to_dict()
    assert c["games"] != a["games"]


def test_stats_and_json_round_trip(tmp_path):
    r = run_tournament(["heuristic", "random"], games=4, seed=2, workers=1, n_rounds=2, progress=False)
    h = r.agents["heuristic"]
    per_deal = {}
    for g in r.games:
        per_deal.setdefault(g["deal"], []).append(g["totals"][g["seats"].index("heuristic")])
    means = [sum(v) / len(v) for v in per_deal.values()]
    assert h.mean_score == pytest.approx(sum(means) / len(means))
    assert h.score_ci[0] <= h.mean_score <= h.score_ci[1]
    assert h.mean_round_score == pytest.approx(h.mean_score / 2)
    wins = sum(1 / len(g["winners"]) for g in r.games if g["seats"].index("heuristic") in g["winners"])
    assert h.win_rate == pytest.approx(wins / 8)
    assert r.agents["heuristic"].win_rate + r.agents["random"].win_rate == pytest.approx(1.0)
    path = tmp_path / "r.json"
    r.to_json(path)
    back = TournamentResult.from_json(path)
    assert back.to_dict() == r.to_dict()
    assert back.agents["random"].win_ci == r.agents["random"].win_ci
    r.table()  # builds


def test_wilson_and_mean_intervals():
    lo, hi = wilson_interval(50, 100)  # textbook value: [0.4038, 0.5962]
    assert lo == pytest.approx(0.4038, abs=1e-4) and hi == pytest.approx(0.5962, abs=1e-4)
    lo, hi = wilson_interval(0, 10)  # [0, 0.2775]
    assert lo == 0.0 and hi == pytest.approx(0.2775, abs=1e-4)
    m, (lo, hi) = mean_ci([1.0, 2.0, 3.0, 4.0])
    assert m == 2.5 and hi - m == pytest.approx(1.959964 * math.sqrt(5 / 3) / 2, rel=1e-5)


def test_bad_arguments_raise_and_run_nothing():
    with pytest.raises(ValueError, match="one agent per seat"):
        run_tournament(["random"], games=1, progress=False)
    with pytest.raises(ValueError, match="one agent per seat"):
        run_tournament(["random", "random"], games=1, n_players=3, progress=False)
    with pytest.raises(ValueError, match="games=0"):
        run_tournament(["random", "random"], games=0, progress=False)
    with pytest.raises(ValueError, match="valid specs"):
        run_tournament(["random", "nobody"], games=1, progress=False)


def test_seers_eval_command(tmp_path):
    out = tmp_path / "eval.json"
    args = ["eval", "--agents", "greedy,random", "--games", "2", "--rounds", "1", "--workers", "1",
            "--no-progress", "--seed", "3", "--out", str(out)]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "greedy" in result.output and out.exists()
    assert "CPU time per decision with a choice, in ms (process time, not wall time" in result.output
    first = TournamentResult.from_json(out).to_dict()
    assert set(first.pop("cpu_ms_per_choice")) == {"greedy", "random"}
    assert CliRunner().invoke(app, args).exit_code == 0
    again = TournamentResult.from_json(out).to_dict()
    again.pop("cpu_ms_per_choice")  # the one machine-dependent field
    assert again == first
    bad = CliRunner().invoke(app, ["eval", "--agents", "greedy,nobody", "--games", "1", "--no-progress"])
    assert bad.exit_code != 0 and "nobody" in bad.output


class _LowestSingle(Agent):
    """A user-written agent: always the first legal play."""

    name = "lowest"

    def act(self, view):
        return view.legal_plays()[0]


def test_agent_instances_play_in_a_tournament_and_are_labelled_by_name():
    result = run_tournament([_LowestSingle(), "random"], games=2, seed=3, workers=1, n_rounds=1,
                            progress=False)
    assert set(result.agents) == {"lowest", "random"}
    assert result.agents["lowest"].games == 4
    again = run_tournament([_LowestSingle(), "random"], games=2, seed=3, workers=1, n_rounds=1,
                           progress=False)
    assert result.cpu_ms_per_choice["lowest"] >= 0.0 and result.cpu_ms_per_choice["random"] >= 0.0
    result.cpu_ms_per_choice.clear()  # the one machine-dependent field
    again.cpu_ms_per_choice.clear()
    assert result.to_dict() == again.to_dict()


def test_missing_ppo_model_is_rejected_before_any_game(tmp_path):
    with pytest.raises(ValueError, match="no trained model"):
        run_tournament([f"ppo:{tmp_path / 'absent.zip'}", "random"], games=1, progress=False)


def test_t975_matches_known_quantiles():
    from agents.tournament import t975

    assert t975(1) == pytest.approx(12.7062, abs=1e-4)
    assert t975(30) == pytest.approx(2.0423, abs=1e-4)
    assert t975(31) == pytest.approx(2.0395, abs=1e-4)  # expansion branch
    assert t975(120) == pytest.approx(1.9799, abs=1e-4)
    assert t975(10**6) == pytest.approx(1.95997, abs=1e-4)
    with pytest.raises(ValueError, match="df"):
        t975(0)


def test_paired_differences_by_hand():
    from agents.tournament import paired_differences, t975

    r = run_tournament(["heuristic", "random", "greedy"], games=5, seed=3, workers=1, n_rounds=1, progress=False)
    p = paired_differences(r, "heuristic")
    assert p["baseline"] == "heuristic" and p["deals"] == 5 and set(p["agents"]) == {"random", "greedy"}
    diffs = []
    for deal in range(5):
        games = [g for g in r.games if g["deal"] == deal]

        def mean(label):
            return sum(g["totals"][g["seats"].index(label)] for g in games) / len(games)
        diffs.append(mean("random") - mean("heuristic"))
    m = sum(diffs) / 5
    sd = math.sqrt(sum((d - m) ** 2 for d in diffs) / 4)
    got = p["agents"]["random"]
    assert got["mean_diff"] == pytest.approx(m)
    assert got["ci"] == pytest.approx([m - t975(4) * sd / math.sqrt(5), m + t975(4) * sd / math.sqrt(5)])
    expected = "better" if got["ci"][0] > 0 else "worse" if got["ci"][1] < 0 else "tie"
    assert got["verdict"] == expected
    # plain data: survives strict JSON; works from the dict form too
    import json
    assert json.loads(json.dumps(p, allow_nan=False)) == p
    assert paired_differences(r.to_dict(), "heuristic") == p
    with pytest.raises(ValueError, match="not one of"):
        paired_differences(r, "ismcts")


def test_identical_agents_tie_and_one_deal_has_no_interval():
    from agents.tournament import paired_differences

    r = run_tournament(["greedy", "greedy"], games=6, seed=0, workers=1, n_rounds=1, progress=False)
    p = paired_differences(r, "greedy")["agents"]["greedy#2"]
    # a deterministic agent against itself: the rotations swap the seats, each deal's difference is 0
    assert p["mean_diff"] == 0 and p["ci"] == [0, 0] and p["verdict"] == "tie"
    one = run_tournament(["greedy", "random"], games=1, seed=0, workers=1, n_rounds=1, progress=False)
    q = paired_differences(one, "greedy")["agents"]["random"]
    assert q["ci"] is None and q["verdict"] == "tie"


def test_short_labels_keep_short_ones_and_number_long_ones():
    from agents.tournament import short_labels

    long = "ppo:runs/20261130-120000-4p/model.zip"
    names = short_labels(["heuristic", long, long + "#2", "ppo-1"])
    assert names["heuristic"] == "heuristic" and names["ppo-1"] == "ppo-1"
    assert names[long] == "ppo-2" and names[long + "#2"] == "ppo-2#2"
    assert len(set(names.values())) == 4


def test_short_labels_name_a_model_by_its_run_and_a_search_by_its_kind():
    from agents.tournament import short_labels

    run = "learned:runs/seers4p_exit/model.pt"
    search = "learned+search:500:worlds=64:opponents=mixture:leaf=mixed"
    names = short_labels([run, "learned", "learned#2", run + "#2", search, "learned:/tmp/my_model_v3.pt"])
    assert names[run] == "seers4p_exit" and names[run + "#2"] == "seers4p_exit#2"
    assert names["learned#2"] == "learned#2" and names[search] == "search-1"
    assert names["learned:/tmp/my_model_v3.pt"] == "my_model_v3"
    taken = short_labels(["seers4p_exit", run, run + "#2"])  # a run name in use: a number, its copy after it
    assert taken[run] == "learned-1" and taken[run + "#2"] == "learned-1#2"


@pytest.mark.parametrize("labels", [
    ["learned+search:0.01s", "learned+search:0.01s#2", "ismcts:100000.5s"],  # a budget is no file
    ["learned:runs/exp:v2/model.pt", "learned:runs/2026-12-07T10:00/model.pt"],  # a colon in the path
    ["learned:./model.pt", "learned:../model.pt", "learned:model.pt"],  # no run folder
    ["learned:runs/a/seers4p_exit/model.pt", "learned:runs/b/seers4p_exit/model.pt"],  # one name, two runs
    ["learned:runs/learned/model.pt", "learned:runs/heuristic/model.pt"],  # names of other agents
    ["learned+search:200:runs/seers4p_exit/model.pt", "learned:runs/elsewhere/seers4p_exit.pt"],
    ["learned:runs/abcdefghijklm/model.pt", "learned:runs/abcdefghijklm/model.pt#2"],  # its copy would not fit
])
def test_short_labels_fall_back_to_kind_and_number(labels):
    from agents.tournament import short_labels

    names = short_labels(labels)
    assert len(set(names.values())) == len(labels) and all(len(x) <= 14 for x in names.values())
    for label in labels:
        kind = label.split(":", 1)[0].rsplit("+", 1)[-1]
        if label.startswith("learned:runs/elsewhere"):
            assert names[label] == "seers4p_exit"  # the search never takes a run name
        else:
            assert names[label].split("#")[0].startswith(kind + "-"), (label, names[label])


def test_short_labels_copies_follow_their_original_and_labels_stay_distinct():
    from agents.tournament import agent_labels, short_labels

    names = short_labels(agent_labels(["learned:abc.pt"] * 3))  # short, but its copies are long
    assert list(names.values()) == ["abc", "abc#2", "abc#3"]
    run = "learned:runs/seers4p_exit/model.pt"
    names = short_labels([run, run + "#2", "seers4p_exit#2"])  # the copy's name is taken
    assert names[run] == "learned-1" and names[run + "#2"] == "learned-1#2"
    names = short_labels(["ppo:runs/search-1/model.pt", "learned+search:200:runs/x/model.pt"])
    assert set(names.values()) == {"ppo-1", "search-1"}  # a run named like a generated name is not used
    names = short_labels(["some_long_agent_instance_name", "some_long_agent_instance_name#2"])
    assert names["some_long_agent_instance_name#2"] == names["some_long_agent_instance_name"] + "#2"
    assert all(len(x) <= 14 for x in names.values())
    labels = agent_labels(["learned:a#2", "learned:a", "learned:a"])  # a spec that ends in "#2"
    assert len(set(labels)) == 3


def test_markdown_caption_leaves_no_word_alone_on_its_last_line():
    from agents.tournament import markdown_table

    text = "x" * 70 + " holds 0"  # wraps after "holds" at 76 columns
    legend = "learned-1 = learned:runs/" + "a" * 60 + "/model.pt"  # a label textwrap has to cut
    cells = {"title": "t", "headers": ["agent"], "rows": [["a"]], "legend": [legend], "caption": [text]}
    lines = markdown_table(cells, width=76).splitlines()
    assert lines[-2] == "x" * 70 and lines[-1] == "  holds 0"
    assert all(len(x) <= 76 for x in lines)
    assert lines[-4] + lines[-3].strip() == legend  # the pieces of a cut label are not joined by a space


def test_eval_table_fits_80_columns_and_baseline_json(tmp_path):
    out = tmp_path / "r.json"
    res = CliRunner().invoke(app, ["eval", "--agents", "heuristic,greedy,random,random", "--games", "3",
                                   "--workers", "1", "--rounds", "1", "--baseline", "heuristic",
                                   "--out", str(out)], env={"COLUMNS": "80"})
    assert res.exit_code == 0, res.output
    lines = [x for x in res.output.splitlines() if not x.startswith("results written to")]
    assert max(len(x) for x in lines) <= 80
    assert any(x.startswith("| agent") and "vs heuristic" in x for x in lines)  # Markdown when not a terminal
    assert any(x.startswith("tournament: 3/3 deals") for x in lines)  # a plain progress line
    import json
    data = json.loads(out.read_text())
    assert data["paired"]["baseline"] == "heuristic" and set(data["paired"]["agents"]) == {"greedy", "random",
                                                                                        "random#2"}
    bad = CliRunner().invoke(app, ["eval", "--agents", "greedy,random", "--baseline", "heuristic"])
    assert bad.exit_code != 0 and "--baseline" in bad.output


def test_text_table_never_cuts_long_labels_or_numbers():
    r = run_tournament(["heuristic", "random"], games=2, seed=0, workers=1, n_rounds=1, progress=False)
    r.labels = ["heuristic", "ppo:runs/a-very-long-run-name/model.zip"]
    s = r.agents.pop("random")
    s.label = r.labels[1]
    r.agents[s.label] = s
    text = r.text()
    assert "ppo-1 = ppo:runs/a-very-long-run-name/model.zip" in text
    assert f"{s.mean_score:.2f}" in text
    assert max(len(x) for x in text.splitlines()) <= 80


def test_seat_differences_of_the_baseline_itself_are_zero():
    from agents.tournament import run_tournament, seat_differences

    result = run_tournament(["heuristic", "random", "heuristic"], games=3, seed=2, workers=1, progress=False)
    same = run_tournament(["heuristic"] * 3, games=3, seed=2, workers=1, progress=False)
    d = seat_differences(same, "heuristic", workers=1)
    assert all(abs(v["mean_diff"]) < 1e-9 for v in d["agents"].values())  # the same table, the same scores
    d = seat_differences(result, "heuristic", workers=1)
    assert d["deals"] == 3 and d["agents"]["random"]["mean_diff"] < 0


def test_copies_of_one_spec_share_a_pooled_cpu_figure_shown_once():
    from agents.tournament import decision_time_line, summarize

    records = [{"deal": 0, "rotation": 0, "deal_seed": 1, "agents": [0, 1, 2], "totals": [1, 2, 3],
                "round_scores": [[1, 2, 3]], "winners": [2], "choice_cpu_s": [0.003, 0.001, 0.5],
                "choices": [1, 3, 1]}]
    result = summarize(["heuristic", "heuristic", "ismcts:0.1s"], records, n_rounds=1, deals=1, seed=0)
    times = result.cpu_ms_per_choice
    assert times["heuristic"] == times["heuristic#2"] == pytest.approx(1.0)  # (3 + 1) ms / 4 decisions
    line = decision_time_line(result)
    assert line.endswith("heuristic x2 1") and "heuristic#2" not in line and "ismcts:0.1s 500" in line
    assert "CPU time" in line and "not wall time" in line
    assert all(len(x) <= 80 for x in line.splitlines())


def test_seat_difference_lines_use_the_tables_short_names():
    from agents.tournament import TournamentResult, seat_difference_lines

    long = "learned:runs/quick/some_long_run_name/model.pt"
    result = TournamentResult([long, "heuristic"], [long, "heuristic"], 2, 1, 2, 0, {}, [])
    seat = {"baseline_table": "heuristic", "deals": 2,
            "agents": {long: {"mean_diff": 2.78, "ci": (1.0, 4.5), "verdict": "better"},
                       "heuristic": {"mean_diff": 0.0, "ci": None, "verdict": "tie"}}}
    text = seat_difference_lines(result, seat)
    assert " ".join(text.split()).startswith("Each agent minus heuristic in the same seats of the same 2 deals")
    lines = text.splitlines()[-3:]  # the end of the title, then one line per agent
    assert lines[1].split() == ["learned-1", "+2.78", "[+1.00,", "+4.50]", "better"]
    assert lines[2].split() == ["heuristic", "+0.00", "n/a", "tie"]
    assert lines[1].index("+2.78") == lines[2].index("+0.00")  # aligned columns
    assert all(len(x) <= 80 for x in lines)


def test_terminal_bar_shows_no_eta_until_a_rate_is_known(monkeypatch):
    """The live bar's ETA is the plain lines' (seers_env.progress.EtaEstimate): "--" while the deals
    done span less than its minimum time, not rich's guess from the first two deals."""
    import rich.progress

    import agents.tournament as tournament

    shown = []
    update = rich.progress.Progress.update

    def record(self, task_id, **fields):
        shown.append(fields.get("eta"))
        return update(self, task_id, **fields)

    monkeypatch.setattr(tournament, "is_terminal", lambda: True)
    monkeypatch.setattr(rich.progress.Progress, "update", record)
    tournament.run_tournament(["random", "random"], games=3, seed=0, workers=1, n_rounds=1, progress=True)
    assert shown == ["--", "--", "0:00"]  # three quick deals: no rate yet, then done
