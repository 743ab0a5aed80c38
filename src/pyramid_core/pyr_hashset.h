/* The solver's hash set: a growable open-addressing table of 64-bit keys with a 48-bit value
 * each (linear probing, at most half full). One entry is one 16-byte record, so a probe
 * touches one cache line. A slot is in use when its stamp is the table's epoch, so emptying
 * the table for the next solve is one increment, not a memset. The table holds to a memory
 * budget (max_entries) and a grow gives up when the cancel flag is set part-way (rehashing
 * tens of millions of entries takes seconds). hashset.pxd declares it for Cython. */
#ifndef PYR_HASHSET_H
#define PYR_HASHSET_H
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "pyr_bitops.h"
#include "pyr_cancel.h"

typedef struct {
    uint64_t key;
    uint32_t val;
    uint16_t stamp; /* the slot is in use when this equals the table's epoch */
    uint16_t hi;    /* the value's bits 32-47 (in what would be padding) */
} pyr_hentry;

typedef struct {
    pyr_hentry* e;
    uint16_t epoch;
    uint64_t mask;        /* capacity - 1 (a power of two) */
    int64_t count;
    int64_t max_entries;  /* the memory budget, in entries */
    const volatile uint8_t* cancel; /* a long grow gives up (fails) once cancel[0] != 0 */
} pyr_hset;

enum {
    PYR_HSET_SMALL = 1 << 12, /* a table larger than this shrinks back when emptied */
    PYR_HSET_GROW_CHECK = 1 << 14 /* a grow reads the cancel flag every this many slots */
};

/* The key's bits mixed (MurmurHash3's finalizer): slots, and the solver's caches. */
static PYR_INLINE uint64_t pyr_hmix(uint64_t k) {
    k ^= k >> 33;
    k *= 0xFF51AFD7ED558CCDULL;
    k ^= k >> 33;
    k *= 0xC4CEB9FE1A85EC53ULL;
    k ^= k >> 33;
    return k;
}

/* An empty table of `capacity` slots (a power of two): 0, or -1 when out of memory. */
static PYR_INLINE int pyr_hset_init(pyr_hset* h, int64_t capacity) {
    h->mask = (uint64_t)(capacity - 1);
    h->count = 0;
    h->epoch = 1;
    h->max_entries = 0;
    h->cancel = NULL;
    h->e = (pyr_hentry*)calloc((size_t)capacity, sizeof(pyr_hentry));
    return h->e ? 0 : -1;
}

static PYR_INLINE void pyr_hset_free(pyr_hset* h) {
    free(h->e);
    h->e = NULL;
}

/* Empty the table for a new search allowed max_bytes. A table grown beyond keep slots by a
 * hard search shrinks back to them: a few entries spread over a big one would miss the
 * cache (and one kept at the size most searches need is not grown again each time). */
static PYR_INLINE void pyr_hset_clear_to(pyr_hset* h, int64_t max_bytes, uint64_t keep) {
    pyr_hentry* small;
    h->count = 0;
    h->max_entries = max_bytes / (int64_t)sizeof(pyr_hentry) / 2;
    h->epoch++;
    if (h->mask + 1 > keep) {
        small = (pyr_hentry*)calloc(keep, sizeof(pyr_hentry));
        if (small) {
            free(h->e);
            h->e = small;
            h->mask = keep - 1;
            h->epoch = 1;
            return;
        }
    }
    if (h->epoch == 0) {
        memset(h->e, 0, (size_t)(h->mask + 1) * sizeof(pyr_hentry));
        h->epoch = 1;
    }
}

static PYR_INLINE void pyr_hset_clear(pyr_hset* h, int64_t max_bytes) {
    pyr_hset_clear_to(h, max_bytes, PYR_HSET_SMALL);
}

/* The slot holding key, or the empty slot where it would go. */
static PYR_INLINE uint64_t pyr_hset_slot(const pyr_hset* h, uint64_t key) {
    uint64_t i = pyr_hmix(key) & h->mask;
    while (h->e[i].stamp == h->epoch && h->e[i].key != key)
        i = (i + 1) & h->mask;
    return i;
}

/* Does `slot` (from pyr_hset_slot) hold key? */
static PYR_INLINE int pyr_hset_at(const pyr_hset* h, uint64_t slot, uint64_t key) {
    return h->e[slot].stamp == h->epoch && h->e[slot].key == key;
}

/* The value in a slot that holds a key. */
static PYR_INLINE uint64_t pyr_hset_value(const pyr_hset* h, uint64_t slot) {
    return h->e[slot].val | ((uint64_t)h->e[slot].hi << 32);
}

/* Fetch key's first slot into the cache ahead of a probe. */
static PYR_INLINE void pyr_hset_prefetch(const pyr_hset* h, uint64_t key) {
#if defined(__GNUC__) || defined(__clang__)
    __builtin_prefetch(&h->e[pyr_hmix(key) & h->mask]);
#else
    (void)h;
    (void)key;
#endif
}

/* Double the table; -1 when the memory budget (or malloc) says no, or when the cancel flag
 * is set part-way. */
static PYR_INLINE int pyr_hset_grow(pyr_hset* h) {
    uint64_t old_cap = h->mask + 1, new_cap = old_cap * 2, i, j;
    pyr_hentry* e;
    if ((int64_t)(new_cap / 2) > h->max_entries)
        return -1;
    e = (pyr_hentry*)calloc((size_t)new_cap, sizeof(pyr_hentry));
    if (!e)
        return -1;
    for (i = 0; i < old_cap; i++) {
        if ((i & (PYR_HSET_GROW_CHECK - 1)) == 0 && pyr_cancelled(h->cancel)) {
            free(e);
            return -1;
        }
        if (h->e[i].stamp == h->epoch) {
            j = pyr_hmix(h->e[i].key) & (new_cap - 1);
            while (e[j].stamp)
                j = (j + 1) & (new_cap - 1);
            e[j] = h->e[i];
            e[j].stamp = 1;
        }
    }
    free(h->e);
    h->e = e;
    h->epoch = 1;
    h->mask = new_cap - 1;
    return 0;
}

/* Overwrite the value in a slot that holds a key (no room needed). */
static PYR_INLINE void pyr_hset_set(pyr_hset* h, uint64_t slot, uint64_t val) {
    h->e[slot].val = (uint32_t)val;
    h->e[slot].hi = (uint16_t)(val >> 32);
}

/* Insert or overwrite (val: up to 48 bits); -1 when the memory budget is spent. */
static PYR_INLINE int pyr_hset_put(pyr_hset* h, uint64_t key, uint64_t val) {
    uint64_t i;
    if ((h->count + 1) * 2 > (int64_t)(h->mask + 1) && pyr_hset_grow(h) < 0)
        return -1;
    i = pyr_hset_slot(h, key);
    if (h->e[i].stamp != h->epoch) {
        if (h->count >= h->max_entries) /* a table kept larger still holds to the budget */
            return -1;
        h->e[i].stamp = h->epoch;
        h->e[i].key = key;
        h->count++;
    }
    h->e[i].val = (uint32_t)val;
    h->e[i].hi = (uint16_t)(val >> 32);
    return 0;
}

#endif
