"""The terminal hands the move a person types to the service as it is (issue #49, item 3): a
line that names no card is answered with the service's real reason, in the reader's language,
and the game goes on."""

from __future__ import annotations

from pathlib import Path

import pytest

from games import wording
from tests.bot.test_terminal import ALWAYS_FIRST, PROMPT, play


@pytest.mark.parametrize("lang", ["en", "ja"])
async def test_a_typed_move_of_no_card_gets_the_services_reason(tmp_path: Path,
                                                                 lang: str) -> None:
    status, transcript, _ = await play(tmp_path, "spar", "play:ZZ\n" + ALWAYS_FIRST,
                                       lang=lang)
    assert status == 0
    lines = transcript.splitlines()
    asked = lines.index(PROMPT[lang] + "play:ZZ")
    reason = wording.msg("move-not-a-card", code="ZZ").text(lang)
    assert lines[asked + 1] == wording.text("illegal", lang, reason=reason)
