from engine.cstate cimport CState
from engine.leduc_poker.core cimport LPState


cdef class LeducPokerState(CState):
    cdef LPState s
