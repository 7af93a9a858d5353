"""Interactions as the simulated Discord builds them, and what a test sees of their outcome."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .models import (
    BUTTON,
    LABEL,
    SELECT_TYPES,
    STRING_SELECT,
    TEXT_INPUT,
    USER_SELECT,
    CapturedRequest,
    SimChannel,
    SimMessage,
    SimModal,
    SimUser,
    walk_components,
)

if TYPE_CHECKING:
    from .server import SimulatedDiscord

# Interaction types.
APPLICATION_COMMAND = 2
MESSAGE_COMPONENT = 3
AUTOCOMPLETE = 4
MODAL_SUBMIT = 5

# Callback types.
CHANNEL_MESSAGE = 4
DEFERRED_CHANNEL_MESSAGE = 5
DEFERRED_UPDATE_MESSAGE = 6
UPDATE_MESSAGE = 7
AUTOCOMPLETE_RESULT = 8
MODAL = 9
LAUNCH_ACTIVITY = 12

# Application command types and entry point handlers.
PRIMARY_ENTRY_POINT = 4
APP_HANDLER = 1
DISCORD_LAUNCH_ACTIVITY = 2

# Application command option types.
SUB_COMMAND = 1
SUB_COMMAND_GROUP = 2
STRING = 3
INTEGER = 4
BOOLEAN = 5
USER = 6
CHANNEL = 7
ROLE = 8
MENTIONABLE = 9
NUMBER = 10
ATTACHMENT = 11


@dataclass
class InteractionRecord:
    """Everything the simulation knows about one interaction it dispatched."""

    id: str
    token: str
    type: int
    user: SimUser
    channel: SimChannel
    created: float
    deadline: float
    payload: dict[str, Any]
    message_id: str | None = None
    callback_type: int | None = None
    callback_time: float | None = None
    late: bool = False
    rejected: int = 0
    original_message_id: str | None = None
    followup_ids: list[str] = field(default_factory=list)
    modal: SimModal | None = None
    choices: list[dict[str, Any]] | None = None
    responses: list[CapturedRequest] = field(default_factory=list)
    answered: asyncio.Event = field(default_factory=asyncio.Event)
    activity_instance_id: str | None = None


@dataclass
class ActivityLaunch:
    """An Activity Discord opened: by a LAUNCH_ACTIVITY callback (12) to an interaction, or by
    the entry point command with Discord's own handler (``interaction_id`` None)."""

    instance_id: str
    user: SimUser
    channel: SimChannel
    interaction_id: str | None
    time: float


class InteractionResult:
    """What a test sees of an interaction: status, responses and the messages they made."""

    def __init__(self, sim: SimulatedDiscord, record: InteractionRecord) -> None:
        self._sim = sim
        self._record = record

    def __repr__(self) -> str:
        return (
            f"<InteractionResult id={self.id} status={self.status!r} "
            f"callback={self._record.callback_type} content={self.content!r}>"
        )

    @property
    def id(self) -> str:
        """The interaction's id."""
        return self._record.id

    @property
    def token(self) -> str:
        """The interaction's token."""
        return self._record.token

    @property
    def status(self) -> str:
        """'ok', 'no-response' (nothing in time), 'late' (10062) or 'rejected' (only 4xx)."""
        record = self._record
        if record.callback_type is not None:
            return "ok"
        if record.late:
            return "late"
        if record.rejected:
            return "rejected"
        return "no-response"

    @property
    def callback_type(self) -> int | None:
        """The accepted callback type (4 message, 5 defer, 6 deferred update, 7 update, 9 modal,
        12 launch the Activity)."""
        return self._record.callback_type

    @property
    def activity_instance_id(self) -> str | None:
        """The Activity instance a LAUNCH_ACTIVITY callback opened, or None."""
        return self._record.activity_instance_id

    @property
    def responses(self) -> list[CapturedRequest]:
        """Captured requests of this interaction: callback, followups, @original edits."""
        return list(self._record.responses)

    @property
    def message(self) -> SimMessage | None:
        """The message the response created or edited (None while a defer is still loading)."""
        record = self._record
        if record.original_message_id is None:
            return None
        message = self._sim._messages.get(record.original_message_id)
        if message is None or message.deleted or message.flags & 128:
            return None
        return message

    @property
    def ephemeral(self) -> bool:
        """Whether the response message is only shown to the user."""
        record = self._record
        if record.original_message_id is None:
            return False
        message = self._sim._messages.get(record.original_message_id)
        return bool(message is not None and message.ephemeral)

    @property
    def content(self) -> str | None:
        """The response message's content, or None."""
        message = self.message
        return None if message is None else message.content

    @property
    def text(self) -> str | None:
        """What the response message says (its content, or its Components V2 text displays,
        or its embeds), or None."""
        message = self.message
        return None if message is None else message.text

    @property
    def modal(self) -> SimModal | None:
        """The modal the bot opened in answer, or None."""
        return self._record.modal

    @property
    def choices(self) -> list[dict[str, Any]] | None:
        """The autocomplete choices the bot answered with, or None."""
        return self._record.choices

    @property
    def followups(self) -> list[SimMessage]:
        """Followup messages (current state, deleted ones left out)."""
        found = []
        for message_id in self._record.followup_ids:
            message = self._sim._messages.get(message_id)
            if message is not None and not message.deleted:
                found.append(message)
        return found


def build_command_options(
    sim: SimulatedDiscord,
    command: dict[str, Any],
    path: list[str],
    values: dict[str, Any],
    channel: SimChannel,
    focused: str | None = None,
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Return (options, resolved) for invoking `command` with sub-command `path` and `values`."""
    name = command["name"]
    definitions: list[dict[str, Any]] = command.get("options") or []
    resolved: dict[str, Any] = {}
    for sub_name in path:
        match = [o for o in definitions if o["name"] == sub_name and o["type"] in (1, 2)]
        if not match:
            subs = [o["name"] for o in definitions if o["type"] in (1, 2)]
            raise AssertionError(f"/{name} has no sub-command {sub_name!r} (has {subs})")
        name = f"{name} {sub_name}"
        definitions = match[0].get("options") or []
    subs = [o["name"] for o in definitions if o["type"] in (1, 2)]
    if subs:
        raise AssertionError(f"/{name} needs a sub-command, one of {subs}")
    leaf: list[dict[str, Any]] = []
    known = {o["name"]: o for o in definitions}
    for key in values:
        if key not in known:
            raise AssertionError(f"/{name} has no option {key!r} (has {sorted(known)})")
    for definition in definitions:
        key = definition["name"]
        if key not in values:
            if definition.get("required") and key != focused:
                raise AssertionError(f"/{name} needs its required option {key!r}")
            continue
        option: dict[str, Any] = {"name": key, "type": definition["type"]}
        if key == focused:
            option["value"] = str(values[key])
            option["focused"] = True
        else:
            option["value"] = _option_value(sim, name, definition, values[key], channel, resolved)
        leaf.append(option)
    options = leaf
    # Wrap the leaf options in their sub-command and group, innermost first.
    definitions = command.get("options") or []
    wrappers = []
    for sub_name in path:
        sub = next(o for o in definitions if o["name"] == sub_name)
        wrappers.append(sub)
        definitions = sub.get("options") or []
    for sub in reversed(wrappers):
        options = [{"name": sub["name"], "type": sub["type"], "options": options}]
    return options, resolved


def _option_value(
    sim: SimulatedDiscord,
    command_name: str,
    definition: dict[str, Any],
    value: Any,
    channel: SimChannel,
    resolved: dict[str, Any],
) -> Any:
    """Convert one test-given option value to what Discord sends, checking Discord's limits."""
    kind = definition["type"]
    key = definition["name"]
    where = f"/{command_name} {key}"
    if kind == STRING:
        if not isinstance(value, str):
            raise AssertionError(f"{where} takes a string, not {value!r}")
        if "min_length" in definition and len(value) < definition["min_length"]:
            raise AssertionError(f"{where} is shorter than {definition['min_length']}")
        if "max_length" in definition and len(value) > definition["max_length"]:
            raise AssertionError(f"{where} is longer than {definition['max_length']}")
    elif kind == INTEGER:
        if isinstance(value, str) and value.lstrip("-").isdigit():
            value = int(value)
        if not isinstance(value, int) or isinstance(value, bool):
            raise AssertionError(f"{where} takes an integer, not {value!r}")
    elif kind == NUMBER:
        if isinstance(value, str):
            value = float(value)
        if not isinstance(value, int | float) or isinstance(value, bool):
            raise AssertionError(f"{where} takes a number, not {value!r}")
    elif kind == BOOLEAN:
        if not isinstance(value, bool):
            raise AssertionError(f"{where} takes True or False, not {value!r}")
    elif kind in (USER, MENTIONABLE):
        user = sim._user_of(value)
        resolved.setdefault("users", {})[user.id] = user.payload()
        if channel.guild_id is not None:
            member = sim._members.get((channel.guild_id, user.id))
            if member is not None:
                payload = sim.member_payload(member, with_user=False)
                payload["permissions"] = str(sim.member_permissions(member))
                resolved.setdefault("members", {})[user.id] = payload
        return user.id
    elif kind == CHANNEL:
        target = value if isinstance(value, SimChannel) else sim._channels.get(str(value))
        if target is None:
            raise AssertionError(f"{where}: unknown channel {value!r}")
        types = definition.get("channel_types")
        if types and target.type not in types:
            raise AssertionError(f"{where} takes channel types {types}, not {target.type}")
        data = target.payload()
        data["permissions"] = str(sim.bot_permissions(target))
        resolved.setdefault("channels", {})[target.id] = data
        return target.id
    elif kind == ATTACHMENT:
        attachment = sim._store_attachment(channel, value)
        resolved.setdefault("attachments", {})[attachment["id"]] = sim.attachment_payload(
            attachment
        )
        return attachment["id"]
    else:
        raise AssertionError(f"{where}: option type {kind} is not simulated")
    if kind in (STRING, INTEGER, NUMBER):
        choices = definition.get("choices")
        if choices and value not in [c["value"] for c in choices]:
            raise AssertionError(
                f"{where}={value!r} is not one of its choices {[c['value'] for c in choices]}"
            )
        if kind != STRING:
            low, high = definition.get("min_value"), definition.get("max_value")
            if low is not None and value < low:
                raise AssertionError(f"{where}={value!r} is below its minimum {low}")
            if high is not None and value > high:
                raise AssertionError(f"{where}={value!r} is above its maximum {high}")
    return value


def button_data(message: SimMessage, custom_id: str | None, label: str | None) -> dict[str, Any]:
    """Return the component data of clicking a button, refusing what a user could not click."""
    buttons = [c for c in walk_components(message.components) if c.get("type") == BUTTON]
    if custom_id is not None:
        chosen = [b for b in buttons if b.get("custom_id") == custom_id]
    elif label is not None:
        chosen = [b for b in buttons if b.get("label") == label]
    else:
        raise AssertionError("click() needs a custom_id or a label")
    on_message = [(b.get("label"), b.get("custom_id")) for b in buttons]
    if not chosen:
        wanted = custom_id if custom_id is not None else label
        raise AssertionError(
            f"no button {wanted!r} on message {message.id} (its buttons: {on_message})"
        )
    if len(chosen) > 1:
        raise AssertionError(f"{len(chosen)} buttons labelled {label!r}; click by custom_id")
    button = chosen[0]
    if button.get("disabled"):
        raise AssertionError(f"button {button.get('label')!r} is disabled; it cannot be clicked")
    if button.get("style") in (5, 6) or "custom_id" not in button:
        raise AssertionError(f"button {button.get('label')!r} is a link; it sends no interaction")
    data: dict[str, Any] = {"custom_id": button["custom_id"], "component_type": BUTTON}
    if "id" in button:
        data["id"] = button["id"]
    return data


def select_data(
    sim: SimulatedDiscord, message: SimMessage, custom_id: str, values: list[Any]
) -> dict[str, Any]:
    """Return the component data of choosing `values` in a select, checked against it."""
    select = message.find_component(custom_id)
    if select is None or select.get("type") not in SELECT_TYPES:
        raise AssertionError(
            f"no select {custom_id!r} on message {message.id} "
            f"(its selects: {[s['custom_id'] for s in message.selects()]})"
        )
    return _select_values(sim, select, values)


def _select_values(
    sim: SimulatedDiscord, select: dict[str, Any], values: list[Any]
) -> dict[str, Any]:
    custom_id = select["custom_id"]
    if select.get("disabled"):
        raise AssertionError(f"select {custom_id!r} is disabled")
    low, high = select.get("min_values", 1), select.get("max_values", 1)
    if not low <= len(values) <= high:
        raise AssertionError(
            f"select {custom_id!r} takes {low} to {high} values, got {len(values)}"
        )
    data: dict[str, Any] = {"custom_id": custom_id, "component_type": select["type"]}
    if select["type"] == STRING_SELECT:
        allowed = [o["value"] for o in select.get("options", [])]
        for value in values:
            if value not in allowed:
                raise AssertionError(
                    f"{value!r} is not an option of select {custom_id!r} {allowed}"
                )
        if len(set(values)) != len(values):
            raise AssertionError(f"select {custom_id!r} got a value twice")
        data["values"] = list(values)
    elif select["type"] == USER_SELECT:
        users = [sim._user_of(v) for v in values]
        data["values"] = [u.id for u in users]
        data["resolved"] = {"users": {u.id: u.payload() for u in users}}
    else:
        data["values"] = [str(getattr(v, "id", v)) for v in values]
    return data


def modal_submit_data(
    sim: SimulatedDiscord, modal: SimModal, values: dict[str, Any]
) -> dict[str, Any]:
    """Return the data of submitting `modal` with `values` by custom_id, checked against it."""
    inputs = {c["custom_id"]: c for c in walk_components(modal.components) if "custom_id" in c}
    for key in values:
        if key not in inputs:
            raise AssertionError(
                f"modal {modal.custom_id!r} has no field {key!r} ({sorted(inputs)})"
            )

    def answer(component: dict[str, Any]) -> dict[str, Any]:
        custom_id = component["custom_id"]
        if component["type"] == TEXT_INPUT:
            value = values.get(custom_id, component.get("value") or "")
            if not isinstance(value, str):
                raise AssertionError(f"modal field {custom_id!r} takes a string")
            if component.get("required", True) and not value:
                raise AssertionError(f"modal field {custom_id!r} is required")
            if value and len(value) < component.get("min_length", 0):
                raise AssertionError(f"modal field {custom_id!r} is shorter than its minimum")
            if len(value) > component.get("max_length", 4000):
                raise AssertionError(f"modal field {custom_id!r} is longer than its maximum")
            return {"type": TEXT_INPUT, "custom_id": custom_id, "value": value}
        chosen = values.get(custom_id, [])
        data = _select_values(sim, component, list(chosen))
        return {
            "type": component["type"],
            **{k: v for k, v in data.items() if k != "component_type"},
        }

    rows: list[dict[str, Any]] = []
    for row in modal.components:
        if row.get("type") == LABEL and isinstance(row.get("component"), dict):
            rows.append({"type": LABEL, "component": answer(row["component"])})
        elif isinstance(row.get("components"), list):
            children = [answer(c) for c in row["components"] if "custom_id" in c]
            rows.append({"type": row["type"], "components": children})
    return {"custom_id": modal.custom_id, "components": rows}
