#!/usr/bin/env python3
"""Check MQTT discovery payloads against Home Assistant's own discovery schemas.

Usage: validate.py [--ha 2024|2025] [--prefix PREFIX] [--verbose] ITEMS.json

ITEMS.json holds a JSON array of {"topic": "<prefix>/<component>/[<node>/]<object>/config",
"payload": {...}} items. Each item goes through the same steps as a message on that topic
in the installed Home Assistant's MQTT discovery:

1. topic check (discovery prefix, TOPIC_MATCHER, supported component),
2. abbreviation expansion (top level, device, origin, availability entries),
3. origin validation (an invalid origin makes HA drop the message),
4. "~" topic base substitution,
5. the component's DISCOVERY_SCHEMA (for lights this selects the basic/json/template
   schema; device and availability blocks are part of every entity schema).

An item may also carry "states": [{"payload": <state>, "expect": "<text>"}] and
"commands": [{"value": <value>, "expect": "<text>"}]: each state is rendered through the
entity's value templates and each value through its command template by Home Assistant's
own template engine; a template that raises or logs a warning, or renders something else
than "expect" (when given), rejects the item. Each state is then delivered as a message on the
config's state topic (or the sample's "topic", e.g. an availability topic) to Home Assistant's
own entity for the component, made from the validated config without a broker: a message
handler that raises, a state Home Assistant cannot compute, or any warning or error it logs
rejects the item. An event config's "events" are delivered the same way and must fire the
"expect"ed event type.

Nothing is copied from Home Assistant: every schema, abbreviation table, regex and
template class is imported from the installed `homeassistant` package (2024.1.6 in
/opt/ha2024 and 2025.4.4 in /opt/ha2025, see setup.sh). Prints a "# Home Assistant
<version>" line, then "OK <topic>" or "REJECTED <topic>: <error>" per item, and exits 1 if
any item was rejected (2 on a usage or input error or a missing venv).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import copy
import importlib
import inspect
import json
import logging
import os
import sys
import tempfile
from collections.abc import Iterator
from typing import Any

DEVICE_COMPONENT = "device"
# Where setup.sh puts each checker, and the environment variable that moves it.
VENVS = {"2024": ("HA2024_VENV", "/opt/ha2024"), "2025": ("HA2025_VENV", "/opt/ha2025")}


class Rejected(Exception):
    """Raised when Home Assistant would not set up the discovered item."""


class _Collector(logging.Handler):
    """Keep Home Assistant's log records of the item being checked."""

    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.records: list[str] = []
        self.levels: list[int] = []

    def emit(self, record: logging.LogRecord) -> None:
        try:
            self.records.append(f"{record.levelname.lower()}: {record.getMessage()}")
        except Exception:  # noqa: BLE001
            self.records.append(f"{record.levelname.lower()}: {record.msg}")
        self.levels.append(record.levelno)

    def clear(self) -> None:
        self.records.clear()
        self.levels.clear()

    def problems_since(self, start: int) -> list[str]:
        """Warnings and errors logged since record number `start`."""
        return [
            text
            for text, level in zip(self.records[start:], self.levels[start:])
            if level >= logging.WARNING
        ]


def _import_ha() -> dict[str, Any]:
    # homeassistant.components.mqtt has a circular import through websocket_api/http
    # unless the core is loaded in the same order Home Assistant itself uses.
    import homeassistant.bootstrap  # noqa: F401
    from homeassistant.components.mqtt import abbreviations, discovery
    from homeassistant.const import __version__

    try:
        schemas = importlib.import_module("homeassistant.components.mqtt.schemas")
    except ImportError:  # older releases keep the shared schemas in mixins.py
        schemas = importlib.import_module("homeassistant.components.mqtt.mixins")
    return {
        "version": __version__,
        "abbr": abbreviations,
        "discovery": discovery,
        "schemas": schemas,
    }


def _error_text(err: BaseException) -> str:
    errors = getattr(err, "errors", None)
    if isinstance(errors, list) and len(errors) > 1:
        return "; ".join(str(e) for e in errors)
    text = str(err)
    return text if text else type(err).__name__


class Validator:
    """Replays Home Assistant's discovery handling on one payload at a time."""

    def __init__(self, ha: dict[str, Any], prefix: str) -> None:
        self.ha = ha
        self.prefix = prefix.rstrip("/")
        self.discovery = ha["discovery"]
        self.abbr = ha["abbr"]
        self.schemas = ha["schemas"]
        # HA 2024.x expands abbreviations inline in the message callback, later
        # versions have helper functions for it; use the helpers when they exist.
        self.legacy = not hasattr(self.discovery, "_replace_all_abbreviations")

    # -- steps of discovery.async_discovery_message_received -----------------------

    def parse_topic(self, topic: str) -> tuple[str, str | None, str]:
        if not isinstance(topic, str) or not topic.startswith(f"{self.prefix}/"):
            raise Rejected(
                f"topic is not under the discovery prefix '{self.prefix}/', "
                "Home Assistant does not subscribe to it"
            )
        trimmed = topic.replace(f"{self.prefix}/", "", 1)
        match = self.discovery.TOPIC_MATCHER.match(trimmed)
        # HA only subscribes to <prefix>/<component>/+/config and
        # <prefix>/<component>/+/+/config, so the matcher must cover the whole topic.
        if not match or match.end() != len(trimmed):
            raise Rejected(
                "illegal discovery topic: node_id and object_id may only contain "
                "[a-zA-Z0-9_-] and the topic must be "
                "<prefix>/<component>/[<node_id>/]<object_id>/config"
            )
        component, node_id, object_id = match.groups()
        supported = set(self.discovery.SUPPORTED_COMPONENTS)
        if hasattr(self.schemas, "DEVICE_DISCOVERY_SCHEMA"):
            supported.add(DEVICE_COMPONENT)
        if component not in supported:
            raise Rejected(f"Integration {component} is not supported")
        return component, node_id, object_id

    def _expand_legacy(self, payload: dict[str, Any]) -> None:
        """Abbreviation handling of HA 2024.x discovery.py (inline there)."""
        abbreviations = self.abbr.ABBREVIATIONS
        for key in list(payload):
            payload[abbreviations.get(key, key)] = payload.pop(key)
        if "device" in payload:
            device = payload["device"]
            for key in list(device):
                device[self.abbr.DEVICE_ABBREVIATIONS.get(key, key)] = device.pop(key)
        if isinstance(payload.get("origin"), dict):
            origin = payload["origin"]
            for key in list(origin):
                origin[self.abbr.ORIGIN_ABBREVIATIONS.get(key, key)] = origin.pop(key)
        self._check_origin(payload)
        if "availability" in payload:
            entries = payload["availability"]
            for entry in entries if isinstance(entries, list) else [entries]:
                if isinstance(entry, dict):
                    for key in list(entry):
                        entry[abbreviations.get(key, key)] = entry.pop(key)

    def _check_origin(self, payload: dict[str, Any]) -> None:
        if "origin" not in payload:
            return
        try:
            self.discovery.MQTT_ORIGIN_INFO_SCHEMA(payload["origin"])
        except Exception as err:  # noqa: BLE001
            raise Rejected(
                f"Unable to parse origin information from discovery message "
                f"({_error_text(err)}), HA drops the message"
            ) from err

    def _replace_topic_base(self, payload: dict[str, Any]) -> None:
        if "~" not in payload:
            return
        helper = getattr(self.discovery, "_replace_topic_base", None)
        if helper is not None:
            helper(payload)
            return
        base = payload.pop("~")
        for key, value in payload.items():
            if isinstance(value, str) and value:
                if value[0] == "~" and key.endswith("topic"):
                    payload[key] = f"{base}{value[1:]}"
                if value[-1] == "~" and key.endswith("topic"):
                    payload[key] = f"{value[:-1]}{base}"
        entries = payload.get("availability")
        if entries:
            for entry in entries if isinstance(entries, list) else [entries]:
                if not isinstance(entry, dict):
                    continue
                if topic := str(entry.get("topic")):
                    if topic[0] == "~":
                        entry["topic"] = f"{base}{topic[1:]}"
                    if topic[-1] == "~":
                        entry["topic"] = f"{topic[:-1]}{base}"

    # -- the platform set-up (entity.py / mixins.py async_setup_*_entry_helper) ------

    def _platform_schemas(self, component: str) -> list[Any]:
        module = importlib.import_module(f"homeassistant.components.mqtt.{component}")
        steps = [module.DISCOVERY_SCHEMA]
        if component == "device_automation":
            trigger = importlib.import_module(
                "homeassistant.components.mqtt.device_trigger"
            )
            steps.append(trigger.TRIGGER_DISCOVERY_SCHEMA)
        elif component != "tag":
            extra_check = getattr(
                self.schemas, "validate_child_device_has_unique_id", None
            )
            if extra_check is not None:
                steps.append(extra_check)
        return steps

    def _validate_component(self, component: str, payload: dict[str, Any]) -> dict:
        config: Any = payload
        try:
            for step in self._platform_schemas(component):
                config = step(config)
        except Rejected:
            raise
        except Exception as err:  # noqa: BLE001
            # vol.Invalid is logged as a schema error by HA; any other exception
            # raised while setting up the discovered item aborts it as well.
            raise Rejected(_error_text(err)) from err
        return config

    def _component_payload(self, raw: dict[str, Any]) -> dict[str, Any]:
        payload = copy.deepcopy(raw)
        try:
            if self.legacy:
                self._expand_legacy(payload)
            else:
                self.discovery._replace_all_abbreviations(payload)  # noqa: SLF001
                self._check_origin(payload)
            self._replace_topic_base(payload)
        except Rejected:
            raise
        except Exception as err:  # noqa: BLE001
            # The discovery callback raises on such payloads, the message is lost.
            raise Rejected(
                f"discovery message handling failed: {type(err).__name__}: {err}"
            ) from err
        if self.legacy and payload:
            payload["platform"] = "mqtt"
        return payload

    def _device_payload(self, raw: dict[str, Any]) -> list[tuple[str, str, dict]]:
        """Device based discovery (HA 2024.11+): split into component payloads."""
        payload = copy.deepcopy(raw)
        if "migrate_discovery" in payload or "migr_discvry" in payload:
            return []
        self.discovery._replace_all_abbreviations(payload)  # noqa: SLF001
        try:
            validated = self.schemas.DEVICE_DISCOVERY_SCHEMA(payload)
            extra_check = getattr(
                self.schemas, "validate_device_discovery_components", None
            )
            if extra_check is not None:
                extra_check(validated)
        except Exception as err:  # noqa: BLE001
            raise Rejected(
                f"Invalid MQTT device discovery payload: {_error_text(err)}"
            ) from err
        device = payload["device"]
        origin = payload.get("origin")
        parts: list[tuple[str, dict, dict | None]] = [
            (cid, conf, None) for cid, conf in payload.get("components", {}).items()
        ]
        for child in payload.get("child_devices", []):
            child_info = {"identifiers": child["identifiers"]}
            if "name" in child:
                child_info["name"] = child["name"]
            parts.extend(
                (cid, conf, child_info) for cid, conf in child["components"].items()
            )
        result = []
        for component_id, conf, child_info in parts:
            platform = conf.pop("platform")
            if conf:
                conf["device"] = (
                    device if child_info is None else {**device, "child_device": child_info}
                )
                conf["origin"] = origin
                self.discovery._merge_common_device_options(conf, payload)  # noqa: SLF001
            self._replace_topic_base(conf)
            result.append((component_id, platform, conf))
        return result

    # -- one item -----------------------------------------------------------------

    def check(self, item: Any) -> dict[str, Any] | None:
        if not isinstance(item, dict) or "topic" not in item or "payload" not in item:
            raise Rejected('item must be an object with "topic" and "payload"')
        component, _node_id, _object_id = self.parse_topic(item["topic"])
        raw = item["payload"]
        if isinstance(raw, str):
            if raw == "":
                return None  # an empty message removes the item
            try:
                raw = json.loads(raw)
            except ValueError as err:
                raise Rejected(f"Unable to parse JSON: {err}") from err
        if not isinstance(raw, dict):
            raise Rejected("Unable to parse JSON: the payload must be a JSON object")
        if not raw:
            return None  # an empty payload removes the item

        if component == DEVICE_COMPONENT:
            configs = {}
            for component_id, platform, conf in self._device_payload(raw):
                if not conf:
                    continue
                try:
                    configs[component_id] = self._validate_component(platform, conf)
                except Rejected as err:
                    raise Rejected(f"component '{component_id}' ({platform}): {err}") from err
            return configs

        payload = self._component_payload(raw)
        if (
            "migrate_discovery" in payload or "migr_discvry" in payload
        ) and not self.legacy:
            return None
        return self._validate_component(component, payload)


def _dropped_keys(item: dict[str, Any], validator: Validator, config: dict) -> list[str]:
    """Top level keys HA silently removes (REMOVE_EXTRA) for a component payload."""
    try:
        component, _, _ = validator.parse_topic(item["topic"])
        if component == DEVICE_COMPONENT or not isinstance(item["payload"], dict):
            return []
        payload = validator._component_payload(item["payload"])  # noqa: SLF001
    except Exception:  # noqa: BLE001
        return []
    return sorted(k for k in payload if k not in config and k != "platform")


def _check_unique_id(
    validator: Validator,
    item: dict[str, Any],
    config: Any,
    seen: dict[tuple[str, str], str],
) -> None:
    if not isinstance(config, dict) or not isinstance(config.get("unique_id"), str):
        return
    component, _, _ = validator.parse_topic(item["topic"])
    key = (component, config["unique_id"])
    first = seen.setdefault(key, item["topic"])
    if first != item["topic"]:
        raise Rejected(
            f"unique_id '{config['unique_id']}' is already used by {first}; "
            "HA does not add a second entity with the same unique_id"
        )


def _with_hass(cls: Any, template: Any, hass: Any) -> Any:
    """MQTT template wrappers took `hass` until 2024.x; later ones read it from the template."""
    if "hass" in inspect.signature(cls).parameters:
        return cls(template, hass=hass)
    if getattr(template, "hass", None) is None:
        template.hass = hass
    return cls(template)


def _payload_text(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value)


def _check_rendering(
    item: dict[str, Any], config: Any, hass: Any, collector: _Collector, device_based: bool
) -> None:
    """Render the item's sample states and command values with HA's template engine."""
    states = item.get("states") or []
    commands = item.get("commands") or []
    if not states and not commands:
        return
    if not isinstance(config, dict) or device_based:
        raise Rejected("states and commands can only be checked for component payloads")
    from homeassistant.components.mqtt.models import (
        MqttCommandTemplate,
        MqttValueTemplate,
    )

    def render(what: str, call: Any) -> str:
        start = len(collector.records)
        try:
            result = call()
        except Exception as err:  # noqa: BLE001
            raise Rejected(f"{what} raised {type(err).__name__}: {err}") from err
        problems = collector.problems_since(start)
        if problems:
            raise Rejected(f"{what} logged: {'; '.join(problems)}")
        return str(result)

    value_keys = sorted(
        key for key in config if key.endswith("value_template") and config[key] is not None
    )
    for index, sample in enumerate(states):
        if sample.get("topic") not in (None, config.get("state_topic")):
            continue  # an availability or attributes message, not read by these templates
        payload = _payload_text(sample.get("payload"))
        for key in value_keys:
            template = _with_hass(MqttValueTemplate, config[key], hass)
            rendered = render(
                f"{key} on state #{index} {payload}",
                lambda: template.async_render_with_possible_json_value(payload),
            )
            if key == "value_template" and "expect" in sample and rendered != sample["expect"]:
                raise Rejected(
                    f"{key} on state #{index} {payload} renders {rendered!r}, "
                    f"expected {sample['expect']!r}"
                )
    for index, sample in enumerate(commands):
        if config.get("command_template") is None:
            raise Rejected("commands given but the entity has no command_template")
        template = _with_hass(MqttCommandTemplate, config["command_template"], hass)
        value = sample.get("value")
        rendered = render(
            f"command_template on value #{index} {value!r}", lambda: template.async_render(value)
        )
        if "expect" in sample and rendered != sample["expect"]:
            raise Rejected(
                f"command_template on value #{index} {value!r} renders {rendered!r}, "
                f"expected {sample['expect']!r}"
            )


class _MqttDataStub:
    """The parts of the MQTT integration's runtime data an entity's message handlers touch."""

    def __init__(self) -> None:
        import collections
        import types

        self.written: list[Any] = []
        # Each handled message is filed here (2024.x in debug_info.log_messages, later in
        # MqttEntity._message_callback).
        self.debug_info_entities: Any = collections.defaultdict(
            lambda: {"subscriptions": collections.defaultdict(lambda: {"messages": []})}
        )
        self.state_write_requests = self
        # An entity is unavailable while the client is not connected.
        self.client = types.SimpleNamespace(connected=True)

    def write_state_request(self, entity: Any) -> None:
        self.written.append(entity)


@contextlib.contextmanager
def _mqtt_data(hass: Any) -> Iterator[_MqttDataStub]:
    """Stand in for the MQTT integration's runtime data while entities handle messages."""
    try:
        from homeassistant.components.mqtt.models import DATA_MQTT
    except ImportError:  # 2024.x keeps the key in const.py
        from homeassistant.components.mqtt.const import DATA_MQTT
    stub = _MqttDataStub()
    previous = hass.data.get(DATA_MQTT)
    hass.data[DATA_MQTT] = stub
    try:
        yield stub
    finally:
        if previous is None:
            hass.data.pop(DATA_MQTT, None)
        else:
            hass.data[DATA_MQTT] = previous


def _entity_class(component: str, config: dict) -> Any:
    """The MqttEntity subclass Home Assistant sets a discovered `component` up with."""
    name = f"homeassistant.components.mqtt.{component}"
    if component == "light":  # one module per schema: schema_basic, schema_json, schema_template
        name += f".schema_{config['schema']}"
    module = importlib.import_module(name)
    try:
        base = importlib.import_module("homeassistant.components.mqtt.entity").MqttEntity
    except ImportError:  # 2024.x keeps MqttEntity in mixins.py
        base = importlib.import_module("homeassistant.components.mqtt.mixins").MqttEntity
    classes = [
        cls
        for cls in vars(module).values()
        if isinstance(cls, type)
        and issubclass(cls, base)
        and cls.__module__ == module.__name__
        and not inspect.isabstract(cls)
    ]
    if len(classes) != 1:
        raise Rejected(f"cannot tell which entity class of {name} HA uses: {classes}")
    return classes[0]


@contextlib.contextmanager
def _captured_subscriptions() -> Iterator[dict[str, dict]]:
    """Collect the subscriptions entities prepare instead of making them.

    Entity modules call async_prepare_subscribe_topics through the subscription module or
    imported by name (mixins.py, entity.py), so every MQTT module's binding is replaced.
    2025.x's MqttEntity also makes sure a `via_device` is in the device registry, which is
    not part of this check (and needs a loaded registry), so that step is skipped too.
    """
    from homeassistant.components.mqtt import subscription

    prepared: dict[str, dict] = {}

    def capture(_hass: Any, sub_state: Any, topics: dict[str, Any]) -> Any:
        prepared.update(topics)
        return sub_state if sub_state is not None else {}

    replacements = {
        "async_prepare_subscribe_topics": (subscription.async_prepare_subscribe_topics, capture),
    }
    entity_module = sys.modules.get("homeassistant.components.mqtt.entity")
    if hasattr(entity_module, "ensure_via_device_exists"):
        replacements["ensure_via_device_exists"] = (
            entity_module.ensure_via_device_exists,
            lambda *_args: None,
        )
    patched = [
        (module, attribute, original)
        for name, module in list(sys.modules.items())
        if name.startswith("homeassistant.components.mqtt")
        for attribute, (original, _) in replacements.items()
        if getattr(module, attribute, None) is original
    ]
    for module, attribute, _ in patched:
        setattr(module, attribute, replacements[attribute][1])
    try:
        yield prepared
    finally:
        for module, attribute, original in patched:
            setattr(module, attribute, original)


def _mqtt_entity(component: str, config: dict, hass: Any) -> tuple[Any, dict[str, list[dict]]]:
    """Home Assistant's own entity for a validated config, and its subscriptions by topic.

    Made by the entity class's constructor, without the entity platform (no registry, no
    broker): the subscriptions async_added_to_hass would make (state topics, availability,
    JSON attributes) are collected instead.
    """
    with _captured_subscriptions() as prepared:
        entity = _entity_class(component, config)(hass, config, None, None)
        if entity.entity_id is None:  # only an object_id sets it before the platform does
            entity.entity_id = f"{component}.checked"
        entity._subscriptions = {}  # noqa: SLF001  2025.x: add_subscription fills it
        entity._prepare_subscribe_topics()  # noqa: SLF001
        prepared.update(entity._subscriptions)  # noqa: SLF001
        entity._availability_prepare_subscribe_topics()  # noqa: SLF001
        entity._attributes_prepare_subscribe_topics()  # noqa: SLF001
    by_topic: dict[str, list[dict]] = {}
    for subscription in prepared.values():
        if subscription.get("topic") is not None:
            by_topic.setdefault(subscription["topic"], []).append(subscription)
    # Samples are checked with the device online: an entity that has availability topics is
    # unavailable until they say so, and HA then computes none of its state.
    entity._available = dict.fromkeys(entity._available, True)  # noqa: SLF001
    entity._available_latest = True  # noqa: SLF001
    return entity, by_topic


def _message(topic: str, payload: str, subscription: dict, retain: bool) -> Any:
    """The ReceiveMessage HA's MQTT client hands to a subscription's callback."""
    import dataclasses
    import time

    from homeassistant.components.mqtt.models import ReceiveMessage

    stamp_field = {f.name: f.type for f in dataclasses.fields(ReceiveMessage)}["timestamp"]
    stamp: Any = time.monotonic()
    if "datetime" in str(stamp_field):  # 2024.x stamps messages with a datetime
        from homeassistant.util import dt as dt_util

        stamp = dt_util.utcnow()
    return ReceiveMessage(
        topic=topic,
        # The client decodes the payload with the subscription's encoding; none: bytes.
        payload=payload if subscription.get("encoding") else payload.encode(),
        qos=subscription.get("qos") or 0,
        retain=retain,
        subscribed_topic=subscription["topic"],
        timestamp=stamp,
    )


def _deliver(
    entity: Any,
    subscriptions: dict[str, list[dict]],
    what: str,
    topic: str,
    sample: dict[str, Any],
    collector: _Collector,
    stub: _MqttDataStub,
) -> bool:
    """Hand a sample message to each of the entity's callbacks for `topic`, as the client does.

    A callback that raises (HA's client logs the exception and drops the message), a state
    HA cannot compute when it writes the entity, or any warning or error logged, rejects.
    Returns whether the entity asked for its state to be written.
    """
    payload = _payload_text(sample.get("payload"))
    what = f"{what} {payload}"
    start = len(collector.records)
    written = len(stub.written)
    for subscription in subscriptions.get(topic, []):
        message = _message(topic, payload, subscription, bool(sample.get("retain", False)))
        try:
            subscription["msg_callback"](message)
        except Exception as err:  # noqa: BLE001
            raise Rejected(f"{what} raised {type(err).__name__}: {err}") from err
    wants_write = len(stub.written) > written
    if wants_write:
        try:  # what writing the state computes, without the state machine
            entity._async_calculate_state()  # noqa: SLF001
        except Exception as err:  # noqa: BLE001
            raise Rejected(
                f"{what} gives a state HA cannot write: {type(err).__name__}: {err}"
            ) from err
    problems = collector.problems_since(start)
    if problems:
        raise Rejected(f"{what} logged: {'; '.join(problems)}")
    return wants_write


def _check_states(
    item: dict[str, Any], config: Any, hass: Any, collector: _Collector, component: str
) -> None:
    """Deliver the item's sample states to Home Assistant's own entity for the config.

    Each sample goes to the config's state topic, or to the sample's "topic" (an availability
    or attributes topic, say). Components without a state topic (button, scene) get none.
    """
    samples = [
        (index, sample)
        for index, sample in enumerate(item.get("states") or [])
        if isinstance(config, dict) and (sample.get("topic") or config.get("state_topic"))
    ]
    if not samples:
        return
    with _mqtt_data(hass) as stub:
        entity, subscriptions = _mqtt_entity(component, config, hass)
        for index, sample in samples:
            topic = sample.get("topic") or config["state_topic"]
            if topic not in subscriptions:
                raise Rejected(
                    f"state #{index} is for {topic}, the entity does not subscribe to it"
                )
            _deliver(entity, subscriptions, f"state #{index}", topic, sample, collector, stub)


def _check_events(
    item: dict[str, Any], config: Any, hass: Any, collector: _Collector, component: str
) -> None:
    """Deliver the item's sample messages to Home Assistant's own MQTT event entity.

    Each sample is {"payload": <message>, "expect": "<event type>" or null, "attributes": {...}}:
    the message must fire exactly that event (null: none at all), with those attributes when
    given, and make Home Assistant log no warning or error.
    """
    events = item.get("events") or []
    if not events:
        return
    if component != "event" or not isinstance(config, dict):
        raise Rejected("events can only be checked for event component payloads")
    with _mqtt_data(hass) as stub:
        entity, subscriptions = _mqtt_entity(component, config, hass)
        for index, sample in enumerate(events):
            what = f"event #{index}"
            fired = _deliver(
                entity, subscriptions, what, config["state_topic"], sample, collector, stub
            )
            _check_fired(entity, fired, sample, f"{what} {_payload_text(sample.get('payload'))}")


def _check_fired(entity: Any, fired: bool, sample: dict[str, Any], what: str) -> None:
    """The event a sample fired against the one it expects, and its attributes."""
    attributes = dict(entity.state_attributes) if fired else {}
    event_type = attributes.pop("event_type", None)
    expect = sample.get("expect")
    if expect is None and fired:
        raise Rejected(f"{what} fired {event_type!r}, expected no event")
    if expect is not None and event_type != expect:
        outcome = f"fired {event_type!r}" if fired else "fired nothing"
        raise Rejected(f"{what} {outcome}, expected {expect!r}")
    if "attributes" in sample and fired and attributes != sample["attributes"]:
        raise Rejected(
            f"{what} has attributes {attributes!r}, expected {sample['attributes']!r}"
        )


async def _run(items: list[Any], prefix: str, verbose: bool) -> int:
    ha = _import_ha()
    from homeassistant.core import HomeAssistant

    with tempfile.TemporaryDirectory() as config_dir:
        # Newer HA versions validate templates only inside a running instance.
        hass = HomeAssistant(config_dir)
        validator = Validator(ha, prefix)
        collector = _Collector()
        ha_logger = logging.getLogger("homeassistant")
        ha_logger.addHandler(collector)
        ha_logger.setLevel(logging.INFO)
        ha_logger.propagate = False
        rejected = 0
        # (domain, unique_id) -> topic: the entity registry ignores a second entity
        # with the unique_id of another one ("does not generate unique IDs").
        unique_ids: dict[tuple[str, str], str] = {}
        print(f"# Home Assistant {ha['version']}, discovery prefix '{prefix}'")
        for item in items:
            collector.clear()
            topic = item.get("topic") if isinstance(item, dict) else None
            try:
                config = validator.check(item)
                _check_unique_id(validator, item, config, unique_ids)
                component = validator.parse_topic(topic)[0]
                device_based = component == DEVICE_COMPONENT
                _check_rendering(item, config, hass, collector, device_based)
                _check_states(item, config, hass, collector, component)
                _check_events(item, config, hass, collector, component)
            except Rejected as err:
                rejected += 1
                print(f"REJECTED {topic}: {err}")
            except Exception as err:  # noqa: BLE001
                rejected += 1
                print(f"REJECTED {topic}: processing failed: {type(err).__name__}: {err}")
            else:
                print(f"OK {topic}")
                if verbose and config is None:
                    print("  note: empty payload, HA removes the item")
                if verbose and isinstance(config, dict) and config:
                    dropped = _dropped_keys(item, validator, config)
                    if dropped:
                        print(f"  ignored keys: {', '.join(dropped)}")
            if verbose:
                for record in collector.records:
                    print(f"  {record}")
        ha_logger.removeHandler(collector)
        await hass.async_stop(force=True)
    return 1 if rejected else 0


def _ensure_homeassistant(version: str | None) -> None:
    """Re-run under the venv setup.sh made for `version`.

    Without a version, an interpreter that imports homeassistant is used as it is, and the
    2024 venv otherwise.
    """
    if version is None:
        try:
            import homeassistant  # noqa: F401
        except ImportError:
            version = "2024"
        else:
            return
    variable, default = VENVS[version]
    venv = os.environ.get(variable, default)
    venv_python = os.path.join(venv, "bin", "python")
    if os.path.realpath(sys.prefix) == os.path.realpath(venv):
        return
    if os.path.exists(venv_python):
        os.execv(venv_python, [venv_python, *sys.argv])
    print(
        f"error: no Home Assistant {version} checker at {venv} ({variable}); run "
        f"Tests/ha-schema/setup.sh {version} first",
        file=sys.stderr,
    )
    sys.exit(2)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("items", help="JSON file with an array of {topic, payload}")
    parser.add_argument(
        "--prefix",
        default="homeassistant",
        help="discovery prefix Home Assistant subscribes to (default: homeassistant)",
    )
    parser.add_argument(
        "-v",
        "--verbose",
        action="store_true",
        help="also list keys HA ignores and the warnings it logs for each item",
    )
    parser.add_argument(
        "--ha",
        choices=sorted(VENVS),
        help="check with the Home Assistant venv of this release line (setup.sh VERSION); "
        "default: this interpreter's homeassistant, else 2024",
    )
    args = parser.parse_args(argv)
    _ensure_homeassistant(args.ha)
    try:
        with open(args.items, encoding="utf-8") as handle:
            items = json.load(handle)
    except (OSError, ValueError) as err:
        print(f"error: cannot read {args.items}: {err}", file=sys.stderr)
        return 2
    if not isinstance(items, list):
        print(f"error: {args.items} must hold a JSON array", file=sys.stderr)
        return 2
    return asyncio.run(_run(items, args.prefix, args.verbose))


if __name__ == "__main__":
    sys.exit(main())
