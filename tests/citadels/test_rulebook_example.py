"""The rulebook's worked example of a player's turn ("Exemple de tour d'un joueur")."""

from __future__ import annotations

from tests.citadels.positions import legal_texts, play, position


def test_sophie_the_robbed_warlord_takes_gold_destroys_the_market_collects_then_builds():
    # Hervé (p0, the Architect) has just finished; Anna (p1) is the Thief and
    # robbed the Warlord; p3 is the King. Sophie (p2) holds the Warlord, with 4
    # gold, a Prison and the School of Magic in her city and a Barracks in hand.
    def example(seed):
        return position(
            called="architect",
            d0="bishop",
            revealed={"thief": 1, "king": 3},
            robbed="warlord",
            gold=[1, 2, 4, 0],
            cities={0: ["market", "manor", "castle", "palace"], 2: ["prison", "school-of-magic"]},
            hands={2: ["barracks"]},
            seed=seed,
        )

    seed = next(s for s in range(100) if example(s).holders()["warlord"] == 2)
    state = example(seed)
    play(state, "end turn")
    # 1. Sophie reveals the Warlord: all her gold goes to Anna at once.
    view = state.observation(2)
    assert view.decision.called == "warlord" and state.current_player == 2
    assert (view.players[1].gold, view.players[2].gold) == (2 + 4, 0)
    # 2. Her coffers are empty: she takes 2 gold.
    play(state, "gold")
    # 3. Hervé leads: she pays 1 gold to destroy his Market, which goes under the deck.
    play(state, "destroy p0 market")
    view = state.observation(2)
    assert "market" not in view.players[0].city
    assert view.deck_known[0] == (0, "market")
    # 4. Income for her military districts: the Prison and the School of Magic.
    play(state, "income")
    assert state.observation(2).players[2].gold == 3
    # 5. She builds the Barracks with her 3 gold; it can no longer pay her this turn.
    play(state, "build barracks")
    assert state.observation(2).players[2].gold == 0
    assert "income" not in legal_texts(state)
    assert legal_texts(state) == ["end turn"]
    # The Warlord was the last character: the round ends.
    play(state, "end turn")
    assert state.phase == "pick"
