cdef class WeightTable:
    cdef double* values         # a row per player count; the policy reads it without the GIL
    cdef readonly tuple names
    cdef dict _hand_set
    cdef dict index

    cdef double* values_for(self, int count) except NULL
