"""The self-play reward's weight on the other seats (``SelfPlayConfig.others_weight``, ``--reward-others``)."""

import pytest
from typer.testing import CliRunner

from train.selfplay import SelfPlayConfig, _Rollout, round_reward


def test_round_reward_weights_the_others_mean():
    scores = [12, 4, -2, 6]  # the others' mean for seat 0: 8/3
    assert round_reward(scores, 0, 10.0) == pytest.approx((12 - 8 / 3) / 10)
    assert round_reward(scores, 0, 10.0, others_weight=0.0) == pytest.approx(1.2)
    assert round_reward(scores, 2, 2.0, others_weight=0.5) == pytest.approx((-2 - 0.5 * 22 / 3) / 2)
    # zero-sum at weight 1: the seats' rewards add up to 0
    assert sum(round_reward(scores, s, 10.0) for s in range(4)) == pytest.approx(0.0)


def test_rollout_books_the_weighted_reward_on_each_seats_last_decision():
    out = _Rollout(10.0, others_weight=0.0)
    for seat in (0, 1, 0):
        out.add(0, seat, None, None, None, 0, 0.0, 0.0)
    out.book(0, [7, 3])
    assert out.rewards == [0.0, pytest.approx(0.3), pytest.approx(0.7)]
    assert out.done == [False, True, True]


@pytest.mark.parametrize("bad", [-0.1, 1.5, float("nan"), "x"])
def test_config_refuses_a_weight_outside_0_1(bad):
    with pytest.raises(ValueError, match="others_weight"):
        SelfPlayConfig(others_weight=bad)


def test_cli_names_the_flag_of_a_bad_weight(tmp_path):
    from seers_cli import app

    result = CliRunner().invoke(app, ["train", "--reward-others", "2", "--out", str(tmp_path)])
    assert result.exit_code != 0
    assert "--reward-others" in result.output
    assert not any(tmp_path.iterdir())  # nothing written


def test_cli_refuses_the_flag_for_another_learner(tmp_path):
    from seers_cli import app

    result = CliRunner().invoke(app, ["train", "--algo", "maskable-ppo", "--reward-others", "0.5",
                                      "--out", str(tmp_path)])
    assert result.exit_code != 0
    assert "--reward-others" in result.output
