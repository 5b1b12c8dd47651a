cdef class WeightTable:
    cdef double* values         # row 0 hand-set, row p the playouts' at p players
    cdef readonly tuple names
    cdef dict _hand_set
    cdef dict _fitted           # the default fits: player count -> weights by name
    cdef dict index

    cdef double* values_for(self, int count) except NULL
