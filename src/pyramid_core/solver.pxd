# The exact solver's C-level API (docs/solver.md). One call decides one position:
# solve_position fills a solve_out; budgets stop it with winnable = -1 and say which ran out
# (under OBJ_MIN_MOVES a winning line already found is kept: see solve_out.optimal).
from libc.stdint cimport int64_t, uint8_t, uint16_t, uint32_t, uint64_t
from pyramid_core.hashset cimport hset
from pyramid_core.position cimport pyr_table, pyr_pos, pyr_move

cdef enum:
    OBJ_ANY = 0           # is there a win? (and one winning line)
    OBJ_MIN_MOVES = 1     # the shortest winning line (every action counts one move)
    OBJ_MAX_REMOVED = 2   # the most pyramid cards any line removes (and such a line)
    STOP_NONE = 0
    STOP_NODES = 1
    STOP_TIME = 2
    STOP_MEMORY = 3
    STOP_CANCELLED = 4    # solve_limits.cancel[0] was set
    MAX_LINE = 8192       # room for a returned line of moves

ctypedef struct solve_limits:
    int64_t max_nodes     # positions expanded; <= 0: no limit
    double max_seconds    # wall-clock seconds; <= 0: no limit
    int64_t max_memory    # bytes for the search's tables; <= 0: the default (1 GiB)
    int no_prune          # tests: turn off the pruning (rank classes, buried talon cards)
    const volatile uint8_t* cancel   # the search stops (STOP_CANCELLED) once cancel[0] != 0,
                          # read where the clock is (every 1,024 positions); NULL: never

ctypedef struct solve_out:
    int winnable          # 1 won, 0 cannot be won, -1 unknown (a budget ran out)
    int stop              # STOP_*: which budget ran out (or STOP_CANCELLED)
    int optimal           # 1: `line` is a shortest winning line (OBJ_MIN_MOVES, A* finished);
                          # 0 otherwise, e.g. OBJ_MIN_MOVES with the budget spent in A*:
                          # winnable 1, the decision search's line, stop names the budget
    int n_moves           # length of `line` (a winning line, or the best line for
                          # OBJ_MAX_REMOVED); -1 when there is none
    int max_removed       # pyramid cards removed by `line` (OBJ_MAX_REMOVED: the most possible)
    int64_t nodes         # positions expanded
    double seconds
    pyr_move line[MAX_LINE]

cdef extern from "pyr_lastpass.h" nogil:
    ctypedef struct lp_store "pyr_lp_store":
        # The last pass's tables (lastpass.pyx): each frame's answer, the lists they point to.
        hset frames
        hset known
        uint64_t* arena
        int64_t arena_len
        int64_t arena_cap
        int64_t arena_max
        uint64_t* scratch
        int64_t scratch_len
        int64_t scratch_cap
        uint64_t* dedup_key
        uint32_t* dedup_seen
        uint32_t dedup_stamp

ctypedef struct solve_ws:
    # What a search allocates, kept between the solves of a batch (ws_init / ws_free).
    hset seen
    hset visit
    hset relax            # the free-talon relaxation's answers (bounds.pyx's relaxed_won)
    pyr_move* path
    pyr_move* best
    uint64_t* mcache      # the pyramid matchings' cache (bounds.pyx's class_matchings)
    uint64_t* dcache      # and the pyramid's talon partners' (pyramid_partners)
    uint64_t* scache      # and the cards that stay for a set of talon ranks (stuck_of)
    uint64_t epoch        # the last search's stamp in it
    lp_store lp           # the last pass's tables

cdef int solve_position(const pyr_table* t, pyr_pos start, int objective,
                        const solve_limits* lim, solve_out* out) noexcept nogil
cdef int solve_with(solve_ws* ws, const pyr_table* t, pyr_pos start, int objective,
                    const solve_limits* lim, solve_out* out) noexcept nogil
cdef int ws_init(solve_ws* ws) noexcept nogil
cdef void ws_free(solve_ws* ws) noexcept nogil

# The search's bounds at a position, one at a time (for the tests' hooks)
cdef enum:
    PROBE_LOWER_BOUND = 0       # A*'s lower bound on the moves still needed to a win
    PROBE_RELAXED_OK = 1        # 0 when the free-talon relaxation proves the position lost
    PROBE_RELAXED_REMOVAL = 2   # a bound on the pyramid cards a line can still remove
    PROBE_STACK_OK = 3          # 0 when the last pass's waste-order relaxation proves it lost
cdef int solve_probe(const pyr_table* t, pyr_pos pos, int what) noexcept nogil
cdef void relaxed_moves(solve_ws* ws, const pyr_table* t, pyr_pos p, const pyr_move* buf,
                        int n, uint8_t* ok) noexcept nogil
