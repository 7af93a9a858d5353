"""Number settings are finite and in range: ``nan``, ``inf``, negative and absurd values, and
digits that ``str.isdigit`` passes but ``int`` refuses, are each refused with a sentence that
names the setting, never a traceback (#48)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from bot.budget import share
from bot.config import ConfigError, load

FLOATS = ["DECKHAND_AI_DELAY", "DECKHAND_EDIT_GAP", "DECKHAND_TIMER_SCALE", "DECKHAND_GLOBAL_RATE"]
ODD = ["nan", "NaN", "inf", "-inf", "Infinity", "-1", "-0.5", "1e308", "100000", "²"]


@pytest.mark.parametrize("name", FLOATS)
@pytest.mark.parametrize("raw", ODD)
def test_a_float_setting_refuses_what_is_not_a_finite_number_in_range(name: str,
                                                                       raw: str) -> None:
    with pytest.raises(ConfigError) as refused:
        load({"DISCORD_TOKEN": "t", name: raw})
    sentence = str(refused.value)
    assert sentence.startswith(f"{name} must be ") and sentence.endswith(f"not {raw!r}.")


def test_a_timer_scale_of_zero_is_refused_and_reasonable_values_pass() -> None:
    with pytest.raises(ConfigError, match="DECKHAND_TIMER_SCALE must be a scale"):
        load({"DISCORD_TOKEN": "t", "DECKHAND_TIMER_SCALE": "0"})
    settings = load({"DISCORD_TOKEN": "t", "DECKHAND_AI_DELAY": "0", "DECKHAND_EDIT_GAP": "60",
                     "DECKHAND_TIMER_SCALE": "0.5"})
    assert (settings.ai_delay, settings.edit_gap, settings.timer_scale) == (0.0, 60.0, 0.5)


def test_the_global_rate_is_40_by_default_more_than_0_and_a_process_takes_its_shards_share(
) -> None:
    assert load({"DISCORD_TOKEN": "t"}).global_rate == 40.0
    with pytest.raises(ConfigError, match="DECKHAND_GLOBAL_RATE must be a number of requests"):
        load({"DISCORD_TOKEN": "t", "DECKHAND_GLOBAL_RATE": "0"})
    settings = load({"DISCORD_TOKEN": "t", "DECKHAND_GLOBAL_RATE": "48",
                     "DECKHAND_SHARDS": "0-1/8"})
    assert share(settings.global_rate, settings.shard_ids, settings.shard_count) == 12.0
    assert share(48.0, None, None) == 48.0  # one process runs every shard


LONG = "9" * 5000


@pytest.mark.parametrize(("name", "raw"), [
    ("DECKHAND_AI_WORKERS", "²"), ("DECKHAND_AI_WORKERS", LONG), ("DECKHAND_AI_WORKERS", "-1"),
    ("DECKHAND_AI_WORKERS", "100000"), ("DECKHAND_RENDER_WORKERS", "³"),
    ("DECKHAND_RENDER_WORKERS", LONG), ("DECKHAND_DEV_GUILD", "²"),
    ("DECKHAND_DEV_GUILD", LONG), ("DECKHAND_SHARDS", "0/²"), ("DECKHAND_SHARDS", f"0/{LONG}"),
    ("DECKHAND_SHARDS", f"{LONG}/4"), ("DECKHAND_SHARDS", "²/4"),
])
def test_a_whole_number_setting_refuses_odd_digits_with_a_sentence(name: str, raw: str) -> None:
    with pytest.raises(ConfigError) as refused:
        load({"DISCORD_TOKEN": "t", name: raw})
    sentence = str(refused.value)
    assert sentence.startswith(name) and len(sentence) < 300, sentence


@pytest.mark.parametrize(("name", "raw"), [("DISCORD_CLIENT_ID", "²"),
                                           ("DISCORD_CLIENT_ID", LONG),
                                           ("DECKHAND_WEB_PORT", "²"),
                                           ("DECKHAND_WEB_PORT", LONG)])
def test_the_activity_settings_refuse_odd_digits_with_a_sentence(name: str, raw: str) -> None:
    env = {"DISCORD_TOKEN": "t", "DISCORD_CLIENT_ID": "123", "DISCORD_CLIENT_SECRET": "s",
           "DECKHAND_WEB_PORT": "8080", name: raw}
    with pytest.raises(ConfigError) as refused:
        load(env)
    assert str(refused.value).startswith(name) and len(str(refused.value)) < 300


def test_the_bot_stops_on_nan_with_the_sentence_and_no_traceback() -> None:
    env = {**os.environ, "DISCORD_TOKEN": "t", "DECKHAND_AI_DELAY": "nan"}
    done = subprocess.run([sys.executable, "-m", "bot"], env=env, capture_output=True,
                          text=True, timeout=60, check=False)
    assert done.returncode == 2
    assert "DECKHAND_AI_DELAY must be a number of seconds" in done.stderr
    assert "Traceback" not in done.stderr
