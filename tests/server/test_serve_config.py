"""`regent serve --config FILE`: the file's limits applied, the flags over them, a key the
file should not have refused by name; and `--log-format json`, every line of which parses."""

from __future__ import annotations

import json
import re
import signal
from pathlib import Path

import grpc
import pytest

from clients.cli.main import build_parser
from regent.v1 import advisor_pb2, advisor_pb2_grpc, common_pb2
from server.config import ConfigError, load, load_keys, server_limits
from server.limits import ServerLimits
from tests.commands import Serving, regent
from tests.support.random_games import position

CONFIG = """
[limits]
max_iterations = 500
max_seconds = 2.5
match_ttl = 3600
quota_loopback = true

[api_keys.club]
key = "club-secret-0123456789"
matches = 7
"""


def _limits(path: Path, *flags: str) -> ServerLimits:
    args = build_parser().parse_args(["serve", "--config", str(path), *flags])
    return server_limits(args, load(path))


def test_the_file_sets_limits_and_the_flags_override_it(tmp_path: Path) -> None:
    path = tmp_path / "regent.toml"
    path.write_text(CONFIG)
    limits = _limits(path, "--max-iterations", "700", "--no-quota-loopback")
    assert limits.max_iterations == 700  # the flag's
    assert limits.max_seconds == 2.5 and limits.match_ttl == 3600.0  # the file's
    assert limits.quota_loopback is False
    assert limits.max_searches == ServerLimits().max_searches  # the default
    [key] = load(path).keys
    assert (key.name, key.matches, key.searches_per_second) == ("club", 7, None)


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("[limits]\nmax_serches = 3\n", "'limits.max_serches'"),
        ("max_searches = 3\n", "'max_searches'"),
        ("[limits]\nmax_searches = 0\n", "limits.max_searches"),
        ("[limits]\nmax_seconds = 'long'\n", "limits.max_seconds"),
        ('[api_keys.a]\nkey = "0123456789abcdef"\nquota = 3\n', "api_keys.a"),
        ('[api_keys.a]\nkey = "short"\n', "api_keys.a.key"),
        ("[limits\n", "not TOML"),
    ],
)
def test_a_bad_file_is_refused_naming_the_key(tmp_path: Path, text: str, named: str) -> None:
    path = tmp_path / "regent.toml"
    path.write_text(text)
    with pytest.raises(ConfigError) as refused:
        load(path)
    assert named in str(refused.value) and str(path) in str(refused.value)


def test_a_key_file_holds_keys_only(tmp_path: Path) -> None:
    path = tmp_path / "keys.toml"
    path.write_text(CONFIG)
    with pytest.raises(ConfigError, match="'limits'"):
        load_keys(path)


def test_serve_refuses_an_unknown_key_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "regent.toml"
    path.write_text("[limits]\nmax_serches = 3\n")
    result = regent("serve", "--config", str(path), "--no-web")
    assert result.returncode == 2, result.stderr
    [line] = result.stderr.splitlines()
    assert line.startswith("regent serve: ") and "limits.max_serches" in line


def test_serve_applies_the_file_under_its_flags_and_logs_json(tmp_path: Path) -> None:
    """The file's max_seconds refuses a longer search; the flag's max_iterations (700, over
    the file's 500) is the one a request meets; every log line is a JSON object."""
    path = tmp_path / "regent.toml"
    path.write_text(CONFIG)
    flags = ["--config", str(path), "--max-iterations", "700", "--log-format", "json"]
    server = Serving("--address", "127.0.0.1:0", "--no-web", "--db", ":memory:", *flags)
    try:
        address = re.sub(r"[^\d.:]", "", server.address)
        _, observation = position(2, seed=5)
        with grpc.insecure_channel(address) as channel:
            advisor = advisor_pb2_grpc.AdvisorServiceStub(channel)
            for budget, limit in (({"iterations": 800}, "limit of 700"),
                                  ({"seconds": 3}, "limit of 2.5 s")):  # fmt: skip
                request = advisor_pb2.RecommendRequest(
                    observation=observation, budget=common_pb2.SearchBudget(**budget)
                )
                with pytest.raises(grpc.RpcError) as refused:
                    advisor.Recommend(request, timeout=30)
                assert refused.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
                assert limit in (refused.value.details() or "")
        server.wait_for(r'"code": "RESOURCE_EXHAUSTED"')
    finally:
        server.process.send_signal(signal.SIGTERM)
        assert server.process.wait(timeout=30) == 0
        server._reader.join(timeout=5)
    lines = [json.loads(line) for line in server.log]
    assert {"time", "level", "logger", "message"} <= lines[0].keys()
    calls = [line for line in lines if line.get("method") == "/regent.v1.AdvisorService/Recommend"]
    assert [c["code"] for c in calls] == ["RESOURCE_EXHAUSTED"] * 2
    assert all(isinstance(c["ms"], float) for c in calls)
    assert lines[-1]["message"] == "regent stopped"
