# A heuristic's judgement as a table of named weights: C doubles that its policy reads
# without the GIL, named and set from Python so bench/balance_heuristic.py can fit them.
# Row 0 is the hand-set judgement, what the heuristic player plays by; row p is what the
# playouts of a p-player game play by, since a fit made at one count need not hold at another.
import json

from libc.math cimport isfinite
from libc.stdlib cimport free, malloc

from engine.game_api cimport MAX_GAME_PLAYERS

from engine.resources import folder_files, readable


def read_fit(path):
    """(game, weights by name, player counts or None for every count) of a fit's JSON file
    (`{"game": ..., "weights": {...}, "players": [n, ...]}`, as bench/balance_heuristic.py
    writes it), a file name or an importlib.resources file; ValueError names the file and
    what is wrong with it."""
    path = readable(path)
    try:
        fit = json.loads(path.read_text())
        game, values, players = fit["game"], fit["weights"], fit.get("players")
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as err:
        raise ValueError(f"{path}: not a fit of heuristic weights ({err})") from None
    if not isinstance(game, str) or not isinstance(values, dict):
        raise ValueError(f"{path}: 'game' must be a name and 'weights' an object")
    if players is not None and (not isinstance(players, list) or not players):
        raise ValueError(f"{path}: 'players' must be a list of player counts")
    return game, values, players


cdef class WeightTable:
    """The weights of one heuristic, from `(name, hand-set value)` pairs, in that order: the
    hand-set ones, which the heuristic player plays by, and the playouts' at each player
    count, which are the defaults until set: hand-set, or a fit's from the `fits` folder."""

    def __init__(self, table, fits=None):
        if self.values != NULL:  # the policy holds the pointer: the table is made once
            raise TypeError("a WeightTable cannot be made again")
        self.names = tuple(name for name, _ in table)
        self.index = {name: i for i, name in enumerate(self.names)}
        if len(self.index) != len(self.names):
            raise ValueError("weight names must be unique")
        self._hand_set = {name: float(value) for name, value in table}
        self._fitted = {}
        if fits is not None:
            for path in folder_files(fits, "*.json", "default fits"):
                self._add_default_fit(path)
        count = max(1, len(self.names)) * (MAX_GAME_PLAYERS + 1)
        self.values = <double*>malloc(count * sizeof(double))
        if self.values == NULL:
            raise MemoryError()
        self.reset()

    def _add_default_fit(self, path) -> None:
        """Make a fit the playouts' default at the counts it names; a default names its counts
        and every weight, and no count has two."""
        _, values, players = read_fit(path)
        try:
            if players is None or set(values) != set(self.names):
                raise ValueError("a default fit names its player counts and every weight")
            for count in players:
                self._check(values, count)
                if count in self._fitted:
                    raise ValueError(f"a second default fit at {count} players")
                self._fitted[count] = {name: float(v) for name, v in values.items()}
        except ValueError as err:
            raise ValueError(f"{path}: {err}") from None

    cdef double* values_for(self, int count) except NULL:
        """The rows of values, for a policy that reads `count` of them (its enum of weights):
        row 0 the hand-set ones, the playouts' at p players from p * count. ValueError when the
        table names another number."""
        if len(self.names) != count:
            raise ValueError(f"the table names {len(self.names)} weights, the policy reads {count}")
        return self.values

    def __dealloc__(self):
        free(self.values)

    @property
    def hand_set(self) -> dict[str, float]:
        """The hand-set weights, by name: the heuristic player's (a copy)."""
        return dict(self._hand_set)

    def defaults(self, int players) -> dict[str, float]:
        """The playouts' default weights at `players` players, by name: `reset` puts them
        back."""
        self._check({}, players)
        return {**self._hand_set, **self._fitted.get(players, {})}

    def get(self, int players) -> dict[str, float]:
        """The playouts' weights now in force at `players` players, by name."""
        cdef double* row
        self._check({}, players)
        row = self.values + players * len(self.names)
        return {name: row[i] for i, name in enumerate(self.names)}

    def set(self, values, players=None) -> None:
        """Set some of the playouts' weights by name at `players` players (None: at every
        count), for the whole process (a fit's knob: never while a search runs). ValueError
        names an unknown weight, one not a finite number or a player count out of range; then
        nothing changes. The hand-set weights stay as they are."""
        self._check(values, players)
        for p in (range(1, MAX_GAME_PLAYERS + 1) if players is None else (players,)):
            for name, value in values.items():
                self.values[p * len(self.names) + self.index[name]] = float(value)

    def reset(self) -> None:
        """Put back the default weights at every player count."""
        for p in range(MAX_GAME_PLAYERS + 1):
            for name, value in (self.defaults(p) if p else self._hand_set).items():
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
