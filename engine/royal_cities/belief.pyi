"""Types of `engine.royal_cities.belief` (Cython): the hand model that reads the others' hands."""

from engine.interface import State
from engine.resources import Source

#: The inputs of the hand model, in the order of a model's weights.
FEATURES: tuple[str, ...]

def hand_inputs(
    state: State, observer: int
) -> tuple[list[int], list[tuple[list[list[float]], list[int]]]]: ...
def hands_loglik(state: State, observer: int) -> float: ...
def model_players() -> tuple[int, ...]: ...
def load_model(path: Source) -> tuple[int, ...]: ...
