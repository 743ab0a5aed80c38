# Fair play (docs/fair.md): what a player who cannot see the face-down stock knows (the
# information set of a position), completions of it, and the policies that decide from it
# alone. What is seen is position.pxd's pos_seen; everything here takes the seen talon cards
# as a mask beside the position.
from libc.stdint cimport int64_t, uint8_t, uint32_t, uint64_t
from pyramid_core.position cimport pyr_table, pyr_pos, pyr_move
from pyramid_core.solver cimport solve_ws, solve_out, solve_limits
from pyramid_core.simulate cimport sim_deal, sim_result

cdef enum:
    FAIR_CANCELLED = -3     # a playout's return code: the cancel flag was set

ctypedef struct fair_params:
    int samples             # completions per decision (the same ones for every move)
    int64_t max_nodes       # the solver's budget per position on a completion
    int64_t known_nodes     # its budget once nothing is hidden (<= 0: none)
    uint64_t seed           # keys the completions with the game and the decision
    int prefer_draw         # among the moves winning the most completions, draw first

ctypedef struct fair_ctx:
    # One thread's working state: the solver's tables, its output, the line being followed
    # once nothing is hidden (fair_ctx_init / fair_ctx_free).
    fair_params prm
    solve_ws ws
    solve_out* out
    solve_limits lim        # max_nodes, the caller's cancel flag
    solve_limits lim_known  # known_nodes, the same flag
    pyr_move* line          # the rest of a winning line once nothing is hidden
    int line_len
    int line_at
    pyr_pos line_pos        # the position line[line_at] is played from
    int64_t solves          # positions given to the solver
    int64_t unknown         # ... of them left undecided by the budget
    int64_t nodes           # positions the solver expanded in all

# The information set: the present talon cards not seen yet, their places (talon indices,
# ascending) and their cards (card indices, ascending: the cards, not where they lie).
cdef int fair_unseen(const pyr_table* t, pyr_pos p, uint32_t seen, uint8_t* places,
                     uint8_t* cards) noexcept nogil
cdef uint64_t fair_game_key(const pyr_table* t) noexcept nogil
cdef uint64_t fair_sample_key(uint64_t seed, uint64_t game, pyr_pos p, uint32_t seen,
                              int sample) noexcept nogil
# t with the unseen cards dealt uniformly into the unseen places (keyed by key) into out.
cdef void fair_complete(const pyr_table* t, const uint8_t* places, const uint8_t* cards, int u,
                        uint64_t key, pyr_table* out) noexcept nogil

# prm from a dict of fair.DEFAULTS' keys (the missing ones: the defaults), checked
cdef int fair_params_from(fair_params* prm, dict d) except -1
cdef int fair_ctx_init(fair_ctx* c, const fair_params* prm,
                       const volatile uint8_t* cancel) noexcept nogil   # 0, or -1: no memory
cdef void fair_ctx_free(fair_ctx* c) noexcept nogil
# The hindsight policy's move at p (-1: none is legal). d: the deal as the greedy policy
# reads it (sim_deal_from_deck of t's cards); stuck: unlimited redeals and nothing removed in
# this pass. wins (room for MAX_MOVES, or NULL): the completions each legal move (gen_moves
# order) won; counted[0]: the completions used (0 when no sampling was needed).
cdef int fair_decide(fair_ctx* c, const pyr_table* t, const sim_deal* d, pyr_pos p,
                     uint32_t seen, bint stuck, int* wins, int* counted) noexcept nogil
# A whole game under the hindsight policy from the deal (moves into rec unless NULL).
cdef int fair_play(fair_ctx* c, const pyr_table* t, sim_result* res,
                   pyr_move* rec) noexcept nogil
