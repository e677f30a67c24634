from seers_env import Game, GameConfig


def test_random_game_terminates_and_scores():
    game = Game(GameConfig(n_players=4), seed=3)
    steps = 0
    while not game.game_over:
        game.apply(game.legal_plays()[-1])
        steps += 1
    assert len(game.round_scores) == 4
    assert game.winners()
