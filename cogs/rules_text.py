"""The answer to ``/rules``: a game's summary, every option with its default, where the full
rule book page is, and a picture of a typical position with the rule it shows."""

from __future__ import annotations

import io
from typing import Any

import discord

from bot.i18n import t
from bot.pictures import rules_pictures
from cogs.views import option_value_text
from games.core import Option, Rules

#: Discord's limit for an embed's description is 4096 characters; stay under it
DESCRIPTION_LIMIT = 4000


def rulebook_page(game_id: str, lang: str = "en") -> str:
    """The game's page of the rule book in that language, as a path inside the repository."""
    return f"docs/rules/ja/{game_id}.md" if lang == "ja" else f"docs/rules/{game_id}.md"


def default_text(rules: Rules, option: Option, lang: str) -> str:
    """An option's default as a player reads it: the game's own words where its default depends
    on something (Spar's target, Sugekari's mode), else the value in the bot's words (on/off,
    a random seat) as the Options menu shows it."""
    own = rules.default_text(option, lang)
    if own != Rules.default_text(rules, option, lang):
        return own
    if option.default is None and option.kind != "seat":
        return t("rules-option-own", lang)
    return option_value_text(option.default, lang)


def allowed_text(option: Option, lang: str) -> str:
    """The values an option takes: its choices, a range of numbers, on/off or a seat."""
    if option.kind == "choice":
        return " | ".join(option.choices)
    if option.kind == "bool":
        return f"{t('on', lang)} | {t('off', lang)}"
    if option.kind == "seat":
        return t("rules-option-seat", lang)
    low = "" if option.minimum is None else str(option.minimum)
    high = "" if option.maximum is None else str(option.maximum)
    return f"{low}–{high}"


def option_lines(rules: Rules, lang: str) -> list[str]:
    """One line per option: ``name`` = default (values): what it does."""
    lines = []
    for option in rules.options:
        help_text = rules.option_help(option, lang)
        lines.append(t("rules-option-line", lang, name=option.name,
                       default=default_text(rules, option, lang),
                       values=allowed_text(option, lang),
                       help=help_text))
    return lines


def rules_embed(rules: Rules, lang: str) -> discord.Embed:
    """The ``/rules`` answer: the summary, the options, and the rule book page in the footer."""
    name = rules.title(lang)
    summary = rules.summary(lang).strip() or "-"
    text = summary
    lines = option_lines(rules, lang)
    if lines:
        text += "\n\n" + t("rules-options", lang) + "\n" + "\n".join(lines)
    embed = discord.Embed(title=t("rules-title", lang, name=name),
                          description=text[:DESCRIPTION_LIMIT])
    embed.set_footer(text=t("rules-book", lang, page=rulebook_page(rules.id, lang)))
    return embed


def picture_file(game_id: str) -> str:
    """The attachment's file name of a game's picture."""
    return f"rules-{game_id}.png"


async def rules_answer(rules: Rules, lang: str) -> dict[str, Any]:
    """The ``/rules`` message's parts: the embed, with the game's picture attached and shown in
    it under its caption when the game has one."""
    embed = rules_embed(rules, lang)
    picture = await rules_pictures.picture(rules.id, lang)
    if picture is None:
        return {"embed": embed}
    said = rules_pictures.caption(rules.id, lang)
    name = picture_file(rules.id)
    embed.add_field(name=t("rules-picture", lang), value=said, inline=False)
    embed.set_image(url=f"attachment://{name}")
    return {"embed": embed,
            "files": [discord.File(io.BytesIO(picture), filename=name, description=said)]}
