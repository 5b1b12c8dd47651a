cdef class WeightTable:
    cdef double* values         # the policy reads values[i] without the GIL
    cdef readonly tuple names
    cdef readonly tuple defaults
    cdef dict index

    cdef double* values_for(self, int count) except NULL
