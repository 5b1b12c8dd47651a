"""Each RulesConfig switch: the default reading and the other one, as RULES-NOTES settles them."""

from __future__ import annotations

from dataclasses import fields

from engine.royal_cities import RoyalCitiesState, RulesConfig
from tests.royal_cities.positions import legal_texts, play, position

MARKET4 = ["purple-3", "yellow-4", "pink-1", "white-1"]


def test_defaults() -> None:
    """RulesConfig defaults are the rulebook's reading of RULES-NOTES."""
    assert RulesConfig() == RulesConfig(
        crown_through_white=False,
        hero_on_every_revolt=True,
        white_with_existing_partner=False,
        catch_up_upper_inclusive=False,
        expert_royal_taxes=False,
        regent_scores_revolts=True,
    )
    assert [f.name for f in fields(RulesConfig)] == [
        "crown_through_white",
        "hero_on_every_revolt",
        "white_with_existing_partner",
        "catch_up_upper_inclusive",
        "expert_royal_taxes",
        "regent_scores_revolts",
    ]


def purple_score(rules: RulesConfig) -> list[int]:
    """Score a purple City 1, 5 under a white 6 at the end of a Season."""
    state = position(
        2,
        phase="construct",
        player=0,
        hands={0: []},
        market=MARKET4,
        cities={0: {"purple": ["purple-1", "purple-5", "white-6"]}},
        rules=rules,
    )
    play(state, "stop", "stop")
    return state.scores()


def test_crown_through_white() -> None:
    """Crowns: a white card on top hides the top crown below it (switch: it counts)."""
    # Bottom crowns: purple 5 only (purple 1 has none). Top crown: purple 5's, under white 6.
    assert purple_score(RulesConfig()) == [1, 0]
    assert purple_score(RulesConfig(crown_through_white=True)) == [2, 0]


def revolt_after_purchase(rules: RulesConfig) -> RoyalCitiesState:
    """Player 0, who has purchased, adds a third red card: a Revolt."""
    state = position(
        2,
        hands={0: []},
        market=["purple-3", "yellow-4", "red-1", "red-4"],
        purchased=(0,),
        pile=["red-6"],
        reserve_size=0,
        rules=rules,
    )
    play(state, "add")
    return state


def test_hero_on_every_revolt() -> None:
    """Revolt after purchasing: the Hero turns face up (switch off: only before purchasing)."""
    state = revolt_after_purchase(RulesConfig())
    obs = state.observation(1)
    # The Revolt discarded red 1 and red 4; the Villager (1) finds no City: turn over.
    assert obs.market == ("purple-3", "yellow-4", "red-6")
    assert obs.players[0].hero_up
    assert [v.vp for v in obs.players] == [0, 0]
    assert state.current_player == 1
    state = revolt_after_purchase(RulesConfig(hero_on_every_revolt=False))
    obs = state.observation(1)
    assert obs.market == ("purple-3", "yellow-4", "red-6")
    assert not obs.players[0].hero_up
    assert state.current_player == 1
    # Before purchasing, the Hero turns face up under both readings.
    for rules in (RulesConfig(), RulesConfig(hero_on_every_revolt=False)):
        state = position(
            2,
            hands={0: []},
            market=["purple-3", "yellow-4", "red-1", "red-4"],
            pile=["red-6"],
            reserve_size=0,
            rules=rules,
        )
        play(state, "add")
        assert state.observation(0).players[0].hero_up
        assert state.phase == "purchase"


def white_builds(rules: RulesConfig, red_city: list[str]) -> list[str]:
    state = position(
        2,
        phase="construct",
        player=0,
        hands={0: ["white-3"]},
        cities={0: {"red": red_city}},
        market=MARKET4,
        rules=rules,
    )
    return legal_texts(state)


def test_white_with_existing_partner() -> None:
    """A white card needs a coloured partner built with it (switch: one already in the City)."""
    switch = RulesConfig(white_with_existing_partner=True)
    assert white_builds(RulesConfig(), ["red-2"]) == ["stop"]
    assert white_builds(switch, ["red-2"]) == ["stop", "build white-3 red"]
    # Under the switch the partner must be coloured: a lone white (moved by a Knight) is not.
    assert white_builds(RulesConfig(), ["white-2"]) == ["stop"]
    assert white_builds(switch, ["white-2"]) == ["stop"]


def catch_up_draws(rules: RulesConfig, vp: list[int]) -> list[int]:
    state = position(
        2, phase="construct", player=0, hands={0: []}, vp=vp, market=MARKET4, rules=rules
    )
    play(state, "stop", "stop")
    return [v.hand_size for v in state.observation(0).players]


def test_catch_up_upper_inclusive() -> None:
    """Catch-up: spaces b with own <= b < leader (switch: own < b <= leader)."""
    default = RulesConfig()
    switch = RulesConfig(catch_up_upper_inclusive=True)
    # Own score on the 10: counted by default only.
    assert catch_up_draws(default, [10, 12]) == [1, 0]
    assert catch_up_draws(switch, [10, 12]) == [0, 0]
    # Leader on the 10: counted under the switch only.
    assert catch_up_draws(default, [8, 10]) == [0, 0]
    assert catch_up_draws(switch, [8, 10]) == [1, 0]
    # Strictly between: both.
    assert catch_up_draws(default, [9, 21]) == [2, 0]
    assert catch_up_draws(switch, [9, 21]) == [2, 0]
    # From 10 to 20: 10 by default, 20 under the switch.
    assert catch_up_draws(default, [10, 20]) == [1, 0]
    assert catch_up_draws(switch, [10, 20]) == [1, 0]


def taxed_cities(rules: RulesConfig) -> tuple[tuple[str, ...], ...]:
    state = position(
        1,
        phase="construct",
        season=3,
        hands={0: []},
        market=MARKET4,
        cities={
            0: {
                "pink": ["pink-4", "pink-6"],
                "yellow": ["yellow-1", "yellow-2"],
                "blue": ["blue-6"],
            }
        },
        rules=rules,
    )
    play(state, "stop")
    assert state.scores() == [6, 0]
    return state.observation(0).regent.cities


def test_expert_royal_taxes() -> None:
    """Royal Taxes: one City (expert switch: 1, 2, 3 Cities in Seasons 1, 2, 3)."""
    # Season 3; pink earned 3 VP, yellow 2, blue 1.
    assert taxed_cities(RulesConfig()) == ((), (), ("pink-6",), (), (), ())
    assert taxed_cities(RulesConfig(expert_royal_taxes=True)) == (
        (),
        ("yellow-2",),
        ("pink-6",),
        (),
        ("blue-6",),
        (),
    )


def solo_revolt(rules: RulesConfig) -> list[int]:
    state = position(
        1,
        hands={0: []},
        market=["purple-3", "yellow-4", "red-1", "red-2"],
        pile=["red-5", "green-3"],
        reserve_size=0,
        rules=rules,
    )
    play(state, "add", "regent green-3 green")
    assert state.phase == "purchase"
    return state.scores()


def test_regent_scores_revolts() -> None:
    """Solo Revolt before purchasing: the Regent gains the row's VP (switch off: it does not)."""
    assert solo_revolt(RulesConfig()) == [0, 1]
    assert solo_revolt(RulesConfig(regent_scores_revolts=False)) == [0, 0]
