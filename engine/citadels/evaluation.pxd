from engine.citadels.core cimport CTState


cdef void ct_evaluate(const CTState* s, double* out) noexcept nogil
