# A heuristic's judgement as a table of named weights: C doubles that its policy reads
# without the GIL, named and set from Python so bench/balance_heuristic.py can fit them.
from libc.math cimport isfinite
from libc.stdlib cimport free, malloc


cdef class WeightTable:
    """The weights of one heuristic, from `(name, hand-set value)` pairs, in that order."""

    def __init__(self, table):
        if self.values != NULL:  # the policy holds the pointer: the table is made once
            raise TypeError("a WeightTable cannot be made again")
        self.names = tuple(name for name, _ in table)
        self.defaults = tuple(float(value) for _, value in table)
        self.index = {name: i for i, name in enumerate(self.names)}
        if len(self.index) != len(self.names):
            raise ValueError("weight names must be unique")
        self.values = <double*>malloc(max(1, len(self.names)) * sizeof(double))
        if self.values == NULL:
            raise MemoryError()
        for i, value in enumerate(self.defaults):
            self.values[i] = value

    cdef double* values_for(self, int count) except NULL:
        """The values, for a policy that reads `count` of them (its enum of weights);
        ValueError when the table names another number."""
        if len(self.names) != count:
            raise ValueError(f"the table names {len(self.names)} weights, the policy reads {count}")
        return self.values

    def __dealloc__(self):
        free(self.values)

    def get(self) -> dict[str, float]:
        """The weights now in force, by name."""
        return {name: self.values[i] for i, name in enumerate(self.names)}

    def set(self, values) -> None:
        """Set some weights by name, for the whole process (a fit's knob: never while a
        search runs). ValueError names an unknown weight or one not a finite number; then
        nothing changes."""
        for name, value in values.items():
            if name not in self.index:
                raise ValueError(
                    f"no heuristic weight {name!r}; the weights are {', '.join(self.names)}")
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise ValueError(f"heuristic weight {name!r} must be a number, not {value!r}")
            if not isfinite(value):
                raise ValueError(f"heuristic weight {name!r} must be finite, not {value!r}")
        for name, value in values.items():
            self.values[self.index[name]] = float(value)

    def reset(self) -> None:
        """Put back the hand-set weights."""
        for i, value in enumerate(self.defaults):
            self.values[i] = value
