"""Citadels (classic edition, 8 characters), 2 to 7 players."""

from collections.abc import Sequence
from typing import Any

from engine.citadels.cards import card_table
from engine.citadels.observation import Decision, Draft, Observation, PlayerView
from engine.citadels.rules import RulesConfig
from engine.citadels.state import TERMINAL, CitadelsState, play_random_games
from engine.citadels.state import state_from_observation as _build_state
from engine.errors import InvalidObservationError
from engine.interface import State
from engine.registry import Example, GameSpec, register

__all__ = [
    "SPEC",
    "TERMINAL",
    "CitadelsState",
    "Decision",
    "Draft",
    "Observation",
    "PlayerView",
    "RulesConfig",
    "state_from_observation",
]

#: Fewer cards in hand make dull advice.
_MIN_HAND = 2
#: The most districts drawn at once (the Observatory's three; the core's DRAWN_MAX).
_MOST_DRAWN = 3


def state_from_observation(obs: Any, seed: int = 0, draws: Sequence[str] = ()) -> CitadelsState:
    """The game continued from one player's observation (see `state.state_from_observation`),
    the drawn cards the observer does not see counted on their own first: the builder only
    adds them up with the hands and the deck, and would blame a bad count on `deck_size`."""
    if isinstance(obs, dict):
        obs = Observation.from_json(obs)
    if isinstance(obs, Observation):
        d = obs.decision
        if not 0 <= d.drawn_hidden <= _MOST_DRAWN - len(d.drawn):
            raise InvalidObservationError(
                "decision.drawn_hidden",
                f"must be from 0 to {_MOST_DRAWN}, less the {len(d.drawn)} drawn cards listed",
            )
    return _build_state(obs, seed, draws)


#: The search that reads the draft: the defaults' options, and the top levels' at a budget.
_READS_DRAFT = "mo-ismcts:rank_weight=0.5,infer=256"


def _example_turn(obs: Any, state: State) -> bool:
    """A turn of round 3 after the resources, with a district to build or a power to use."""
    hand = obs.players[obs.observer].hand
    return (
        obs.round == 3
        and obs.decision.phase == "main"
        and len(hand) >= _MIN_HAND
        and len(state.legal_actions()) > 2
    )


SPEC = register(
    GameSpec(
        name="citadels",
        title="Citadels",
        player_counts=(2, 3, 4, 5, 6, 7),
        state_class=CitadelsState,
        rules_class=RulesConfig,
        observation_class=Observation,
        from_observation=state_from_observation,
        random_games=play_random_games,
        cards=card_table(),
        score_unit="points",
        bench_position=lambda state: (
            isinstance(state, CitadelsState) and state.round == 3 and state.phase == "resource"
        ),
        bench_players={"engine": (4, 7), "search": (4, 7)},
        examples=(
            Example("citadels-4p.json", 4, 4, _example_turn),
            Example("citadels-7p.json", 7, 7, _example_turn),
        ),
        # At 4 and 6 players the draft read by the pick model, the place in the reward and the
        # playouts fitted to a search's moves (docs/lab/inference.md, "On `main`: `infer`" and
        # "Six players: the draft read"); at 6 the others searched for their game result alone;
        # at 5 and 7 the 6-player recipe, model and fit; at 3 and 2 the 4-player ones. Each won
        # its SPRT against v0.1.0: docs/strength.md, "The default bots", a section per player
        # count.
        default_bots=dict.fromkeys((2, 3, 4), _READS_DRAFT)
        | dict.fromkeys((5, 6, 7), f"{_READS_DRAFT},shape_others=0"),
        # Its heuristic beats a 50-iteration search, and small searches gain fast with their
        # budget; levels 7-9 read the draft as level 10 (the default) does, so the top steps
        # stay within the band: the 2-player ladder in docs/strength.md places these.
        levels={
            3: "mo-ismcts:iterations=30,temperature=0.25",
            4: "mo-ismcts:iterations=30",
            5: "heuristic",
            6: "mo-ismcts:iterations=200",
            7: f"{_READS_DRAFT},iterations=600",
            8: f"{_READS_DRAFT},iterations=3000",
            9: f"{_READS_DRAFT},iterations=18000",
        },
        adapters={
            "converter": "convert.citadels",
            "text": "clients.citadels_text",
            "fit_picks": "bench.citadels_fit_picks",
            "measure_inference": "bench.citadels_inference",
        },
    )
)
