"""Royal Cities' converter under fuzzing: 300 random mutations of valid messages (fields
dropped, added, changed, nudged or duplicated; bytes overwritten, inserted, deleted or cut;
random bytes that parse) never make the converter, or the engine behind it, raise anything
but InvalidObservationError."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import DecodeError, Message

from convert import observation_from_proto, observation_to_proto
from engine.errors import InvalidObservationError
from engine.royal_cities import state_from_observation
from regent.v1 import advisor_pb2
from tests.convert.royal_cities_messages import PLAYER_COUNTS, base_message, sample

EDGE_INTS = (-(2**31), -40000, -1, 0, 1, 2, 5, 6, 7, 15, 16, 21, 85, 86, 100, 101, 255, 2**31 - 1)
STRINGS = ("", "setup", "catch_up", "p0 red", "p3 green", "regent purple", "p4 red", "x", "é")


def _repeated(field: FieldDescriptor) -> bool:
    is_repeated = getattr(field, "is_repeated", None)  # protobuf >= 6.32; `label` before
    return bool(is_repeated) if is_repeated is not None else field.label == field.LABEL_REPEATED


def _slots(
    msg: Message, out: list[tuple[Message, FieldDescriptor]]
) -> list[tuple[Message, FieldDescriptor]]:
    """Every (message, field) in the tree, set or not."""
    for field in msg.DESCRIPTOR.fields:
        out.append((msg, field))
        if field.type == field.TYPE_MESSAGE:
            if _repeated(field):
                for child in getattr(msg, field.name):
                    _slots(child, out)
            elif msg.HasField(field.name):
                _slots(getattr(msg, field.name), out)
    return out


def _scalar(field: FieldDescriptor, rng: random.Random) -> object:
    if field.type == field.TYPE_BOOL:
        return rng.random() < 0.5
    if field.type == field.TYPE_STRING:
        return rng.choice(STRINGS)
    if field.type == field.TYPE_ENUM:
        return rng.randrange(-2, 18) if rng.random() < 0.8 else rng.choice(EDGE_INTS)
    return rng.choice(EDGE_INTS) if rng.random() < 0.5 else rng.randrange(-2, 25)


def _fill(msg: Message, rng: random.Random, depth: int = 0) -> None:
    """Set a random half of a message's fields to random values."""
    for field in msg.DESCRIPTOR.fields:
        if rng.random() < 0.5 or (field.type == field.TYPE_MESSAGE and depth > 2):
            continue
        if field.type == field.TYPE_MESSAGE and _repeated(field):
            for _ in range(rng.randrange(4)):
                _fill(getattr(msg, field.name).add(), rng, depth + 1)
        elif field.type == field.TYPE_MESSAGE:
            _fill(getattr(msg, field.name), rng, depth + 1)
        elif _repeated(field):
            getattr(msg, field.name).extend(_scalar(field, rng) for _ in range(rng.randrange(8)))
        else:
            setattr(msg, field.name, _scalar(field, rng))


def _mutate_fields(msg: Message, rng: random.Random) -> None:
    """Drop, add, change, nudge or duplicate one to three random fields or list entries."""
    for _ in range(rng.randint(1, 3)):
        parent, field = rng.choice(_slots(msg, []))
        how = rng.randrange(5)
        if _repeated(field):
            items = getattr(parent, field.name)
            if how == 0 or not items:
                if field.type == field.TYPE_MESSAGE:
                    _fill(items.add(), rng)
                else:
                    items.append(_scalar(field, rng))
            elif how == 1:
                del items[rng.randrange(len(items))]
            elif how == 2:
                parent.ClearField(field.name)
            elif field.type == field.TYPE_MESSAGE:
                items.add().CopyFrom(items[rng.randrange(len(items))])
            else:
                items[rng.randrange(len(items))] = _scalar(field, rng)
        elif how <= 1:
            parent.ClearField(field.name)
        elif field.type == field.TYPE_MESSAGE:
            _fill(getattr(parent, field.name), rng)
        elif how == 2 and field.type in (field.TYPE_INT32, field.TYPE_ENUM):
            setattr(parent, field.name, getattr(parent, field.name) + rng.choice((-1, 1)))
        else:
            setattr(parent, field.name, _scalar(field, rng))


def _mutate_bytes(data: bytes, rng: random.Random) -> bytes:
    """Overwrite, insert, delete or truncate a few bytes."""
    out = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        at = rng.randrange(len(out) + 1)
        how = rng.randrange(4)
        if how == 0 and at < len(out):
            out[at] = rng.randrange(256)
        elif how == 1:
            out[at:at] = rng.randbytes(rng.randint(1, 4))
        elif how == 2:
            del out[at : at + rng.randint(1, 8)]
        else:
            del out[at:]
    return bytes(out)


def fuzz_messages(count: int, seed: int) -> Iterator[advisor_pb2.Observation]:
    """`count` mutated messages: field mutations, mutated and random bytes that parse."""
    rng = random.Random(seed)
    bases = [base_message(n) for n in PLAYER_COUNTS]
    bases += [observation_to_proto(obs) for obs in sample(3, 1, every=37)]
    made = 0
    while made < count:
        msg = advisor_pb2.Observation()
        msg.CopyFrom(rng.choice(bases))
        kind = rng.random()
        if kind < 0.6:
            _mutate_fields(msg, rng)
        else:
            data = (
                _mutate_bytes(msg.SerializeToString(), rng)
                if kind < 0.9
                else rng.randbytes(rng.randrange(120))
            )
            msg = advisor_pb2.Observation()
            try:
                msg.ParseFromString(data)
            except DecodeError:
                continue
        made += 1
        yield msg


def test_fuzzed_messages_raise_only_invalid_observation_error() -> None:
    """Whatever a message holds, the converter raises only InvalidObservationError; and what
    it accepts, state_from_observation accepts or rejects with InvalidObservationError."""
    converted = rebuilt = 0
    for i, msg in enumerate(fuzz_messages(300, seed=2024)):
        context = f"case {i}: {msg.SerializeToString()!r}"
        try:
            obs = observation_from_proto(msg)
        except InvalidObservationError as err:
            assert isinstance(err.field, str) and err.field, context
            continue
        except Exception as err:  # pragma: no cover - the failure being tested for
            pytest.fail(f"converter raised {err!r} on {context}")
        converted += 1
        try:
            state_from_observation(obs, seed=i)
        except InvalidObservationError:
            continue
        except Exception as err:  # pragma: no cover - the failure being tested for
            pytest.fail(f"state_from_observation raised {err!r} on {context}")
        rebuilt += 1
    assert converted >= 50 and rebuilt >= 10  # the fuzzing reaches the engine, and past it
