"""examples/*.json: written in the canonical form of protobuf's JSON mapping, and read in every
form the mapping allows by `regent hint` (in process) and by the hint page's gateway (what the
page's Import sends the file through). The Node client's side is tests/clients/test_node_client.py.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from google.protobuf import json_format

from clients.cli import main as cli
from clients.cli.shared import read_observation
from tests.example_files import EXAMPLES, FORMS, legal_moves, parsed, rendering
from tests.support.server import serving
from tests.support.web import GatewayThread, http


@pytest.fixture(scope="module")
def web() -> Iterator[GatewayThread]:
    """The page's gateway in front of a real server."""
    with serving() as service:
        gateway = GatewayThread(service.address)
        yield gateway
        gateway.stop()


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_the_examples_are_canonical(path: Path) -> None:
    assert path.read_text() == json_format.MessageToJson(parsed(path), indent=2) + "\n"


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_regent_hint_reads_every_form(
    path: Path, form: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    written = tmp_path / path.name
    written.write_text(rendering(path, form))
    assert read_observation(str(written)) == parsed(path)
    status = cli.main(["hint", str(written), "--local", "--iterations", "50", "--seed", "1"])
    out = capsys.readouterr().out
    assert status == 0, out
    assert out.splitlines()[0].removeprefix("Recommended move: ") in legal_moves(path)


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_the_page_reads_every_form(web: GatewayThread, path: Path, form: str) -> None:
    answer = http(web.url + "/api/observation", raw=rendering(path, form).encode())
    assert answer.status == 200, answer.raw
    expected = json_format.MessageToDict(parsed(path), preserving_proto_field_name=True)
    assert answer.json == expected


def test_the_page_names_a_field_no_observation_has(web: GatewayThread) -> None:
    answer = http(web.url + "/api/observation", {"royalCities": {"handSize": 2}})
    assert answer.status == 400
    assert answer.json["error"]["fields"][0]["field"] == "royalCities.handSize"
