from engine.royal_cities.core cimport RCState


cdef void rc_evaluate(const RCState* s, double* out) noexcept nogil
