from engine.cstate cimport CState
from engine.royal_cities.core cimport RCState


cdef class RoyalCitiesState(CState):
    cdef RCState s
