# Bit sets for the cores: a set of small ids (card kinds, players, colours) in one word.
from libc.stdint cimport uint64_t


cdef extern from *:
    int __builtin_ctzll(unsigned long long x) nogil
    int __builtin_popcountll(unsigned long long x) nogil


cdef inline int bits_count(uint64_t bits) noexcept nogil:
    """How many ids the set holds."""
    return __builtin_popcountll(bits)


cdef inline int bits_pop(uint64_t* bits) noexcept nogil:
    """Take the lowest id out of a non-empty set and return it: a loop over a set visits
    only the ids in it, in ascending order."""
    cdef int low = __builtin_ctzll(bits[0])
    bits[0] &= bits[0] - 1
    return low
