"""Types of `engine.royal_cities.heuristic` (Cython): the playout heuristic's weights."""

from engine.weights import WeightTable

#: (name, hand-set value) of every weight, in the table's order.
WEIGHTS: tuple[tuple[str, float], ...]

#: The weights in force at each player count (`get`, `set`, `reset`), read by the policy
#: without the GIL.
TABLE: WeightTable
