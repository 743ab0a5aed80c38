# Monte Carlo playouts (docs/simulation.md): built-in policies play whole games on plain C types,
# without the GIL and without allocating, and a batch loop fills caller-owned arrays.
#
# The policies are defined once on the engine's positions (sim_play_engine: position.pxd's
# gen_moves and pos_apply, one move at a time), which also plays the rarer options
# pair_waste_top_two and pair_with_covering. The specialised playouts of draw 1 and draw 3
# keep their own state in local variables (the free mask updated incrementally, the facts the
# policies ask for at every step refreshed only when the pyramid changes) and make the same
# moves (tests/test_simulate.py compares them on thousands of games, and replays recorded
# games on pyramid_solitaire.Game).
#
# With AVX-512 the batch plays the random and greedy policies under the rules of the
# specialised playouts (draw 1, and draw 3 without pair_with_covering) sixteen games at a
# time, one per vector lane (pyr_sim_lockstep.h): the same games as sim_play, move for move
# (the tests compare whole batches both ways). Which set-up and playouts run is one record,
# sim_path, resolved once at import; nothing switches it afterwards.
#
# A game ends when it is won, when no legal move remains, or (unlimited redeals only) at a
# recycle, which is then not played:
#  - greedy: when no card was removed since the previous recycle (or the deal). Greedy is
#    deterministic, so such a pass would repeat for ever;
#  - random: when at no position since the previous recycle (or the deal) was a removal (a King
#    or a pair) legal. The pyramid has not changed for a whole pass and every talon card was
#    seen, so no removal can ever become legal: the game could only repeat. A pass where the
#    policy drew instead of removing does not end it. And, a safety bound, when the game has
#    played SIM_MOVE_CAP moves (its sim_deal's move_cap; games this long do not occur in
#    practice: docs/simulation.md).
#    A pass draws at most 24 times and a game makes at most 28 removals (4 Kings, 24 pairs),
#    so a game plays at most SIM_MOVE_CAP + 52 moves.
#
# Adding a policy (the solver, later): one more sim_policy value below, one more case in
# sim_play and sim_play_engine (simulate.pyx), and its name in simulate.pyx's POLICIES.
from libc.stdint cimport uint8_t, uint16_t, uint32_t, uint64_t
from pyramid_core.rules cimport pyr_rules
from pyramid_core.position cimport pyr_move, pyr_pos, pyr_table

cdef extern from "pyr_sim_deal.h" nogil:
    ctypedef struct sim_deal "pyr_sim_deal":
        # A deal under a rule set, as the playouts need it (constant during a game; the
        # fields are described in pyr_sim_deal.h, shared with the C set-up and playouts).
        pyr_rules rules
        uint8_t card[52]
        uint8_t rank[52]
        uint32_t prank[14]
        uint32_t trank[14]
        uint32_t pile[3]
        uint32_t tnext
        uint32_t t3
        uint8_t pc0[14]
        uint8_t tc0[14]
        int move_cap

cdef extern from "pyr_sim_shuffle.h" nogil:
    # vec: the AVX-512 set-up (a path record's vector_setup) or plain C
    void pyr_sim_shuffle(int vec, uint64_t number, uint8_t* deck)
    void pyr_sim_shuffle_masks(int vec, uint64_t number, const uint8_t* ranks, uint8_t* deck,
                               uint32_t* prank, uint32_t* trank, uint8_t* pc, uint8_t* tc)
    enum: SIM_BLOCK "PYR_SIM_BLOCK"
    ctypedef struct pyr_sim_blocker:
        int ready
    void pyr_sim_talon_masks(const uint8_t* deck, uint32_t* tnext, uint32_t* t3)
    void pyr_sim_init()
    void pyr_sim_shuffle_masks_block(int vec, pyr_sim_blocker* b, const uint64_t* numbers,
                                     const uint64_t* next, const uint8_t* ranks,
                                     sim_deal* deals)

cdef extern from "pyr_sim_lockstep.h" nogil:
    # What a batch runs (pyr_sim_lockstep.h): the deal set-up and the playouts, one record
    # resolved at import (simulate.pyx's SIM_PATH); the tests build their own.
    enum:
        PATH_SCALAR "PYR_PATH_SCALAR"
        PATH_AVX512 "PYR_PATH_AVX512"
        PATH_ONE_LANE "PYR_PATH_ONE_LANE"
        N_PATHS "PYR_N_PATHS"
    ctypedef void (*pyr_ls_play_fn)(int greedy, const pyr_rules* rules, int cap,
                                    const sim_deal* deals, const uint64_t* rng, int cnt,
                                    uint8_t* won, uint8_t* removed, uint16_t* moves,
                                    uint16_t* score) noexcept nogil
    ctypedef struct sim_path "pyr_sim_path":
        int id
        int vector_setup
        pyr_ls_play_fn play
    int sim_path_make "pyr_sim_path_make" (int id, sim_path* p)

cpdef enum sim_policy:
    POLICY_RANDOM = 0       # uniform over the legal moves (seeded per game)
    POLICY_GREEDY = 1       # the one-step heuristic documented in docs/simulation.md
    N_POLICIES = 2          # keep last: the solver policy goes before it

cdef enum:
    SIM_MAX_RECORD = 2048   # more moves than any simulated game plays (see sim_play)
    SIM_MOVE_CAP = 1900     # the random policy's safety bound under unlimited redeals (above):
                            # a game plays at most SIM_MOVE_CAP + 52 < SIM_MAX_RECORD moves
    SIM_OK = 0
    SIM_BAD_POLICY = -1
    SIM_RECORD_FULL = -2

ctypedef struct sim_result:
    uint8_t won
    uint8_t removed         # pyramid cards removed (0..28)
    uint16_t moves          # each draw, recycle, King and pair counts one
    uint16_t score          # seed 000's scheme: 10 per pyramid card removed

# ---- per-game set-up (move_cap SIM_MOVE_CAP; the shuffle's set-up the path's) -------------
cdef void sim_deal_from_number(const sim_path* path, sim_deal* d, uint64_t number,
                               const pyr_rules* rules, bint with_cards) noexcept nogil
cdef void sim_deal_from_deck(sim_deal* d, const uint8_t* deck,
                             const pyr_rules* rules) noexcept nogil
cdef uint64_t sim_game_seed(uint64_t seed, uint64_t number) noexcept nogil

# ---- playouts: fill res; record the moves into rec (room for SIM_MAX_RECORD) unless NULL ----
# Return SIM_OK, or SIM_BAD_POLICY / SIM_RECORD_FULL.
cdef int sim_play_random(const sim_deal* d, uint64_t rng, sim_result* res,
                         pyr_move* rec) noexcept nogil
cdef int sim_play_greedy(const sim_deal* d, sim_result* res, pyr_move* rec) noexcept nogil
cdef int sim_play(int policy, const sim_deal* d, uint64_t rng, sim_result* res,
                  pyr_move* rec) noexcept nogil
cdef int sim_play_engine(int policy, const sim_deal* d, uint64_t rng, sim_result* res,
                         pyr_move* rec) noexcept nogil     # greedy or random, else SIM_BAD_POLICY

# ---- batch: games lo .. hi-1 of a batch (deal number start + i, or deals[i] when deals is not
# NULL); writes won/removed/moves/score[i]. Returns SIM_OK or an error code. On the path
# resolved at import (sim_path_in_use) with the move cap SIM_MOVE_CAP; sim_batch_on takes both.
cdef int sim_batch(int policy, const pyr_rules* rules, uint64_t seed, uint64_t start,
                   const uint64_t* deals, Py_ssize_t lo, Py_ssize_t hi, uint8_t* won,
                   uint8_t* removed, uint16_t* moves, uint16_t* score) noexcept nogil
cdef int sim_batch_on(const sim_path* path, int move_cap, int policy, const pyr_rules* rules,
                      uint64_t seed, uint64_t start, const uint64_t* deals, Py_ssize_t lo,
                      Py_ssize_t hi, uint8_t* won, uint8_t* removed, uint16_t* moves,
                      uint16_t* score) noexcept nogil
# The same on explicit layouts: game i plays decks[52 i .. 52 i + 51] (a permutation of 0..51,
# not checked here), its random generator seeded from (seed, keys[i]).
cdef int sim_batch_decks(int policy, const pyr_rules* rules, uint64_t seed, const uint8_t* decks,
                         const uint64_t* keys, Py_ssize_t lo, Py_ssize_t hi, uint8_t* won,
                         uint8_t* removed, uint16_t* moves, uint16_t* score) noexcept nogil

# ---- for the test and benchmark hooks (tests/core_hooks/_simulate_tests.pyx) -----------------
cdef const sim_path* sim_path_in_use() noexcept nogil     # the record resolved at import
cdef int sim_path_for(int id, sim_path* p) noexcept nogil  # sim_path_make, this module's code
cdef int sim_check(int rc) except -1                       # raise for an error code
cdef void sim_deal_rules(sim_deal* d, const pyr_rules* rules) noexcept nogil
cdef void sim_deal_block(const sim_path* path, sim_deal* ds, const uint64_t* numbers,
                         const uint64_t* nxt, pyr_sim_blocker* b) noexcept nogil
cdef bint sim_veto(const sim_deal* d, uint32_t pyr, const uint8_t* pc, const uint8_t* tc,
                   int a, int b) noexcept nogil                 # the greedy policy's veto
# The greedy policy's pick among moves buf[0..n-1] of the engine's position p of table t (d:
# the same deal, sim_deal_from_deck of t's cards); stuck: unlimited redeals and nothing
# removed in this pass. It reads the available cards and how many of each rank are left in
# the pyramid and the talon, nothing unseen: the fair policies (fair.pyx) fall back on it,
# and batch.pyx's greedy_actions asks it.
cdef int sim_greedy_at(const pyr_table* t, const sim_deal* d, pyr_pos p, const pyr_move* buf,
                       int n, bint stuck) noexcept nogil
# The first row of decks[lo .. hi-1] (52 card indices each) that is not a permutation of
# 0..51, or -1.
cdef Py_ssize_t sim_bad_deck(const uint8_t* decks, Py_ssize_t lo, Py_ssize_t hi) noexcept nogil
