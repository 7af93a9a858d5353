"""Validation of captured requests against Discord's OpenAPI description.

The whole document is registered as one `referencing` resource so that its `#/components/...`
references resolve; each request body is validated with jsonschema Draft 2020-12 against the
schema of its path, method and content type. The README of the spec names three things the
preview spec cannot say, which are checked here by hand: snowflakes may be integers, unknown keys
pass (nothing to do), and the component limits (5 action rows, 5 buttons per row, one select per
row, unique custom ids).
"""

from __future__ import annotations

import copy
import functools
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jsonschema  # type: ignore[import-untyped]
import referencing
from referencing.jsonschema import DRAFT202012

from .models import (
    ACTION_ROW,
    BUTTON,
    CONTAINER,
    FILE,
    IS_COMPONENTS_V2,
    MEDIA_GALLERY,
    SECTION,
    SELECT_TYPES,
    SEPARATOR,
    TEXT_DISPLAY,
    TEXT_INPUT,
    walk_components,
)

#: Discord's description, copied into the tests with its licence (see the folder's README).
SPEC_PATH = Path(__file__).resolve().parent / "discord-api-spec" / "openapi.json"
SPEC_URI = "urn:discord-api-spec:openapi.json"
METHODS = ("get", "put", "post", "patch", "delete")


@dataclass(frozen=True)
class RouteTemplate:
    """One path of the spec with the regular expression that matches concrete paths."""

    template: str
    pattern: re.Pattern[str]
    literal_segments: int


def _snowflake_as_str_or_int(spec: dict[str, Any]) -> None:
    """Let snowflakes be integers too: discord.py sends some ids as ints (spec README)."""
    schemas = spec["components"]["schemas"]
    original = schemas["SnowflakeType"]
    schemas["SnowflakeType"] = {
        "anyOf": [original, {"type": "integer", "minimum": 0}],
        "format": "snowflake",
    }


def _field_error_codes(spec: dict[str, Any]) -> None:
    """+ Let a field's errors carry Discord's string codes ("BASE_TYPE_REQUIRED"), as the
    reference's Error Messages example shows them, where the spec reuses its integer-coded
    Error object."""
    schemas = spec["components"]["schemas"]
    schemas["InnerErrors"]["properties"]["_errors"]["items"] = {
        "type": "object",
        "properties": {"code": {"type": ["string", "integer"]}, "message": {"type": "string"}},
        "required": ["code", "message"],
    }


def _tag_values(schema: Any, schemas: dict[str, Any]) -> list[Any] | None:
    """The values a union branch allows for its `type` property (its discriminator), or None."""
    seen = 0
    while isinstance(schema, dict) and "$ref" in schema and seen < 20:
        ref = schema["$ref"]
        if not ref.startswith("#/components/schemas/"):
            return None
        schema = schemas.get(ref.rsplit("/", 1)[1])
        seen += 1
    if not isinstance(schema, dict) or schema.get("type") not in ("object", ["object"]):
        return None
    tag = (schema.get("properties") or {}).get("type")
    if not isinstance(tag, dict) or "type" not in schema.get("required", []):
        return None
    if "const" in tag:
        return [tag["const"]]
    if isinstance(tag.get("enum"), list):
        return list(tag["enum"])
    return None


TAGGED = "x-sim-tagged-union"


def _inline_refs(spec: dict[str, Any]) -> None:
    """Replace each lone `{"$ref": "#/components/schemas/X"}` by the schema object X itself.

    Looking a reference up through `referencing` on every use was most of the remaining cost;
    sharing the target object (recursive schemas become cyclic Python objects, which validation
    only follows as deep as the body goes) keeps the meaning and skips the lookups.
    """
    schemas = spec["components"]["schemas"]
    prefix = "#/components/schemas/"

    def target(value: Any) -> Any:
        if isinstance(value, dict) and set(value) == {"$ref"} and value["$ref"].startswith(prefix):
            found = schemas.get(value["$ref"][len(prefix) :])
            if found is not None and not (isinstance(found, dict) and "$ref" in found):
                return found
        return value

    seen: set[int] = set()
    stack: list[Any] = [spec]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, dict):
            for key, value in node.items():
                node[key] = target(value)
                stack.append(node[key])
        elif isinstance(node, list):
            for index, value in enumerate(node):
                node[index] = target(value)
                stack.append(node[index])


def _discriminate(node: Any, schemas: dict[str, Any]) -> None:
    """Rewrite Discord's unions so that validating them costs one branch, in place.

    jsonschema tries every branch of an anyOf/oneOf and builds an error for each that fails;
    Discord's enums are oneOfs of consts and its unions nest (components inside callbacks), so a
    message body cost ~80 ms. Two rewrites accept exactly the same bodies: a union of plain
    consts becomes an `enum`, and a union whose branches each require their own `type` values
    becomes the TAGGED keyword, which picks the branch(es) by the body's `type`.
    """
    if isinstance(node, list):
        for item in node:
            _discriminate(item, schemas)
        return
    if not isinstance(node, dict):
        return
    for value in node.values():
        _discriminate(value, schemas)
    for keyword in ("oneOf", "anyOf"):
        branches = node.get(keyword)
        if not isinstance(branches, list) or not branches:
            continue
        if all(
            isinstance(b, dict) and "const" in b and set(b) <= {"const", "title", "description"}
            for b in branches
        ):
            del node[keyword]
            node["enum"] = [b["const"] for b in branches]
            continue
        nullable = any(b == {"type": "null"} for b in branches)
        tagged = [(b, _tag_values(b, schemas)) for b in branches if b != {"type": "null"}]
        if len(tagged) < 2 or any(values is None for _, values in tagged):
            continue
        by_value: dict[str, list[Any]] = {}
        for branch, values in tagged:
            for value in values or []:
                by_value.setdefault(json.dumps(value), []).append(branch)
        del node[keyword]
        node[TAGGED] = {"nullable": nullable, "branches": by_value}


def _tagged_union(
    validator: Any, spec: dict[str, Any], instance: Any, schema: dict[str, Any]
) -> Any:
    """The TAGGED keyword: validate against the branches that the instance's `type` selects."""
    if instance is None and spec["nullable"]:
        return
    if not isinstance(instance, dict) or "type" not in instance:
        yield jsonschema.ValidationError(f"{instance!r} needs a 'type' of {_tags(spec)}")
        return
    branches = spec["branches"].get(json.dumps(instance["type"]))
    if branches is None:
        yield jsonschema.ValidationError(
            f"{instance['type']!r} is not one of {_tags(spec)}", path=["type"]
        )
        return
    if len(branches) == 1:
        yield from validator.descend(instance, branches[0])
        return
    errors = [list(validator.descend(instance, b)) for b in branches]
    if all(errors):
        yield from min(errors, key=len)


def _tags(spec: dict[str, Any]) -> list[Any]:
    return [json.loads(key) for key in spec["branches"]]


SimValidator = jsonschema.validators.extend(
    jsonschema.Draft202012Validator, {TAGGED: _tagged_union}
)


class SpecValidator:
    """Matches request paths to spec routes and validates bodies against their schemas."""

    def __init__(self, path: Path = SPEC_PATH) -> None:
        spec: dict[str, Any] = json.loads(path.read_text())
        _snowflake_as_str_or_int(spec)
        _field_error_codes(spec)
        _discriminate(spec, spec["components"]["schemas"])
        _inline_refs(spec)
        self.spec = spec
        resource = referencing.Resource.from_contents(spec, default_specification=DRAFT202012)
        self.registry: referencing.Registry[Any] = referencing.Registry().with_resource(
            SPEC_URI, resource
        )
        templates = []
        for template in spec["paths"]:
            segments = template.strip("/").split("/")
            regex = "/".join(
                "[^/]+" if s.startswith("{") and s.endswith("}") else re.escape(s) for s in segments
            )
            literal = sum(1 for s in segments if not s.startswith("{"))
            templates.append(RouteTemplate(template, re.compile(f"^/{regex}$"), literal))
        templates.sort(key=lambda t: (-t.literal_segments, t.template))
        self.templates = templates
        self._verdicts: dict[tuple[str, str, str, str], tuple[str, ...]] = {}
        self._validators: dict[tuple[str, str, str], jsonschema.Draft202012Validator | None] = {}

    def match(self, path: str) -> str | None:
        """Return the spec's template for a concrete API path (without /api/v10), or None."""
        for template in self.templates:
            if template.pattern.match(path):
                return template.template
        return None

    def operation(self, route: str, method: str) -> dict[str, Any] | None:
        """Return the spec's operation object for a route and method, or None."""
        item = self.spec["paths"].get(route)
        if item is None:
            return None
        operation = item.get(method.lower())
        return operation if isinstance(operation, dict) else None

    def _validator(
        self, route: str, method: str, content_type: str
    ) -> jsonschema.Draft202012Validator | None:
        key = (route, method.lower(), content_type)
        if key not in self._validators:
            operation = self.operation(route, method)
            validator = None
            content = ((operation or {}).get("requestBody") or {}).get("content", {})
            if content_type in content:
                pointer = "/".join(
                    part.replace("~", "~0").replace("/", "~1")
                    for part in (
                        "paths",
                        route,
                        method.lower(),
                        "requestBody",
                        "content",
                        content_type,
                        "schema",
                    )
                )
                validator = SimValidator({"$ref": f"{SPEC_URI}#/{pointer}"}, registry=self.registry)
            self._validators[key] = validator
        return self._validators[key]

    def validate_response(self, method: str, route: str, status: int, body: Any) -> list[str]:
        """+ Messages for an answer of the simulator that its route's documented response (of
        that status, JSON) does not describe (empty when it does, or nothing is documented)."""
        operation = self.operation(route, method)
        responses = (operation or {}).get("responses", {})
        # + the status's own entry, else its class ("4XX"), which may name a shared response
        key = str(status) if str(status) in responses else f"{status // 100}XX"
        if key not in responses:
            return []
        base: tuple[str, ...] = ("paths", route, method.lower(), "responses", key)
        entry = responses[key]
        if "$ref" in entry:
            name = entry["$ref"].rsplit("/", 1)[1]
            base, entry = ("components", "responses", name), \
                self.spec["components"]["responses"].get(name, {})
        content = entry.get("content", {})
        if "application/json" not in content:
            return []
        pointer = "/".join(
            part.replace("~", "~0").replace("/", "~1")
            for part in (*base, "content", "application/json", "schema"))
        validator = SimValidator({"$ref": f"{SPEC_URI}#/{pointer}"}, registry=self.registry)
        error = jsonschema.exceptions.best_match(validator.iter_errors(body))
        if error is None:
            return []
        where = "/".join(str(p) for p in error.absolute_path) or "(body)"
        return [f"response {status}: {where}: {error.message[:500]}"]

    def validate_query(self, method: str, route: str | None, query: dict[str, str]) -> list[str]:
        """Return messages for query parameters the operation does not document or cannot parse."""
        operation = self.operation(route, method) if route else None
        if operation is None:
            return []
        documented: dict[str, Any] = {}
        for parameter in [
            *self.spec["paths"][route].get("parameters", []),
            *operation.get("parameters", []),
        ]:
            if parameter.get("in") == "query":
                documented[parameter["name"]] = parameter.get("schema") or {}
        messages = []
        for name, value in query.items():
            if name not in documented:
                messages.append(f"query parameter {name!r} is not documented")
                continue
            kind = documented[name].get("type")
            if kind == "boolean" and value.lower() not in ("true", "false", "1", "0"):
                messages.append(f"query parameter {name}={value!r} is not a boolean")
            elif kind == "integer" and not value.lstrip("-").isdigit():
                messages.append(f"query parameter {name}={value!r} is not an integer")
        return messages

    def validate(
        self, method: str, route: str | None, content_type: str | None, body: Any
    ) -> list[str]:
        """Return the validation messages for one request (empty when it is documented)."""
        if route is None:
            return ["no such route in Discord's API description"]
        operation = self.operation(route, method)
        if operation is None:
            return [f"method {method} is not documented for {route}"]
        content = (operation.get("requestBody") or {}).get("content", {})
        if body is None or content_type is None:
            if (operation.get("requestBody") or {}).get("required") and method != "GET":
                return ["request body is required"]
            return []
        if content_type not in content:
            return [f"content type {content_type} not accepted (accepts {sorted(content)})"]
        validator = self._validator(route, method, content_type)
        if validator is None:
            return []
        # Bots resend the same bodies (a table redrawn, a refusal repeated): remember verdicts.
        key = (route, method, content_type, json.dumps(body, sort_keys=True))
        if key in self._verdicts:
            return list(self._verdicts[key])
        messages = []
        error = jsonschema.exceptions.best_match(validator.iter_errors(body))
        if error is not None:
            error = _most_specific(error)
            where = "/".join(str(p) for p in error.absolute_path) or "(body)"
            messages.append(f"{where}: {error.message[:500]}")
        if len(self._verdicts) > 4096:
            self._verdicts.clear()
        self._verdicts[key] = tuple(messages)
        return messages


def _most_specific(error: jsonschema.ValidationError) -> jsonschema.ValidationError:
    """Descend into anyOf/oneOf failures, preferring the branch whose `type` tag matched."""
    while error.context:
        branches: dict[Any, list[jsonschema.ValidationError]] = {}
        for sub in error.context:
            branches.setdefault(sub.relative_schema_path[0], []).append(sub)

        def tag_mismatch(errors: list[jsonschema.ValidationError]) -> bool:
            return any(
                list(e.relative_path)[-1:] == ["type"] or e.validator == "type"
                for e in errors
                if len(e.relative_path) <= 1
            )

        candidates = [errs for errs in branches.values() if not tag_mismatch(errs)]
        chosen = candidates[0] if len(candidates) == 1 else None
        if chosen is None:
            break
        best = jsonschema.exceptions.best_match(chosen)
        if best is None:
            break
        error = best
    return error


@functools.cache
def spec_validator() -> SpecValidator:
    """Return the process-wide validator (loading the 1 MB spec once)."""
    return SpecValidator()


def component_limits(body: Any, *, modal: bool = False) -> list[str]:
    """Check the component rules the spec cannot express; return Discord-style messages."""
    if not isinstance(body, dict):
        return []
    components = body.get("components")
    if not isinstance(components, list):
        return []
    errors: list[str] = []
    flags = body.get("flags") or 0
    v2 = isinstance(flags, int) and bool(flags & IS_COMPONENTS_V2)
    if not v2 and not modal and len(components) > 5:
        errors.append(f"components: {len(components)} action rows, at most 5 allowed")
    if modal and len(components) > 5:
        errors.append(f"components: modal has {len(components)} rows, at most 5 allowed")
    if v2:
        errors += _v2_limits(body, components)
    rows = [c for c in walk_components(components) if isinstance(c, dict)
            and c.get("type") == ACTION_ROW] if v2 else components
    for index, row in enumerate(rows):
        if not isinstance(row, dict):
            continue
        if row.get("type") != ACTION_ROW:
            if not v2 and not (modal and row.get("type") in (18, 10)):
                errors.append(f"components/{index}: top-level component must be an action row")
            continue
        children = [c for c in row.get("components", []) if isinstance(c, dict)]
        buttons = [c for c in children if c.get("type") == BUTTON]
        selects = [c for c in children if c.get("type") in SELECT_TYPES]
        inputs = [c for c in children if c.get("type") == TEXT_INPUT]
        if len(buttons) > 5:
            errors.append(f"components/{index}: {len(buttons)} buttons in a row, at most 5")
        if selects and len(children) > 1:
            errors.append(f"components/{index}: a select menu must be alone in its row")
        if inputs and len(children) > 1:
            errors.append(f"components/{index}: a text input must be alone in its row")
        if not children:
            errors.append(f"components/{index}: an action row needs at least one component")
    seen: set[str] = set()
    for component in walk_components(components):
        custom_id = component.get("custom_id")
        if isinstance(custom_id, str):
            if custom_id in seen:
                errors.append(f"components: custom_id {custom_id!r} is used twice")
            seen.add(custom_id)
    return errors


#: what a Components V2 message may hold at its top level (and in a container)
V2_TOP = (ACTION_ROW, SECTION, TEXT_DISPLAY, MEDIA_GALLERY, FILE, SEPARATOR, CONTAINER)
V2_MOST = 40  # components in a message, nested ones included
V2_TEXT = 4000  # characters of all its text displays together


def _v2_limits(body: dict[str, Any], components: list[Any]) -> list[str]:
    """Discord's rules for a message with the IS_COMPONENTS_V2 flag: no content, embeds,
    stickers or poll; at most 40 components and 4000 characters of text; layout components
    where they may go; pictures only from the message's own attachments."""
    errors = [f"{key}: not allowed with IS_COMPONENTS_V2"
              for key in ("content", "embeds", "sticker_ids", "poll") if body.get(key)]
    every = [c for c in walk_components(components) if isinstance(c, dict)]
    if len(every) > V2_MOST:
        errors.append(f"components: {len(every)} components, at most {V2_MOST}")
    text = sum(len(str(c.get("content") or "")) for c in every if c.get("type") == TEXT_DISPLAY)
    if text > V2_TEXT:
        errors.append(f"components: {text} characters of text, at most {V2_TEXT}")
    for index, top in enumerate(components):
        if isinstance(top, dict) and top.get("type") not in V2_TOP:
            errors.append(f"components/{index}: type {top.get('type')} cannot be at the top")
        if isinstance(top, dict) and top.get("type") == CONTAINER:
            inner = [c for c in top.get("components") or [] if isinstance(c, dict)]
            if any(c.get("type") not in V2_TOP or c.get("type") == CONTAINER for c in inner):
                errors.append(f"components/{index}: a container holds rows, sections, text, "
                              "galleries, files and separators only")
    if isinstance(body.get("attachments"), list):
        names = {str(a.get("filename")) for a in body["attachments"] if isinstance(a, dict)}
        for c in every:
            for url in _media_urls(c):
                if url.startswith("attachment://") and url[len("attachment://"):] not in names:
                    errors.append(f"components: {url} is not among the message's attachments")
    return errors


def _media_urls(component: dict[str, Any]) -> list[str]:
    """The media a gallery, thumbnail or file component shows."""
    found = []
    for item in component.get("items") or []:
        if isinstance(item, dict) and isinstance(item.get("media"), dict):
            found.append(str(item["media"].get("url")))
    for key in ("media", "file"):
        if isinstance(component.get(key), dict):
            found.append(str(component[key].get("url")))
    return found


def strip_none(value: Any) -> Any:
    """Return a copy of a JSON value (used to keep captured bodies immutable)."""
    return copy.deepcopy(value)
