from engine.cstate cimport CState
from engine.kuhn_poker.core cimport KPState


cdef class KuhnPokerState(CState):
    cdef KPState s
