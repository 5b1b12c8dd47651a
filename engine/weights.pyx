# A heuristic's judgement as a table of named weights: C doubles that its policy reads
# without the GIL, named and set from Python so bench/balance_heuristic.py can fit them.
# One row per player count, since what a fit finds at one count need not hold at another.
from libc.math cimport isfinite
from libc.stdlib cimport free, malloc

from engine.game_api cimport MAX_GAME_PLAYERS


cdef class WeightTable:
    """The weights of one heuristic, from `(name, hand-set value)` pairs, in that order: a
    row of them per player count, each hand-set until set."""

    def __init__(self, table):
        if self.values != NULL:  # the policy holds the pointer: the table is made once
            raise TypeError("a WeightTable cannot be made again")
        self.names = tuple(name for name, _ in table)
        self.index = {name: i for i, name in enumerate(self.names)}
        if len(self.index) != len(self.names):
            raise ValueError("weight names must be unique")
        self._hand_set = {name: float(value) for name, value in table}
        count = max(1, len(self.names)) * (MAX_GAME_PLAYERS + 1)
        self.values = <double*>malloc(count * sizeof(double))
        if self.values == NULL:
            raise MemoryError()
        self.reset()

    cdef double* values_for(self, int count) except NULL:
        """The rows of values, for a policy that reads `count` of them (its enum of weights):
        the row of p players starts at p * count. ValueError when the table names another
        number."""
        if len(self.names) != count:
            raise ValueError(f"the table names {len(self.names)} weights, the policy reads {count}")
        return self.values

    def __dealloc__(self):
        free(self.values)

    @property
    def hand_set(self) -> dict[str, float]:
        """The hand-set weights, by name (a copy: `reset` puts these back)."""
        return dict(self._hand_set)

    def get(self, int players) -> dict[str, float]:
        """The weights now in force at `players` players, by name."""
        cdef double* row
        self._check({}, players)
        row = self.values + players * len(self.names)
        return {name: row[i] for i, name in enumerate(self.names)}

    def set(self, values, players=None) -> None:
        """Set some weights by name at `players` players (None: at every count), for the whole
        process (a fit's knob: never while a search runs). ValueError names an unknown weight,
        one not a finite number or a player count out of range; then nothing changes."""
        self._check(values, players)
        for p in (range(1, MAX_GAME_PLAYERS + 1) if players is None else (players,)):
            for name, value in values.items():
                self.values[p * len(self.names) + self.index[name]] = float(value)

    def reset(self) -> None:
        """Put back the hand-set weights at every player count."""
        for p in range(MAX_GAME_PLAYERS + 1):
            for name, value in self._hand_set.items():
                self.values[p * len(self.names) + self.index[name]] = value

    def _check(self, values, players) -> None:
        if players is not None and (isinstance(players, bool) or not isinstance(players, int)
                                    or not 1 <= players <= MAX_GAME_PLAYERS):
            raise ValueError(f"players must be a whole number from 1 to {MAX_GAME_PLAYERS}, "
                             f"not {players!r}")
        for name, value in values.items():
            if name not in self.index:
                raise ValueError(
                    f"no heuristic weight {name!r}; the weights are {', '.join(self.names)}")
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise ValueError(f"heuristic weight {name!r} must be a number, not {value!r}")
            if not isfinite(value):
                raise ValueError(f"heuristic weight {name!r} must be finite, not {value!r}")
