# Seeded random numbers for the cores: xoshiro256** seeded by splitmix64.
# The state is passed by pointer; nothing here reads a clock or a global.
from libc.stdint cimport uint8_t, uint32_t, uint64_t


cdef inline uint64_t rng_rotl(uint64_t x, int k) noexcept nogil:
    return (x << k) | (x >> (64 - k))


cdef inline uint64_t rng_next(uint64_t* s) noexcept nogil:
    cdef uint64_t result = rng_rotl(s[1] * 5, 7) * 9
    cdef uint64_t t = s[1] << 17
    s[2] ^= s[0]
    s[3] ^= s[1]
    s[1] ^= s[2]
    s[0] ^= s[3]
    s[2] ^= t
    s[3] = rng_rotl(s[3], 45)
    return result


cdef inline void rng_seed(uint64_t* s, uint64_t seed) noexcept nogil:
    cdef int i
    cdef uint64_t z
    for i in range(4):
        seed += 0x9E3779B97F4A7C15ULL
        z = seed
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
        s[i] = z ^ (z >> 31)


cdef inline uint32_t rng_below(uint64_t* s, uint32_t n) noexcept nogil:
    """A number in [0, n), by multiply-shift (bias below 2**-32 for our n)."""
    return <uint32_t>(((rng_next(s) >> 32) * n) >> 32)


cdef inline void rng_shuffle(uint8_t* a, int n, uint64_t* s) noexcept nogil:
    """Fisher-Yates: every order of a[0..n) equally likely."""
    cdef int i, j
    cdef uint8_t t
    for i in range(n - 1, 0, -1):
        j = rng_below(s, i + 1)
        t = a[i]
        a[i] = a[j]
        a[j] = t


cdef inline void rng_reseed(uint64_t* dst, uint64_t* s) noexcept nogil:
    """A fresh state for another stream, drawn from this one (never all zeros)."""
    dst[0] = rng_next(s)
    dst[1] = rng_next(s)
    dst[2] = rng_next(s)
    dst[3] = rng_next(s) | 1
