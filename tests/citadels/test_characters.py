"""Each character's power, with the points RULES-NOTES settles."""

from __future__ import annotations

import pytest

from engine import IllegalMoveError
from engine.citadels.core import Action
from tests.citadels.positions import legal_texts, play, position


def finish_turn(state, *moves):
    """Play `moves`, then end the turn."""
    return play(state, *moves, "end turn")


def test_assassin_kills_any_other_character_and_the_victim_skips_silently():
    state = position(called="assassin")
    kills = [t for t in legal_texts(state) if t.startswith("kill")]
    assert kills == [f"kill {c}" for c in (
        "thief", "magician", "king", "bishop", "merchant", "architect", "warlord")]  # fmt: skip
    play(state, "kill merchant")
    victim = state.holders()["merchant"]
    finish_turn(state)
    # The round goes on without the victim ever acting or being revealed.
    while state.phase != "pick":
        view = state.observation(0)
        assert view.decision.called != "merchant"
        assert "merchant" not in dict(view.revealed)
        if victim is not None:
            assert "merchant" not in view.players[victim].characters or victim == 0
        play(state, "gold" if state.phase == "resource" else "end turn")


def test_thief_may_not_rob_the_assassin_nor_the_killed_character():
    state = position(called="thief", killed="king", revealed={"assassin": 1})
    robs = [t for t in legal_texts(state) if t.startswith("rob")]
    assert robs == [f"rob {c}" for c in ("magician", "bishop", "merchant", "architect", "warlord")]


def test_robbed_gold_moves_when_the_character_is_revealed_before_it_acts():
    seed = next(
        s for s in range(50) if position(called="thief", d0="bishop", seed=s).holders()["warlord"]
    )
    state = position(called="thief", gold=[1, 6, 6, 6], phase="resource", d0="bishop", seed=seed)
    play(state, "gold", "rob warlord", "end turn")
    victim = state.holders()["warlord"]
    while state.observation(0).decision.called != "warlord":
        play(state, "gold" if state.phase == "resource" else "end turn")
    before = state.observation(0).players
    assert state.observation(0).decision.called == "warlord"
    # Revealed: all the victim's gold is the Thief's, before its resource step.
    assert state.phase == "resource"
    assert before[victim].gold == 0
    assert before[0].gold == 3 + 6


def test_thief_gold_moves_for_every_seed_where_the_victim_is_held():
    moved = 0
    for seed in range(30):
        state = position(called="thief", gold=[0, 5, 5, 5], seed=seed)
        play(state, "rob architect", "end turn")
        victim = state.holders()["architect"]
        while state.phase != "pick" and state.observation(0).decision.called != "architect":
            play(state, "gold" if state.phase == "resource" else "end turn")
        if victim is not None and victim != 0:
            assert state.observation(0).players[0].gold >= 5
            assert state.observation(0).players[victim].gold == 0
            moved += 1
    assert moved > 0


def test_magician_swaps_whole_hands_even_with_an_empty_hand():
    state = position(
        called="magician", hands={0: [], 2: ["palace", "temple", "docks"]}, revealed={"thief": 1}
    )
    play(state, "swap p2")
    view = state.observation(0)
    assert view.players[0].hand == ("palace", "temple", "docks")
    assert view.players[2].hand_size == 0
    assert "swap p1" not in legal_texts(state)  # once per turn


def test_magician_swap_lets_both_players_know_both_hands():
    state = position(called="magician", hands={0: ["manor"], 2: ["palace"]}, revealed={"thief": 1})
    play(state, "swap p2")
    assert state.observation(2).players[2].hand == ("manor",)
    assert state.observation(2).players[0].hand == ("palace",)
    # A third player saw the exchange, not the cards.
    assert state.observation(1).players[2].hand == ()


def test_magician_puts_cards_under_the_deck_and_draws_as_many():
    state = position(
        called="magician",
        hands={0: ["manor", "manor", "tavern"]},
        deck_top=["palace", "castle", "temple"],
        revealed={"thief": 1},
    )
    play(state, "redraw manor", "redraw tavern")
    assert "swap p1" not in legal_texts(state)
    assert state.observation(1).decision.min_card is None  # the others don't see which
    play(state, "redraw done")
    view = state.observation(0)
    assert view.players[0].hand == ("manor", "castle", "palace")
    assert view.deck_known[:2] == ((0, "tavern"), (1, "manor"))  # under the deck
    assert state.observation(1).deck_known == ()


def test_others_see_only_that_cards_went_under_the_deck():
    state = position(called="magician", hands={0: ["manor", "tavern"]}, revealed={"thief": 1})
    action = state.string_to_action("redraw manor")
    assert state.observed_action(action, 1) == Action.A_SEEN_REDRAW
    assert state.observed_action(action, 0) == action


def test_king_takes_the_crown_when_revealed_and_collects_for_nobles():
    state = position(called="assassin", crown=2, phase="resource")
    play(state, "gold", "kill warlord", "end turn")
    king = state.holders()["king"]
    while state.phase != "pick" and state.observation(0).decision.called != "king":
        assert state.observation(0).crown == 2
        play(state, "gold" if state.phase == "resource" else "end turn")
    assert state.observation(0).crown == (2 if king is None else king)
    income = position(
        called="king", cities={0: ["manor", "castle", "temple", "school-of-magic"]},
        phase="resource",
    )  # fmt: skip
    play(income, "gold", "income")
    assert income.observation(0).players[0].gold == 2 + 2 + 3  # two nobles + School of Magic
    assert "income" not in legal_texts(income)


def test_killed_king_takes_the_crown_at_the_end_of_the_round():
    state = position(called="assassin", crown=2)
    play(state, "kill king", "end turn")
    heir = state.holders()["king"]
    while state.phase != "pick":
        assert state.observation(0).crown == 2
        play(state, "gold" if state.phase == "resource" else "end turn")
    assert state.observation(0).crown == (2 if heir is None else heir)


def test_crown_stays_when_nobody_picked_the_king():
    # The King is the face-down discard: nobody reveals it.
    state = position(called="assassin", d0="king", crown=3)
    assert state.holders()["king"] is None
    finish_turn(state)
    while state.phase != "pick":
        play(state, "gold" if state.phase == "resource" else "end turn")
    assert state.observation(0).crown == 3


def test_bishop_protects_his_city_from_the_warlord_unless_killed():
    cities = {1: ["temple", "manor"], 2: ["tavern"]}
    alive = position(called="warlord", gold=[9, 2, 2, 2], cities=cities,
                     revealed={"bishop": 1, "merchant": 2, "architect": 3})  # fmt: skip
    assert not any(t.startswith("destroy p1") for t in legal_texts(alive))
    assert "destroy p2 tavern" in legal_texts(alive)
    dead = position(called="warlord", gold=[9, 2, 2, 2], cities=cities, killed="bishop",
                    revealed={"king": 1, "merchant": 2, "architect": 3})  # fmt: skip
    assert "destroy p1 temple" in legal_texts(dead)


def test_bishop_and_merchant_income():
    bishop = position(called="bishop", cities={0: ["temple", "church", "tavern"]},
                      phase="resource")  # fmt: skip
    play(bishop, "gold", "income")
    assert bishop.observation(0).players[0].gold == 2 + 2 + 2
    merchant = position(called="merchant", cities={0: ["tavern", "market", "temple"]},
                        phase="resource")  # fmt: skip
    play(merchant, "gold")
    assert merchant.observation(0).players[0].gold == 2 + 2 + 1  # +1 after the resource step
    play(merchant, "income")
    assert merchant.observation(0).players[0].gold == 5 + 2


def test_merchant_bonus_comes_after_cards_too():
    state = position(called="merchant", deck_top=["manor", "palace"], phase="resource")
    play(state, "cards", "keep palace")
    assert state.observation(0).players[0].gold == 3


def test_income_once_before_or_after_building():
    state = position(called="warlord", gold=[3, 2, 2, 2], hands={0: ["barracks"]}, phase="resource")
    play(state, "gold", "build barracks", "income")
    assert state.observation(0).players[0].gold == 2 + 1
    again = position(called="warlord", gold=[3, 2, 2, 2], hands={0: ["barracks"]},
                     cities={0: ["prison"]}, phase="resource")  # fmt: skip
    play(again, "gold", "income", "build barracks")
    assert "income" not in legal_texts(again)
    assert again.observation(0).players[0].gold == 5 + 1 - 3


def test_architect_draws_two_more_and_builds_up_to_three():
    state = position(
        called="architect",
        gold=[20, 2, 2, 2],
        hands={0: ["manor"]},
        deck_top=["temple", "docks", "castle", "tavern"],
        phase="resource",
    )
    play(state, "gold")
    assert state.observation(0).players[0].hand == ("manor", "temple", "docks")
    play(state, "build manor", "build temple", "build docks")
    assert not any(t.startswith("build") for t in legal_texts(state))
    assert state.observation(0).players[0].city == ("manor", "temple", "docks")


def test_one_build_per_turn_for_everyone_else():
    state = position(called="merchant", gold=[20, 2, 2, 2], hands={0: ["manor", "temple"]},
                     phase="resource")  # fmt: skip
    play(state, "gold", "build manor")
    assert not any(t.startswith("build") for t in legal_texts(state))


def test_warlord_prices_limits_and_own_city():
    state = position(
        called="warlord",
        gold=[5, 2, 2, 2],
        cities={
            0: ["tavern"],
            1: ["watchtower", "keep", "university", "great-wall", "manor"],
            2: ["dragon-gate"],
        },
        revealed={"bishop": 3},
    )
    destroys = [t for t in legal_texts(state) if t.startswith("destroy")]
    # Own city allowed; a 1-cost district is free; the Keep never; Great Wall +1
    # on its owner's other districts; University and Dragon Gate cost 5 (6 with the Wall).
    assert destroys == [
        "destroy p0 tavern",
        "destroy p1 manor",
        "destroy p1 watchtower",
        "destroy p1 great-wall",
        "destroy p2 dragon-gate",
    ]
    play(state, "destroy p1 manor")
    view = state.observation(0)
    assert view.players[0].gold == 5 - 3
    assert "manor" not in view.players[1].city
    assert view.deck_known[0] == (0, "manor")  # under the deck, seen by all
    assert state.observation(2).deck_known[0] == (0, "manor")
    assert not any(t.startswith("destroy") for t in legal_texts(state))


def test_warlord_never_touches_a_complete_city():
    full = ["manor", "castle", "palace", "temple", "church", "monastery", "tavern"]
    state = position(called="warlord", gold=[9, 2, 2, 2], cities={1: full, 2: full[:6]},
                     first_complete=1, revealed={"bishop": 3})  # fmt: skip
    destroys = [t for t in legal_texts(state) if t.startswith("destroy")]
    assert destroys and not any(t.startswith("destroy p1") for t in destroys)


def test_warlord_income_counts_military():
    state = position(
        called="warlord", cities={0: ["prison", "barracks", "manor"]}, phase="resource"
    )
    play(state, "gold", "income")
    assert state.observation(0).players[0].gold == 2 + 2 + 2


def test_illegal_power_raises_and_changes_nothing():
    state = position(called="thief", killed="king", revealed={"assassin": 1})
    before = state.clone()
    with pytest.raises(IllegalMoveError):
        play(state, "rob king")
    with pytest.raises(IllegalMoveError):
        play(state, "kill merchant")
    assert state.observation(0) == before.observation(0)
    assert state.legal_actions() == before.legal_actions()
