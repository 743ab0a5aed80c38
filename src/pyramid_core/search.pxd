# The solver's search context, shared by its searches (solver.pyx: deciding and exhausting
# a deal; shortest.pyx: shortest lines) and its bounds (bounds.pyx): the rules, the budgets
# and how they are counted, the tables, the line being built. Small helpers every search
# uses are inline here.
from libc.stdint cimport int64_t, uint8_t, uint32_t, uint64_t

from pyramid_core.cards cimport N_TALON
from pyramid_core.geometry cimport pyr_popcount32
from pyramid_core.hashset cimport hset
from pyramid_core.position cimport (pyr_table, pyr_pos, pyr_move, LOC_TALON, LOC_NONE,
                                    CUR_SHIFT, gen_moves, move_a, move_b, pos_recycles)
from pyramid_core.rules cimport REDEALS_UNLIMITED
from pyramid_core.shortcuts cimport SC_KING_FIRST
from pyramid_core.solver cimport (OBJ_MIN_MOVES, STOP_NODES, STOP_TIME, STOP_MEMORY,
                                  STOP_CANCELLED, lp_store)


cdef extern from "pyr_clock.h" nogil:
    double pyr_now()


cdef extern from "pyr_cancel.h" nogil:
    int pyr_cancelled(const volatile uint8_t* f)


cdef enum:
    MCACHE = 1 << 14          # entries of each of the bounds' caches (128 KiB)


ctypedef struct search:
    const pyr_table* t
    int objective
    int win_all
    int stop
    int64_t nodes
    int64_t max_nodes
    double deadline
    const volatile uint8_t* cancel   # NULL: never cancelled
    hset* seen                # positions searched (meaning depends on the search)
    hset* visit               # general search under unlimited redeals: positions entered;
                              # free-talon OBJ_MAX_REMOVED: talon counts expanded per pyramid
    const uint32_t* rel       # places a pyramid card can never pair with (PYR_GEO's bad)
    uint32_t talon_rank[14]   # talon bits by rank
    int best_removed          # OBJ_MAX_REMOVED: best so far, its line in `best`
    int root_bound            # OBJ_MAX_REMOVED: no line removes more (removal_bound)
    bint track_best           # keep the line removing the most pyramid cards seen so far
    bint no_prune             # tests: no pruning by rank classes or buried cards
    int best_len
    pyr_move* best
    pyr_move* path
    int path_len
    hset* relax               # relaxed_won's answers per (pyramid, talon counts), or NULL
    uint64_t* mcache          # class_matchings' cache (MCACHE entries), or NULL
    uint64_t* dcache          # pyramid_partners', the same way
    uint64_t* scache          # stuck_of's (two words an entry), the same way
    uint64_t epoch            # this search's stamp in mcache (1 .. 65535)
    lp_store* lp              # the last pass's frame tables (lastpass.pyx), or NULL: the
                              # decision search then searches the last pass itself


cdef inline bint over_budget(search* s, bint check_clock) noexcept nogil:
    """Has the nodes budget (or, with check_clock, the time budget, or has the cancel flag
    been set) run out? Sets s.stop."""
    if s.max_nodes > 0 and s.nodes > s.max_nodes:
        s.stop = STOP_NODES
        return True
    if check_clock:
        if pyr_cancelled(s.cancel):
            s.stop = STOP_CANCELLED
            return True
        if s.deadline > 0 and pyr_now() > s.deadline:
            s.stop = STOP_TIME
            return True
    return False


cdef inline int no_room(search* s) noexcept nogil:
    """A table could not grow: out of memory, or the grow gave up on the cancel flag. Sets
    s.stop; returns -1 (the search's "budget ran out")."""
    s.stop = STOP_CANCELLED if pyr_cancelled(s.cancel) else STOP_MEMORY
    return -1


cdef inline bint spent(search* s) noexcept nogil:
    """Count one expanded position; True when a budget has run out (the clock and the cancel
    flag are read every 1,024 positions)."""
    s.nodes += 1
    return over_budget(s, (s.nodes & 1023) == 0)


cdef inline uint64_t pos_cards(pyr_pos p) noexcept nogil:
    """The cards a position has left (its word without the cursor and the recycles)."""
    return p & (((<uint64_t>1) << CUR_SHIFT) - 1)


cdef inline int order_moves(search* s, pyr_pos p, pyr_move* mv) noexcept nogil:
    """The moves of p worth trying, best first: a King alone if there is one (pyramid Kings
    always; talon Kings unless the line must be shortest)."""
    cdef int n = gen_moves(s.t, p, mv), i
    if not (s.t.shortcuts & SC_KING_FIRST):
        return n
    for i in range(n):
        if move_b(mv[i]) == LOC_NONE and move_a(mv[i]) != LOC_NONE:
            if move_a(mv[i]) < LOC_TALON or s.objective != OBJ_MIN_MOVES:
                mv[0] = mv[i]
                return 1
        else:
            break
    return n


cdef inline bint last_pass(const search* s, pyr_pos p) noexcept nogil:
    return (s.t.rules.redeals != REDEALS_UNLIMITED
            and pos_recycles(p) >= s.t.rules.redeals)


cdef inline void talon_counts(const search* s, uint32_t talon, int* tc) noexcept nogil:
    cdef int r
    for r in range(1, 14):
        tc[r] = pyr_popcount32(talon & s.talon_rank[r])


# ---- the free-talon search ------------------------------------------------------------------
