# The solver's hash set of 64-bit keys with 48-bit values (pyr_hashset.h, where each call is
# described): hset_slot finds a key's slot, hset_at says whether the slot holds it,
# hset_put inserts or overwrites within the table's memory budget (-1 when spent).
from libc.stdint cimport int64_t, uint8_t, uint16_t, uint32_t, uint64_t

cdef extern from "pyr_hashset.h" nogil:
    ctypedef struct hentry "pyr_hentry":
        uint64_t key
        uint32_t val
        uint16_t stamp
        uint16_t hi
    ctypedef struct hset "pyr_hset":
        hentry* e
        uint16_t epoch
        uint64_t mask
        int64_t count
        int64_t max_entries
        const volatile uint8_t* cancel
    enum:
        HSET_SMALL "PYR_HSET_SMALL"
    uint64_t hmix "pyr_hmix"(uint64_t k)
    int hset_init "pyr_hset_init"(hset* h, int64_t capacity)
    void hset_free "pyr_hset_free"(hset* h)
    void hset_clear "pyr_hset_clear"(hset* h, int64_t max_bytes)
    void hset_clear_to "pyr_hset_clear_to"(hset* h, int64_t max_bytes, uint64_t keep)
    uint64_t hset_slot "pyr_hset_slot"(const hset* h, uint64_t key)
    bint hset_at "pyr_hset_at"(const hset* h, uint64_t slot, uint64_t key)
    uint64_t hset_value "pyr_hset_value"(const hset* h, uint64_t slot)
    void hset_prefetch "pyr_hset_prefetch"(const hset* h, uint64_t key)
    int hset_put "pyr_hset_put"(hset* h, uint64_t key, uint64_t val)
    void hset_set "pyr_hset_set"(hset* h, uint64_t slot, uint64_t val)
