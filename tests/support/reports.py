"""What every search report promises about its order, for the service's and the client's tests."""

from __future__ import annotations

from regent.v1 import common_pb2


def check_order(report: common_pb2.SearchReport, alone: bool) -> None:
    """The estimated moves first (a hint's `show`), by their win chance (solo, their mean
    reward), then the others, most visited first."""
    shown = [m for m in report.moves if m.estimated]
    assert list(report.moves[: len(shown)]) == shown
    worth = [m.mean_reward if alone else m.win_chance for m in shown]
    assert worth == sorted(worth, reverse=True)
    rest = [m.visits for m in report.moves[len(shown) :]]
    assert rest == sorted(rest, reverse=True)
