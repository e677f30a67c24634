"""The Python examples of docs/guide.md's "Haggis and Seals in Python" section run as written."""

from __future__ import annotations

import re
from pathlib import Path

GUIDE = Path(__file__).resolve().parent.parent / "docs" / "guide.md"


def _section_code() -> list[str]:
    text = GUIDE.read_text(encoding="utf-8")
    section = text.split("## Haggis and Seals in Python\n", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```python\n(.*?)```", section, flags=re.S)


def test_the_guides_haggis_and_seals_examples_run(capsys):
    blocks = _section_code()
    assert len(blocks) == 3
    scope: dict = {}
    for code in blocks:  # one after another, as a reader pastes them (the second uses the first's import)
        exec(compile(code, str(GUIDE), "exec"), scope)
    env, game = scope["env"], scope["game"]
    assert env.unwrapped.game.config.n_players == 2 and env.agent_selection == "player_0"
    assert game.game_over and len(game.totals) == 3
    totals, winners = capsys.readouterr().out.strip().rsplit("] [", 1)
    assert totals.strip("[") == ", ".join(map(str, game.totals)) and winners
