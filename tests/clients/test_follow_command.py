"""`regent follow`: the moves to enter for another player, then one applied with the card the
table showed, the new observation written back to the file."""

from __future__ import annotations

from pathlib import Path

from google.protobuf import json_format

from clients.cli.main import main
from convert import observation_from_proto, observation_to_proto
from regent.v1 import advisor_pb2
from tests.royal_cities.positions import position

MARKET = ["purple-3", "yellow-4", "red-1", "blue-2"]


def test_follow_lists_applies_and_writes(tmp_path: Path, capsys) -> None:
    state = position(market=MARKET, player=1, hands={0: ["pink-2"]}, hidden_hands={1: 3})
    path = tmp_path / "table.json"
    path.write_text(json_format.MessageToJson(observation_to_proto(state.observation(0))))
    assert main(["follow", str(path), "--local"]) == 0
    listed = capsys.readouterr().out
    assert "p1 to act" in listed and "  add" in listed and "  play hand ?" in listed
    assert main(["follow", str(path), "--local", "--move", "add"]) == 3
    assert "turned up" in capsys.readouterr().err
    assert main(["follow", str(path), "--local", "--move", "add", "--reveal", "green-6",
                 "--write"]) == 0  # fmt: skip
    after = observation_from_proto(json_format.Parse(path.read_text(), advisor_pb2.Observation()))
    assert after.market == (*MARKET, "green-6") and after.decision.player == 0
    assert main(["follow", str(path), "--local", "--move", "fly"]) == 2
    assert "move.text" in capsys.readouterr().err
