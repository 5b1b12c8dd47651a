"""`regent serve`'s configuration: the server's limits and API keys from a TOML file, and the
limits' flags, made from `ServerLimits`' fields so that a new field is a flag and a key of the
file at once, with its `#:` comment as help. Flags override the file; the file overrides the
defaults; a key the file should not have is an error naming it.

    [limits]                   # any field of ServerLimits
    max_searches = 8
    match_ttl = 86400.0

    [api_keys.club-a]          # a caller's name
    key = "a secret of 16 characters or more"
    matches = 200              # live matches it may have (default: no quota of its own)
    searches_per_second = 10   # (default: no quota of its own)
"""

from __future__ import annotations

import argparse
import inspect
import math
import re
import sys
import typing
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from server.limits import ServerLimits
from server.quotas import MIN_KEY_LENGTH, ApiKey

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

#: Flags named otherwise than their field (the name they have always had).
FLAG_NAMES = {"default_threads": "threads"}
#: What an API key's table may hold: its key and its quotas.
_KEY_FIELDS = {"key": str, "matches": int, "searches_per_second": float}
_FIELD_LINE = re.compile(r"^(\w+)\s*:")


class ConfigError(ValueError):
    """A config file, API key file or limit that the server refuses; the message names the
    file and the key."""


@dataclass(frozen=True)
class Config:
    """What a config file sets: limits by field name, and API keys."""

    limits: dict[str, Any] = field(default_factory=dict)
    keys: tuple[ApiKey, ...] = ()


def _kinds() -> dict[str, type]:
    hints = typing.get_type_hints(ServerLimits)
    return {f.name: hints[f.name] for f in fields(ServerLimits)}


def field_docs(cls: type) -> dict[str, str]:
    """Each field's `#:` comment (the lines just above it), by field name."""
    try:
        source = inspect.getsource(cls)
    except (OSError, TypeError):  # no source shipped: flags without help
        return {}
    docs: dict[str, str] = {}
    pending: list[str] = []
    for line in source.splitlines():
        text = line.strip()
        if text.startswith("#:"):
            pending.append(text[2:].strip())
            continue
        found = _FIELD_LINE.match(text)
        if found and pending:
            docs[found.group(1)] = " ".join(pending)
        pending = []
    return docs


def checked(name: str, kind: type, value: Any) -> Any:
    """`value` for the limit `name` of type `kind`; ConfigError saying what it must be.
    Counts are 1 or more, times and rates 0 or more."""
    if kind is bool:
        if not isinstance(value, bool):
            raise ConfigError(f"{name}: must be true or false, not {value!r}")
        return value
    if kind is str:
        if not isinstance(value, str):
            raise ConfigError(f"{name}: must be a string, not {value!r}")
        return value
    number = isinstance(value, (int, float)) and not isinstance(value, bool)
    if kind is int:
        if not number or not float(value).is_integer() or value < 1:
            raise ConfigError(f"{name}: must be a whole number of 1 or more, not {value!r}")
        return int(value)
    if not number or not math.isfinite(value) or value < 0:
        raise ConfigError(f"{name}: must be a number of 0 or more, not {value!r}")
    return float(value)


def _flag_type(name: str, kind: type) -> Any:
    def parse(text: str) -> Any:
        try:
            return checked(name, kind, kind(text) if kind is not str else text)
        except ValueError as err:
            message = str(err).split(": ", 1)[-1] if isinstance(err, ConfigError) else str(err)
            raise argparse.ArgumentTypeError(message) from None

    parse.__name__ = kind.__name__
    return parse


def flag_of(name: str) -> str:
    """The flag of the limit `name`: `max_searches` -> `--max-searches`."""
    return "--" + FLAG_NAMES.get(name, name).replace("_", "-")


def add_limit_flags(parser: argparse.ArgumentParser) -> None:
    """One flag per field of ServerLimits (dest `limit_NAME`, None when not given)."""
    defaults = ServerLimits()
    docs = field_docs(ServerLimits)
    group = parser.add_argument_group(
        "limits", "each is also a key of the config file's [limits] table (docs/operating.md)"
    )
    for name, kind in _kinds().items():
        default = getattr(defaults, name)
        shown = ("true" if default else "false") if kind is bool else f"{default!r:.40}"
        text = docs.get(name, name.replace("_", " ")).replace("%", "%%")
        options: dict[str, Any] = {"dest": f"limit_{name}", "default": None}
        if kind is bool:
            options["action"] = argparse.BooleanOptionalAction
        else:
            options["type"] = _flag_type(name, kind)
            options["metavar"] = {int: "N", float: "X", str: "TEXT"}[kind]
        group.add_argument(flag_of(name), help=f"{text} (default: {shown})", **options)


def _read(path: Path) -> dict[str, Any]:
    try:
        with path.open("rb") as file:
            return tomllib.load(file)
    except OSError as err:
        raise ConfigError(f"{path}: {err.strerror or err}") from None
    except tomllib.TOMLDecodeError as err:
        raise ConfigError(f"{path}: not TOML: {err}") from None


def _keys(path: Path, tables: Any) -> tuple[ApiKey, ...]:
    if not isinstance(tables, dict):
        raise ConfigError(f"{path}: api_keys: must be tables [api_keys.NAME]")
    keys = []
    for name, table in tables.items():
        where = f"{path}: api_keys.{name}"
        if not isinstance(table, dict):
            raise ConfigError(f'{where}: must be a table with key = "..."')
        for key, value in table.items():
            kind = _KEY_FIELDS.get(key)
            if kind is None:
                raise ConfigError(f"{where}: unknown key {key!r} (it may have key, matches, "
                                  "searches_per_second)")  # fmt: skip
            try:
                checked(key, kind, value)
            except ConfigError as err:
                raise ConfigError(f"{where}.{err}") from None
        if "key" not in table:
            raise ConfigError(f'{where}: no key = "..."')
        if len(table["key"]) < MIN_KEY_LENGTH:
            raise ConfigError(f"{where}.key: at least {MIN_KEY_LENGTH} characters")
        keys.append(
            ApiKey(name, table["key"], table.get("matches"), table.get("searches_per_second"))
        )
    return tuple(keys)


def load(path: Path) -> Config:
    """The config file at `path`; ConfigError naming the key that is wrong."""
    data = _read(path)
    kinds = _kinds()
    for key in data:
        if key not in ("limits", "api_keys"):
            raise ConfigError(
                f"{path}: unknown key {key!r} (the file has a [limits] table and "
                "[api_keys.NAME] tables)"
            )
    limits = data.get("limits", {})
    if not isinstance(limits, dict):
        raise ConfigError(f"{path}: limits: must be a table [limits]")
    for key, value in limits.items():
        if key not in kinds:
            raise ConfigError(f"{path}: unknown key 'limits.{key}' (not a server limit)")
        try:
            limits[key] = checked(key, kinds[key], value)
        except ConfigError as err:
            raise ConfigError(f"{path}: limits.{err}") from None
    return Config(limits, _keys(path, data.get("api_keys", {})))


def load_keys(path: Path) -> tuple[ApiKey, ...]:
    """The API keys of a key file: `[api_keys.NAME]` tables as in a config file, only."""
    data = _read(path)
    for key in data:
        if key != "api_keys":
            raise ConfigError(
                f"{path}: unknown key {key!r} (a key file has [api_keys.NAME] tables)"
            )
    return _keys(path, data.get("api_keys", {}))


def server_limits(args: argparse.Namespace, config: Config) -> ServerLimits:
    """The limits in force: the flags given, else the config file's, else the defaults;
    ConfigError when they disagree with each other."""
    values = dict(config.limits)
    for name in _kinds():
        given = getattr(args, f"limit_{name}", None)
        if given is not None:
            values[name] = given
    limits = ServerLimits(**values)
    if limits.default_threads > limits.max_threads:
        raise ConfigError(
            f"{flag_of('default_threads')} ({limits.default_threads}) cannot exceed "
            f"{flag_of('max_threads')} ({limits.max_threads})"
        )
    return limits
