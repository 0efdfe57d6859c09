"""What every game promises learning code: sizes and shapes only for the player counts it is played with,
an information state that holds the observation, and a legal mask of exactly that size (the per-game layouts
are tested in each game's test_encoding.py and test_info_state.py)."""

from __future__ import annotations

import pytest

from ghostgames.games import GAMES, get_game


@pytest.mark.parametrize("name", sorted(GAMES))
def test_sizes_and_shapes_exist_only_for_the_player_counts_the_game_allows(name: str) -> None:
    game = get_game(name)
    for players in (game.min_players - 1, game.max_players + 1):
        with pytest.raises(ValueError, match=f"{game.min_players} to {game.max_players} players, not {players}"):
            game.action_count(players)
        with pytest.raises(ValueError, match=f"not {players}"):
            game.observation_shapes(players)
        with pytest.raises(ValueError, match=f"not {players}"):
            game.info_state_shapes(players)
    for players in range(game.min_players, game.max_players + 1):
        state = game.new(players=players, options={}, seed=players)
        assert state.legal_mask(min(state.to_act())).shape == (game.action_count(players),)
        assert {key: array.shape for key, array in state.encode(0).items()} == game.observation_shapes(players)
        info_shapes = game.info_state_shapes(players)
        assert {key: array.shape for key, array in state.encode_info_state(0).items()} == info_shapes
        # the information state holds the observation and adds to it
        assert game.observation_shapes(players).items() < info_shapes.items()
