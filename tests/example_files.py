"""The observation files of examples/ and the forms of each that protobuf's JSON mapping lets
a reader meet, for the tests that every reader of observations (`regent hint`, the hint page,
the Node client) takes them all.

The files are written in the canonical form (`MessageToJson`: lowerCamelCase field names, enums
by name); a reader must also accept the .proto field names and enums by number.
"""

from __future__ import annotations

from pathlib import Path

from google.protobuf import json_format

import engine
from convert import observation_from_proto
from regent.v1 import advisor_pb2

EXAMPLES = sorted((Path(__file__).resolve().parents[1] / "examples").glob("*.json"))
#: "as-written": the file itself; "proto-names": the .proto's field names (`hand_size`);
#: "enum-numbers": lowerCamelCase names with enums by number.
FORMS = ("as-written", "proto-names", "enum-numbers")


def parsed(path: Path) -> advisor_pb2.Observation:
    """The example file's observation, read by Python's protobuf library."""
    return json_format.Parse(path.read_text(), advisor_pb2.Observation())


def legal_moves(path: Path) -> set[str]:
    """The texts of the moves the player to act has in the example, by the engine."""
    state = engine.state_from_observation(observation_from_proto(parsed(path)))
    return {state.action_to_string(a) for a in state.legal_actions()}


def rendering(path: Path, form: str) -> str:
    """The example file's observation as JSON in `form` (one of FORMS)."""
    if form == "as-written":
        return path.read_text()
    message = parsed(path)
    if form == "proto-names":
        return json_format.MessageToJson(message, preserving_proto_field_name=True)
    if form == "enum-numbers":
        return json_format.MessageToJson(message, use_integers_for_enums=True)
    raise ValueError(f"unknown form {form!r}: one of {', '.join(FORMS)}")
