"""SmartBot, the outside Citadels opponent rebuilt in bench/: whole legal games at every player
count, and each of its published rules checked at every decision where it applies, over
seeded games of SmartBots."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

import engine
from bench.citadels_smartbot import COLOUR, COST, TARGET, SeatTies, SmartBot
from clients.tournament.own_bot import OwnBot

SPEC = "python:bench.citadels_smartbot:SmartBot"


@pytest.mark.parametrize("players", range(2, 8))
def test_it_plays_whole_legal_games(players: int) -> None:
    for seed in range(3):
        state = engine.new_game("citadels", players, seed=seed)
        bots = [OwnBot(SPEC, "citadels", players) for _ in range(players)]
        step = 0
        while not state.is_terminal():
            action = bots[state.current_player].choose(state, seed * 10_000 + step)
            assert action in state.legal_actions()
            state.apply_action(action)
            step += 1
        assert sum(state.returns()) == pytest.approx(1.0)


def _decisions(
    kind: type[SmartBot] = SmartBot, games: int = 12, players: int = 4
) -> Iterator[tuple[Any, list[str], str]]:
    """(observation of the player to move, legal moves' texts, the move the bot made)."""
    for seed in range(games):
        state = engine.new_game("citadels", players, seed=100 + seed)
        bots = [kind("citadels", players) for _ in range(players)]
        step = 0
        while not state.is_terminal():
            player = state.current_player
            moves = [state.action_to_string(a) for a in state.legal_actions()]
            action = bots[player].choose(state, seed * 10_000 + step)
            yield state.observation(player), moves, state.action_to_string(action)
            state.apply_action(action)
            step += 1


def test_each_rule_where_it_applies() -> None:
    checked: dict[str, int] = {}

    def check(rule: str, holds: bool) -> None:
        assert holds, rule
        checked[rule] = checked.get(rule, 0) + 1

    for obs, moves, move in _decisions():
        me = obs.players[obs.observer]
        verb = move.split()[0]
        if obs.decision.phase == "pick" and len(me.hand) <= 1 and "pick magician" in moves:
            check("the Magician with one card or none", move == "pick magician")
        if obs.decision.phase == "resource" and not me.hand:
            check("cards with an empty hand", move == "cards")
        if verb == "keep":
            kept = [COST[m.split()[1]] for m in moves if m.startswith("keep ")]
            check("keep the cheapest", COST[move.split()[1]] == min(kept))
        if verb == "kill":
            open_ = {"architect", "merchant", "king"} - set(obs.draft.face_up)
            if any(f"kill {c}" in moves for c in open_):
                check("kill the Architect, Merchant or King", move.split()[1] in open_)
        if verb == "destroy":
            victims = {int(m.split()[1][1:]) for m in moves if m.startswith("destroy ")}
            victims.discard(obs.observer)
            most = max(len(obs.players[p].city) for p in victims)
            victim = int(move.split()[1][1:])
            check("destroy in the largest city", len(obs.players[victim].city) == most)
            theirs = [COST[m.split()[2]] for m in moves if m.startswith(f"destroy p{victim} ")]
            check("destroy the cheapest there", COST[move.split()[2]] == min(theirs))
        called = obs.decision.called
        if verb == "build" and called not in (None, "architect"):
            new = [c for c in me.hand if c not in me.city]
            own = [c for c in new if COLOUR[c] == TARGET.get(called)]
            cheapest_own = min((COST[c] for c in own), default=99)
            wanted = cheapest_own if cheapest_own <= me.gold else min(COST[c] for c in new)
            check("build the cheapest, its colour first", COST[move.split()[1]] == wanted)
    assert set(checked) == {
        "the Magician with one card or none",
        "cards with an empty hand",
        "keep the cheapest",
        "kill the Architect, Merchant or King",
        "destroy in the largest city",
        "destroy the cheapest there",
        "build the cheapest, its colour first",
    }, checked


def _tied_victims(kind: type[SmartBot]) -> Iterator[tuple[list[int], int]]:
    """Each Warlord's choice between players tied for the largest city: (them, its pick)."""
    for obs, moves, move in _decisions(kind, games=30):
        if move.startswith("destroy "):
            victims = {int(m.split()[1][1:]) for m in moves if m.startswith("destroy ")}
            victims.discard(obs.observer)
            most = max(len(obs.players[p].city) for p in victims)
            tied = sorted(p for p in victims if len(obs.players[p].city) == most)
            if len(tied) > 1:
                yield tied, int(move.split()[1][1:])


def test_ties_between_players_go_to_the_lowest_seat_as_in_the_original() -> None:
    ties = list(_tied_victims(SeatTies))
    assert ties and all(pick == tied[0] for tied, pick in ties)


def test_ties_between_players_are_drawn_at_random_by_default() -> None:
    ties = list(_tied_victims(SmartBot))
    assert all(pick in tied for tied, pick in ties)
    assert any(pick != tied[0] for tied, pick in ties)


def test_it_plays_only_citadels() -> None:
    with pytest.raises(ValueError, match="plays citadels"):
        SmartBot("royal_cities", 2)
