"""Royal Cities (Cités Royales), 1-4 players and the solo mode against the Regent."""

from collections.abc import Sequence
from typing import Any

from engine.errors import InvalidObservationError
from engine.interface import State
from engine.registry import Example, GameSpec, register
from engine.royal_cities.cards import NUM_KINDS, card_table, copies
from engine.royal_cities.legend import legend_grade
from engine.royal_cities.observation import Decision, Observation, PlayerView, RegentView
from engine.royal_cities.rules import RulesConfig
from engine.royal_cities.state import TERMINAL, RoyalCitiesState, play_random_games
from engine.royal_cities.state import state_from_observation as _build_state

__all__ = [
    "SPEC",
    "TERMINAL",
    "Decision",
    "Observation",
    "PlayerView",
    "RegentView",
    "RoyalCitiesState",
    "RulesConfig",
    "state_from_observation",
]

#: Fewer cards in hand make dull advice.
_MIN_HAND = 2
#: Cards in the box.
_NUM_CARDS = sum(copies(kind) for kind in range(NUM_KINDS))


def state_from_observation(obs: Any, seed: int = 0, draws: Sequence[str] = ()) -> RoyalCitiesState:
    """The game continued from one player's observation (see `state.state_from_observation`),
    each hand's size checked on its own first: the builder only adds the hidden cards of the
    hands up with the pile and the reserve, and would blame a bad size on `pile_size`."""
    if isinstance(obs, dict):
        obs = Observation.from_json(obs)
    if isinstance(obs, Observation):
        for q, view in enumerate(obs.players):
            if not 0 <= view.hand_size <= _NUM_CARDS:
                raise InvalidObservationError(
                    f"players[{q}].hand_size", f"must be from 0 to {_NUM_CARDS}"
                )
    return _build_state(obs, seed, draws)


def _example_turn(obs: Any, state: State) -> bool:
    """A turn of Season 2 with a hand to play from."""
    hand = obs.players[obs.observer].hand
    return obs.season == 2 and obs.decision.phase == "turn" and len(hand) >= _MIN_HAND


SPEC = register(
    GameSpec(
        name="royal_cities",
        title="Royal Cities",
        player_counts=(1, 2, 3, 4),
        state_class=RoyalCitiesState,
        rules_class=RulesConfig,
        observation_class=Observation,
        from_observation=state_from_observation,
        random_games=play_random_games,
        cards=card_table(),
        score_unit="VP",
        bench_position=lambda state: (
            isinstance(state, RoyalCitiesState) and state.season == 2 and state.phase == "turn"
        ),
        bench_players={"engine": (1, 2, 3, 4), "search": (2, 4)},
        examples=(
            Example("royal-cities-2p.json", 2, 2, _example_turn),
            Example("royal-cities-4p.json", 4, 9, _example_turn),
            Example("royal-cities-solo.json", 1, 3, _example_turn),
        ),
        # Solo: the margin over the Regent is the grade, so the reward counts it; tuned at
        # equal time (docs/lab/tuning.md, "Royal Cities, solo: the tuned default").
        # 2 players: fewer random moves in the fitted playouts won the SPRT against v0.1.0
        # (docs/strength.md, "Royal Cities, 2 players").
        default_bots={
            1: "mo-ismcts:margin_weight=1.0,margin_scale=40,epsilon=0",
            2: "mo-ismcts:epsilon=0.1",
            **{n: "mo-ismcts" for n in (3, 4)},
        },
        # With its 2-player playouts fitted, a search gains more from each doubling of its
        # budget: the 2-player ladder in docs/strength.md places these.
        levels={
            3: "mo-ismcts:iterations=40,temperature=0.3",
            5: "mo-ismcts:iterations=90",
            6: "mo-ismcts:iterations=170",
            7: "mo-ismcts:iterations=500",
            8: "mo-ismcts:iterations=1500",
            9: "mo-ismcts:iterations=6000",
        },
        adapters={"converter": "convert.royal_cities", "text": "clients.royal_cities_text"},
        solo_grade=legend_grade,
        primary=True,
    )
)
