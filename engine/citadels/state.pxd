from engine.citadels.core cimport CTState
from engine.cstate cimport CState


cdef class CitadelsState(CState):
    cdef CTState s
