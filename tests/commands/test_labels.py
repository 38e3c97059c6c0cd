"""Every game declares a label for people beside each of its actions, and each of its commands is a
registered record with a label."""

from __future__ import annotations

from controller.commands.registry import by_name
from controller.games.catalog import find_game, game_names


def test_every_action_and_command_of_every_game_has_a_label() -> None:
    for name in game_names():
        game = find_game(name).game_type
        labels = dict(game.action_labels)
        assert set(game.actions) <= set(labels), name
        assert all(label.strip() and label[0].isupper() for label in labels.values()), labels
        for command in game.commands:
            record = by_name(command)
            assert record is not None and record.label.strip(), f"{name}: {command}"
    assert dict(find_game("blackjack-extreme").game_type.action_labels)["turn_up"] == "Turn up card 1 or 2"
    assert by_name("confirm_progressive").label == "Confirm jackpot"
