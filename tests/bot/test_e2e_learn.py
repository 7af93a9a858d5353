"""/learn on the simulated Discord: every tutorial followed to its end, in English and Japanese."""

from __future__ import annotations

import asyncio
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from bot.i18n import t
from bot.tables import Refusal
from cogs import ids
from games import tutorials
from games.core import Action, IllegalAction
from games.tutorials.runner import LEARNER, NEXT
from tests.bot.sim_helpers import World, world
from tests.discord_sim import SimMessage, SimUser
from tests.games.test_tutorials import first_untaught

LOCALES = {"en": "en-US", "ja": "ja"}


def _button(message: SimMessage, label: str) -> dict[str, Any]:
    found = [b for b in message.buttons() if b.get("label") == label]
    assert len(found) == 1, (label, [b.get("label") for b in message.buttons()])
    return found[0]


def _shown(message: SimMessage) -> str:
    assert message.embeds, message
    return str(message.embeds[0].get("description"))


async def _start(w: World, user: SimUser, game: str, lang: str) -> SimMessage:
    r = await w.sim.slash(user, w.channel, "learn", {"game": game}, locale=LOCALES[lang])
    assert r.status == "ok", r
    assert r.ephemeral
    assert r.message is not None
    return r.message


async def _press(w: World, user: SimUser, message: SimMessage, label: str, lang: str) -> Any:
    r = await w.sim.click(user, message, _button(message, label)["custom_id"],
                          locale=LOCALES[lang])
    assert r.status == "ok", r
    return r


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("game", tutorials.ids())
async def test_a_tutorial_is_followed_to_its_end(tmp_path: Path, game: str, lang: str) -> None:
    async with world(tmp_path, people=1) as w:
        alice = w.users[0]
        guide = tutorials.lesson(game, lang)  # the same steps, to know which button teaches
        message = await _start(w, alice, game, lang)
        while not guide.done:
            assert _shown(message) == guide.text()
            if guide.events:
                happened = message.embeds[0]["fields"][0]["value"]
                assert happened.endswith("\n".join(guide.events[-3:]))
            step = guide.current
            assert step is not None
            # the hand as a picture (its playable cards ringed), attached to the same message
            assert message.embeds[0]["image"]["url"] == "attachment://hand.png"
            assert [a["filename"] for a in message.attachments] == ["hand.png"]
            taught = step.do[0] if step.do else Action(NEXT)
            r = await _press(w, alice, message, guide.label(taught), lang)
            assert guide.act(taught).accepted
            assert r.message is not None and r.message.id == message.id  # the same message
            message = r.message
        assert _shown(message) == guide.tutorial.summary(lang)
        assert message.attachments == [] and "image" not in message.embeds[0]
        name = guide.tutorial.rules.title(lang)
        r = await _press(w, alice, message, t("learn-play", lang, game=name), lang)
        await w.sim.settle()
        lobby = w.table_message()  # a real table, opened in the channel as /play opens it
        assert not lobby.ephemeral
        table = w.bot.manager.live_in(int(w.channel.id))
        assert table is not None and table.rules.id == game
        assert lobby.id == str(table.message_id)
        assert w.sim.spec_errors == []


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("game", tutorials.ids())
async def test_wrong_and_illegal_moves_are_answered(tmp_path: Path, game: str, lang: str) -> None:
    """A legal move the step does not teach gets its why, an illegal one the engine's reason,
    and neither moves the lesson (the taught moves after the first refusal still work)."""
    targets = []
    for want_legal in (True, False):
        guide = tutorials.lesson(game, lang)
        wrong = first_untaught(guide, want_legal)
        targets.append((guide.step, want_legal, guide, wrong))
    targets.sort(key=lambda found: found[0])
    async with world(tmp_path, people=1) as w:
        alice = w.users[0]
        message = await _start(w, alice, game, lang)
        walker = tutorials.lesson(game, lang)  # where the real lesson is
        for _, want_legal, guide, wrong in targets:
            while walker.step < guide.step:  # bring the real lesson to that step
                step = walker.current
                assert step is not None
                taught = step.do[0] if step.do else Action(NEXT)
                message = (await _press(w, alice, message, walker.label(taught), lang)).message
                walker.act(taught)
            before = _shown(message)
            r = await _press(w, alice, message, guide.label(wrong), lang)
            step = guide.current
            assert step is not None and step.why is not None
            if want_legal:
                assert r.content == step.why(lang)
            else:
                try:
                    guide.state.clone().apply(LEARNER, wrong)
                except IllegalAction as exc:  # the engine's reason in the learner's language
                    assert r.content == exc.text(lang)
                else:
                    raise AssertionError("the move was legal")
            assert r.ephemeral
            assert _shown(w.sim.message(message.id)) == before  # the lesson did not move
        assert w.sim.spec_errors == []


async def test_stale_and_lost_lessons_are_refused(tmp_path: Path) -> None:
    async with world(tmp_path, people=1) as w:
        alice = w.users[0]
        first = await _start(w, alice, "spar", "en")
        guide = tutorials.lesson("spar", "en")
        step = guide.current
        assert step is not None
        taught = _button(first, guide.label(step.do[0]))["custom_id"]
        # a double click: both carry the first step; the second comes after it has passed
        results = await asyncio.gather(w.sim.click(alice, first, taught),
                                       w.sim.click(alice, first, taught))
        contents = sorted(str(r.content) for r in results if r.ephemeral and r.content)
        assert [r.status for r in results] == ["ok", "ok"]
        assert contents == [t("learn-stale", "en")], contents
        guide.act(step.do[0])
        assert _shown(w.sim.message(first.id)) == guide.text()  # moved once
        await w.restart()
        current = w.sim.message(first.id)
        lost = await w.sim.click(alice, current, current.buttons()[0]["custom_id"])
        assert lost.status == "ok" and lost.content == t("learn-gone", "en")
        assert w.sim.spec_errors == []


async def test_learn_goes_by_dm_for_those_who_chose_dms(tmp_path: Path) -> None:
    async with world(tmp_path, people=1) as w:
        alice = w.users[0]
        r = await w.sim.slash(alice, w.channel, "settings dm", {"enabled": True})
        assert r.status == "ok"
        r = await w.sim.slash(alice, w.channel, "learn", {"game": "spar"})
        assert r.status == "ok" and r.content == t("learn-in-dm", "en")
        dms = w.sim.dms(alice)
        assert dms and _shown(dms[-1]) == tutorials.lesson("spar", "en").text()
        guide = tutorials.lesson("spar", "en")
        step = guide.current
        assert step is not None
        r = await w.sim.dm_click(alice, dms[-1],
                                 _button(dms[-1], guide.label(step.do[0]))["custom_id"])
        assert r.status == "ok"
        guide.act(step.do[0])
        message = w.sim.message(dms[-1].id)
        assert _shown(message) == guide.text()
        while not guide.done:  # to the end, in the DM
            step = guide.current
            assert step is not None
            taught = step.do[0] if step.do else Action(NEXT)
            r = await w.sim.dm_click(alice, message,
                                     _button(message, guide.label(taught))["custom_id"])
            assert r.status == "ok"
            guide.act(taught)
            message = w.sim.message(message.id)
        assert _shown(message) == guide.tutorial.summary("en")
        assert message.buttons() == []  # no table opens in a DM: the lesson says where
        assert message.embeds[0]["footer"]["text"] == t("learn-play-in-server", "en")
        assert w.sim.spec_errors == []


async def test_another_persons_click_is_refused(tmp_path: Path) -> None:
    """Discord shows a lesson only to its learner; a click naming it from anyone else (a forged
    id) is refused before anything moves."""
    async with world(tmp_path, people=2) as w:
        alice, bob = w.users
        message = await _start(w, alice, "spar", "en")
        cog = w.bot.get_cog("LearnCog")
        assert cog is not None
        found = ids.parse(message.buttons()[0]["custom_id"])
        assert found is not None
        forged = SimpleNamespace(user=SimpleNamespace(id=int(bob.id)))
        with pytest.raises(Refusal) as refused:
            await cog._click(forged, found)  # type: ignore[attr-defined]
        assert refused.value.key == "learn-not-yours"
        assert _shown(w.sim.message(message.id)) == tutorials.lesson("spar", "en").text()
