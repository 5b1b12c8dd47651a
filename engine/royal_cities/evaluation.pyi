"""Types of `engine.royal_cities.evaluation` (Cython): the evaluation of truncated playouts."""

from engine.interface import State

def features(state: State) -> list[list[float]]: ...
