from engine.royal_cities.core cimport RCState


cdef class RoyalCitiesState:
    cdef RCState s
    cdef readonly object rules
