# cython: language_level=3
"""N games stepped at once: the native half of pyramid_solitaire.batch (docs/env.md).

Each game is one engine table (position.pxd's pyr_table, its deal under the batch's rules) and
one position word, with a few counters and a random generator: a `bgame`, 240 bytes. Every
call here takes a range of games [lo, hi) and runs without the GIL, so the Python layer can
spread a batch over threads; each game's step depends only on its own state, its action and
the batch's seed, so results do not depend on how the games are split.

Actions are by card identity, the same under every rule set (N_ACTIONS = 102):

    0..3     the King of clubs, diamonds, hearts, spades (alone)
    4..99    a pair summing to 13: 4 + 16 * (r - 1) + 4 * s + u, the low card of rank r
             (1..6) and suit s with the high card of rank 13 - r and suit u
    100      draw
    101      recycle (turn the waste over)

The legal moves come from the engine's gen_moves, the moves' effects from pos_apply: no rule
is written here. The observation (OBS_SIZE small integers, int8) is laid out as

    [0, 28)    pyramid place i: its card + 1 (1..52), for the whole episode
    [28, 52)   talon card t (draw order): its card + 1, or UNKNOWN (53) for a card not yet
               seen in the "visible" mode (a card removed has always been seen)
    [52, 80)   pyramid place i: 0 removed, 1 covered, 2 free
    [80, 104)  talon card t: 0 removed, 1 stock, 2 stock and playable (the stock's top under
               stock_top_playable), 3 waste, 4 waste and playable (a waste pile's top)
    104..108   cards in the stock, cards in the waste, recycles used (0 under unlimited
               redeals, where the engine does not count them), recycles left (-1: unlimited),
               1 if a card was removed since the last recycle (or the deal), else 0
"""
from libc.stdint cimport int8_t, int16_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.stdlib cimport calloc, free, malloc
from libc.string cimport memcpy, memset

from pyramid_core.cards cimport card_rank, card_suit, N_PYRAMID, N_TALON, KING
from pyramid_core.rules cimport pyr_rules, REDEALS_UNLIMITED, rules_from_options
from pyramid_core.geometry cimport free_mask, pyr_ctz32, pyr_popcount32, pyr_geometry_init
from pyramid_core.position cimport (pyr_table, pyr_pos, pyr_move, MAX_MOVES, LOC_TALON,
                                    LOC_NONE, MOVE_DRAW, MOVE_RECYCLE, table_init, table_loc,
                                    pos_start, pos_apply, pos_won, pos_pyr, pos_talon, pos_cur,
                                    pos_recycles, gen_moves, talon_available, move_a, move_b,
                                    move_king, move_pair, below, pos_seen, TALON_ALL,
                                    CUR_SHIFT, REC_SHIFT)
from pyramid_core.shuffle cimport deal_shuffle, splitmix64_next, rand_below
from pyramid_core.solver cimport (solve_ws, solve_out, solve_limits, solve_with, ws_init,
                                  ws_free, relaxed_moves, OBJ_ANY, OBJ_MIN_MOVES,
                                  OBJ_MAX_REMOVED)
from pyramid_core.simulate cimport sim_deal, sim_deal_from_deck, sim_greedy_at
from pyramid_core.fair cimport (fair_params, fair_ctx, fair_ctx_init, fair_ctx_free,
                                fair_decide, fair_params_from)

pyr_geometry_init()

cdef extern from "pyr_cancel.h" nogil:
    int pyr_cancelled(const volatile uint8_t* f)

cdef enum:
    N_ACTIONS = 102
    A_DRAW = 100
    A_RECYCLE = 101
    SKIP = -1           # Batch.step: the game makes no move (only the Python layer's own
                        # callers pass it: user actions are checked to be 0..101)
    OBS_SIZE = 109
    O_PCARD = 0
    O_TCARD = 28
    O_PSTATE = 52
    O_TSTATE = 80
    O_SCALAR = 104
    UNKNOWN = 53
    # bgame.flags
    F_DONE = 1          # the episode has ended (terminated or truncated)
    F_TERMINATED = 2    # ... by a win or no moves (or an illegal action under "penalty")
    F_TRUNCATED = 4     # ... by the step limit or a pass that can only repeat
    F_SAW_REMOVAL = 8   # a removal was legal at some position of this pass
    F_NUMBERED = 16     # the deal is a numbered one (`key` is its number)
    F_ILLEGAL = 32      # this episode ended on an illegal action (penalty mode)
    F_PASS_REMOVED = 64  # a card was removed since the last recycle (or the deal)
    # reward kinds
    R_REMOVED = 0       # pyramid cards removed by the step
    R_WIN = 1           # 1 on the winning step
    R_SCORE = 2         # a session profile's points (removals, and the bonus on a win)
    # what an illegal action does
    I_RAISE = 0         # the Python layer raises before anything changes (check())
    I_IGNORE = 1        # nothing changes; the game's `illegal` output is set
    I_PENALTY = 2       # the episode ends (terminated) with reward -penalty
    # autoreset
    AR_NONE = 0         # an ended game stays as it is: actions are ignored
    AR_NEXT = 1         # an ended game is dealt anew at its next step (the action ignored)
    AR_SAME = 2         # an ended game is dealt anew in the step that ends it

ctypedef struct bgame:
    pyr_table t         # the deal under the batch's rules (the engine's table)
    pyr_pos pos         # the position (position.pxd's word)
    uint64_t legal[2]   # the legal actions' bits (0..63, 64..101)
    uint64_t key        # the deal's number, or its row in the caller's deals
    uint64_t rng        # step_random's generator (SplitMix64), keyed by (seed, game, episode)
    uint32_t seen       # talon cards turned face up so far (the visible mode shows them)
    uint32_t episode    # episodes dealt to this game so far (its k-th deal of the stream)
    uint16_t steps      # moves in this episode
    uint8_t flags       # F_*
    uint8_t n_legal     # how many actions are legal

cdef uint64_t C_DEAL = 0x243F6A8885A308D3ULL      # the deal stream's and the random actions'
cdef uint64_t C_ACT = 0x13198A2E03707344ULL       # keys (digits of pi)
cdef uint64_t N_DEALS = 8031810176ULL             # 26 ** 7 deal numbers
# Byte-spread table: bit j of the index becomes byte j of the value (0 or 1).
cdef uint64_t SPREAD[256]


cdef uint8_t ACTION_OF[52 * 52]   # [c * 52 + d]: the action of the pair c, d; [c * 52 + c]:
                                  # of the King c


cdef void _init_tables():
    cdef int i, j
    cdef uint8_t b[8]
    for i in range(256):              # (bytes in memory order: the same on any endianness)
        for j in range(8):
            b[j] = (i >> j) & 1
        memcpy(&SPREAD[i], b, 8)
    for i in range(52):
        for j in range(52):
            ACTION_OF[52 * i + j] = 0
            if card_rank(i) + card_rank(j) == 13:
                ACTION_OF[52 * i + j] = pair_action(i, j)
        if card_rank(i) == KING:
            ACTION_OF[52 * i + i] = card_suit(i)


# ---- the action table -----------------------------------------------------------------------

cdef inline int pair_action(int c, int d) noexcept nogil:
    """The action of the pair of cards c, d (ranks summing to 13)."""
    if card_rank(c) > 6:
        c, d = d, c
    return 4 + 16 * (card_rank(c) - 1) + 4 * card_suit(c) + card_suit(d)


cdef inline int move_action(const pyr_table* t, pyr_move m) noexcept nogil:
    """The action of engine move m in the game of table t."""
    cdef int a = move_a(m), b = move_b(m)
    if a == LOC_NONE:
        return A_DRAW if m == MOVE_DRAW else A_RECYCLE
    if b == LOC_NONE:
        b = a
    return ACTION_OF[52 * t.card[a] + t.card[b]]


cdef inline int action_cards(int a, int* c, int* d) noexcept nogil:
    """The cards of action a (0..99): the King's (d = -1) or the pair's; returns a."""
    cdef int r, s, u
    if a < 4:
        c[0] = 13 * a + KING - 1
        d[0] = -1
        return a
    a -= 4
    r = a // 16 + 1
    s = (a // 4) % 4
    u = a % 4
    c[0] = 13 * s + r - 1
    d[0] = 13 * u + (13 - r) - 1
    return a + 4


cdef inline pyr_move action_move(const pyr_table* t, int a) noexcept nogil:
    """The engine move of action a in the game of table t (legal or not)."""
    cdef int c, d
    if a == A_DRAW:
        return MOVE_DRAW
    if a == A_RECYCLE:
        return MOVE_RECYCLE
    action_cards(a, &c, &d)
    if d < 0:
        return move_king(table_loc(t, c))
    return move_pair(table_loc(t, c), table_loc(t, d))


_init_tables()


cdef inline bint is_legal(const bgame* g, int a) noexcept nogil:
    return (g.legal[a >> 6] >> (a & 63)) & 1


# ---- deals ----------------------------------------------------------------------------------

cdef inline uint64_t stream_number(uint64_t seed, uint64_t game, uint64_t k) noexcept nogil:
    """Deal number of the stream's game `game`, episode k: SplitMix64 keyed by (seed, game,
    k), reduced to 0 .. 26**7 - 1 without bias (rejection)."""
    cdef uint64_t s = seed ^ C_DEAL, x
    cdef uint64_t limit = <uint64_t>0 - ((<uint64_t>0 - N_DEALS) % N_DEALS)   # 2**64 - (2**64 % N)
    s = splitmix64_next(&s) ^ game
    s = splitmix64_next(&s) ^ k
    x = splitmix64_next(&s)
    while limit != 0 and x >= limit:
        x = splitmix64_next(&s)
    return x % N_DEALS


cdef inline int ctz64(uint64_t x) noexcept nogil:
    if <uint32_t>x:
        return pyr_ctz32(<uint32_t>x)
    return 32 + pyr_ctz32(<uint32_t>(x >> 32))


cdef inline uint64_t action_seed(uint64_t seed, uint64_t game, uint64_t k) noexcept nogil:
    """The random actions' generator of game `game`'s k-th episode."""
    cdef uint64_t s = seed ^ C_ACT
    s = splitmix64_next(&s) ^ game
    s = splitmix64_next(&s) ^ k
    return splitmix64_next(&s)


cdef inline uint32_t random_action(bgame* g) noexcept nogil:
    """A uniform legal action of game g (Lemire's draw on its generator): the j-th of its
    n_legal actions, in increasing order."""
    cdef uint64_t w
    cdef int j, word = 0
    if g.n_legal == 0:
        return A_DRAW
    j = <int>rand_below(&g.rng, g.n_legal)
    w = g.legal[0]
    while True:
        while w and j > 0:
            w &= w - 1
            j -= 1
        if w:
            return <uint32_t>(64 * word + ctz64(w))
        if word == 1:         # (never: n_legal counts the bits)
            return A_DRAW
        word = 1
        w = g.legal[1]


# ---- one game -------------------------------------------------------------------------------

cdef inline void seen_update(bgame* g) noexcept nogil:
    """Cards face up now join the seen ones (position.pxd's pos_seen)."""
    g.seen = pos_seen(&g.t, g.pos, g.seen)


cdef inline int list_legal(bgame* g) noexcept nogil:
    """The legal actions of g's position into g.legal (and F_SAW_REMOVAL); returns how many
    moves (0: the game is over)."""
    cdef pyr_move buf[MAX_MOVES]
    cdef int n = gen_moves(&g.t, g.pos, buf), i, a, count = 0
    cdef uint64_t bit
    g.legal[0] = 0
    g.legal[1] = 0
    for i in range(n):
        a = move_action(&g.t, buf[i])
        bit = (<uint64_t>1) << (a & 63)
        count += (g.legal[a >> 6] & bit) == 0
        g.legal[a >> 6] |= bit
    g.n_legal = <uint8_t>count
    if (g.legal[0] | (g.legal[1] & ((<uint64_t>1 << 36) - 1))) != 0:
        g.flags |= F_SAW_REMOVAL
    return n


cdef inline void deal_game(bgame* g, const uint8_t* deck, const pyr_rules* rules,
                           uint64_t key, bint numbered, uint64_t seed,
                           uint64_t game) noexcept nogil:
    """Deal game `game` (of the stream) the deck; its k-th episode begins."""
    table_init(&g.t, deck, rules)
    g.rng = action_seed(seed, game, g.episode)
    g.pos = pos_start(&g.t)
    g.key = key
    g.seen = 0
    g.steps = 0
    g.flags = F_NUMBERED if numbered else 0
    g.episode += 1
    seen_update(g)
    list_legal(g)


cdef inline void write_mask(const bgame* g, uint8_t* m) noexcept nogil:
    """The legal actions as N_ACTIONS bytes of 0 or 1 (a handful are ever set)."""
    cdef uint64_t w
    cdef int k
    memset(m, 0, N_ACTIONS)
    for k in range(2):
        w = g.legal[k]
        while w:
            m[64 * k + ctz64(w)] = 1
            w &= w - 1


cdef inline uint64_t load8(const uint8_t* p) noexcept nogil:
    cdef uint64_t x
    memcpy(&x, p, 8)
    return x


cdef inline void store8(int8_t* p, uint64_t x) noexcept nogil:
    memcpy(p, &x, 8)


cdef inline uint64_t spread8(uint32_t bits, int j) noexcept nogil:
    """Bits 8j .. 8j+7 of `bits` as eight bytes of 0 or 1."""
    return SPREAD[(bits >> (8 * j)) & 0xFF]


cdef inline void write_obs(const bgame* g, bint visible, int8_t* o) noexcept nogil:
    """The observation of g (module docstring) into o[0 .. OBS_SIZE): eight places at a time,
    each bit mask spread to bytes (SPREAD) and combined bytewise (no byte ever carries)."""
    cdef uint32_t pyr = pos_pyr(g.pos), talon = pos_talon(g.pos), f = free_mask(pyr)
    cdef uint32_t waste = talon & below(pos_cur(g.pos)), play = 0, hidden = 0
    cdef uint64_t ones = 0x0101010101010101ULL, h
    cdef int av[3]
    cdef int n_av = talon_available(&g.t, g.pos, av), i, left
    for i in range(n_av):
        play |= (<uint32_t>1) << av[i]
    if visible:
        hidden = TALON_ALL & ~g.seen
    # Each part is written in the order of the row, so a last 8-byte store that runs into
    # the next part is overwritten by it.
    for i in range(4):                        # pyramid cards (28: the 4th store spills 4)
        store8(o + O_PCARD + 8 * i, load8(g.t.card + 8 * i) + ones)
    for i in range(3):                        # talon cards
        h = spread8(hidden, i)
        store8(o + O_TCARD + 8 * i, ((load8(g.t.card + LOC_TALON + 8 * i) + ones)
                                     & ~(h * 0xFF)) | (h * UNKNOWN))
    for i in range(4):                        # pyramid states
        store8(o + O_PSTATE + 8 * i, spread8(pyr, i) + spread8(f, i))
    for i in range(3):                        # talon states
        store8(o + O_TSTATE + 8 * i, spread8(talon, i) + 2 * spread8(waste, i)
               + spread8(play, i))
    o[O_SCALAR] = <int8_t>pyr_popcount32(talon & ~waste)
    o[O_SCALAR + 1] = <int8_t>pyr_popcount32(waste)
    o[O_SCALAR + 2] = <int8_t>pos_recycles(g.pos)
    if g.t.rules.redeals == REDEALS_UNLIMITED:
        left = -1
    else:
        left = g.t.rules.redeals - pos_recycles(g.pos)
    o[O_SCALAR + 3] = <int8_t>left
    o[O_SCALAR + 4] = (g.flags & F_PASS_REMOVED) != 0


ctypedef struct bconf:
    # What every game of a batch shares.
    pyr_rules rules
    uint64_t seed
    uint64_t offset           # game i of the batch is game offset + i of the stream
    int visible
    int reward
    int illegal
    int autoreset
    int max_steps
    float penalty
    float pts_pyramid         # R_SCORE: points per pyramid card, per talon card, the win
    float pts_talon           # bonus and what each move takes off it
    float win_bonus
    float bonus_per_move
    const uint8_t* decks      # the caller's deals (n_decks x 52), or NULL: the seeded stream
    const uint64_t* keys      # their numbers (or rows)
    const uint8_t* numbered   # 1 where keys[j] is a deal number
    int64_t n_decks
    int64_t n                 # games in the batch
    const uint64_t* seeds     # per game, or NULL: game i of the batch is a batch of one game
                              # seeded seeds[i] (its stream's game 0), not game offset + i


cdef inline uint64_t game_seed(const bconf* c, int64_t i) noexcept nogil:
    """The seed of game i's deal stream and random actions."""
    return c.seeds[i] if c.seeds != NULL else c.seed


cdef inline uint64_t game_index(const bconf* c, int64_t i) noexcept nogil:
    """Which game of its seed's stream game i is."""
    return 0 if c.seeds != NULL else c.offset + <uint64_t>i


cdef inline void next_deal(const bconf* c, bgame* g, int64_t i) noexcept nogil:
    """Deal game i its next episode's deal: the stream's, or the caller's row
    (i + k * n) % n_decks for its k-th episode."""
    cdef uint8_t deck[52]
    cdef uint64_t number
    cdef int64_t row
    if c.decks == NULL:
        number = stream_number(game_seed(c, i), game_index(c, i), g.episode)
        deal_shuffle(number, deck)
        deal_game(g, deck, &c.rules, number, True, game_seed(c, i), game_index(c, i))
    else:
        row = (i + <int64_t>(g.episode % <uint64_t>c.n_decks) * (c.n % c.n_decks)) % c.n_decks
        deal_game(g, c.decks + 52 * row, &c.rules, c.keys[row], c.numbered[row] != 0,
                  game_seed(c, i), game_index(c, i))


cdef inline float step_game(const bconf* c, bgame* g, int a, uint8_t* illegal) noexcept nogil:
    """Play action a in game g (not ended); returns the reward."""
    cdef pyr_move m
    cdef int n, dp, dt, ma, mb
    cdef float r = 0
    if a < 0 or a >= N_ACTIONS or not is_legal(g, a):
        illegal[0] = 1
        if c.illegal == I_PENALTY:
            g.flags |= F_DONE | F_TERMINATED | F_ILLEGAL
            return -c.penalty
        g.steps += 1                  # (I_IGNORE: the step limit still ends the episode)
        if g.steps >= c.max_steps:
            g.flags |= F_DONE | F_TRUNCATED
        return 0
    m = action_move(&g.t, a)
    ma = move_a(m)
    mb = move_b(m)
    g.pos = pos_apply(&g.t, g.pos, m)
    g.steps += 1
    if m == MOVE_RECYCLE:
        g.flags &= ~(F_SAW_REMOVAL | F_PASS_REMOVED)
    elif a < A_DRAW:
        g.flags |= F_PASS_REMOVED
    seen_update(g)
    n = list_legal(g)
    if ma == LOC_NONE:                  # draw or recycle: no card removed
        dp = dt = 0
    else:                               # the move's pyramid and talon cards (a King: b none)
        dp = (ma < N_PYRAMID) + (mb < N_PYRAMID)
        dt = (ma >= LOC_TALON) + (mb >= LOC_TALON and mb != LOC_NONE)
    if c.reward == R_REMOVED:
        r = dp
    elif c.reward == R_SCORE:
        r = c.pts_pyramid * dp + c.pts_talon * dt
    if n == 0:
        g.flags |= F_DONE | F_TERMINATED
        if pos_won(&g.t, g.pos):
            if c.reward == R_WIN:
                r = 1
            elif c.reward == R_SCORE and c.win_bonus > 0:
                dt = <int>(c.win_bonus - c.bonus_per_move * g.steps)   # the session's int()
                r += dt if dt > 0 else 0
    elif g.steps >= c.max_steps or (
            c.rules.redeals == REDEALS_UNLIMITED and (g.flags & F_SAW_REMOVAL) == 0
            and g.legal[0] == 0 and g.legal[1] == (<uint64_t>1) << (A_RECYCLE - 64)):
        # (only recycling is left, and no removal was legal anywhere in this pass: the next
        # passes can only repeat it)
        g.flags |= F_DONE | F_TRUNCATED
    return r


cdef solve_out* _solver_begin(solve_ws* ws, solve_limits* lim, int64_t max_nodes,
                              double max_seconds, int64_t max_memory,
                              const uint8_t* cancel) except NULL:
    """The solver's workspace, budgets and output for a call solving many positions (the
    caller frees the output and the workspace); MemoryError when they cannot be had."""
    cdef solve_out* out = <solve_out*>malloc(sizeof(solve_out))
    memset(ws, 0, sizeof(solve_ws))
    if out == NULL or ws_init(ws) < 0:
        free(out)
        ws_free(ws)
        raise MemoryError()
    lim.max_nodes = max_nodes
    lim.max_seconds = max_seconds
    lim.max_memory = max_memory
    lim.no_prune = 0
    lim.cancel = cancel
    return out


cdef class Batch:
    """The games of a pyramid_solitaire.batch.GameBatch (which validates every argument)."""
    cdef bgame* g
    cdef bconf c
    cdef object _keep         # the caller's deals, kept alive while c points into them
    cdef object _keep_seeds   # the per-game seeds, kept alive while c points into them
    cdef object _keep_info    # the info buffers, kept alive while the pointers below are used
    cdef uint16_t* info_moves     # per game, written with every observation row: its moves,
    cdef uint64_t* info_keys      # its deal's key
    cdef uint8_t* info_numbered   # and whether that is a deal number
    cdef object _keep_out     # step()'s output buffers (set_outputs), and pointers to them
    cdef int8_t* o_obs
    cdef uint8_t* o_mask
    cdef float* o_reward
    cdef uint8_t* o_term
    cdef uint8_t* o_trunc
    cdef uint8_t* o_ill
    cdef uint8_t* o_reset
    cdef int8_t* o_fobs
    cdef uint8_t* o_fmask
    cdef object _keep_final   # set_final_info's buffers: an ended game's info (same step)
    cdef uint16_t* f_moves
    cdef uint64_t* f_keys
    cdef uint8_t* f_numbered

    def __cinit__(self, int64_t n, dict rules, uint64_t seed, uint64_t offset, bint visible,
                  int reward, int illegal, int autoreset, int max_steps, float penalty,
                  scoring, decks, keys, numbered, seeds=None):
        cdef const uint8_t[:, ::1] dv
        cdef const uint64_t[::1] kv
        cdef const uint8_t[::1] nv
        cdef const uint64_t[::1] sv
        self.g = <bgame*>calloc(n, sizeof(bgame))
        if self.g == NULL:
            raise MemoryError()
        memset(&self.c, 0, sizeof(bconf))
        rules_from_options(&self.c.rules, rules)
        self.c.n = n
        self.c.seed = seed
        self.c.offset = offset
        self.c.visible = visible
        self.c.reward = reward
        self.c.illegal = illegal
        self.c.autoreset = autoreset
        self.c.max_steps = max_steps
        self.c.penalty = penalty
        self.c.pts_pyramid, self.c.pts_talon, self.c.win_bonus, self.c.bonus_per_move = scoring
        if decks is not None:
            dv = decks
            kv = keys
            nv = numbered
            self._keep = (decks, keys, numbered)
            self.c.decks = &dv[0, 0]
            self.c.keys = &kv[0]
            self.c.numbered = &nv[0]
            self.c.n_decks = dv.shape[0]
        if seeds is not None:
            sv = seeds
            if sv.shape[0] != n:
                raise ValueError(f"seeds holds {sv.shape[0]} seeds for {n} games")
            self._keep_seeds = seeds
            self.c.seeds = &sv[0]

    def __dealloc__(self):
        free(self.g)

    def set_info(self, uint16_t[::1] moves, uint64_t[::1] keys, uint8_t[::1] numbered):
        """The per-game info buffers (n each) that every reset and step keeps up to date."""
        self._keep_info = (moves, keys, numbered)
        self.info_moves = &moves[0]
        self.info_keys = &keys[0]
        self.info_numbered = &numbered[0]

    def set_final_info(self, uint16_t[::1] moves, uint64_t[::1] keys, uint8_t[::1] numbered):
        """Under autoreset "same step": buffers (n each) where step() writes the info of each
        game that ended in it (its moves, its deal's key and whether that is a number), as
        it was before the game was dealt anew."""
        self._keep_final = (moves, keys, numbered)
        self.f_moves = &moves[0]
        self.f_keys = &keys[0]
        self.f_numbered = &numbered[0]

    cdef inline void publish(self, int64_t i) noexcept nogil:
        cdef bgame* g = &self.g[i]
        if self.info_moves != NULL:
            self.info_moves[i] = g.steps
            self.info_keys[i] = g.key
            self.info_numbered[i] = (g.flags & F_NUMBERED) != 0

    @property
    def n(self):
        return self.c.n

    # ---- resets ------------------------------------------------------------------------------

    def reset(self, int64_t lo, int64_t hi, const uint8_t[::1] which, int8_t[:, ::1] obs,
              uint8_t[:, ::1] mask):
        """Deal games lo..hi-1 (those with which[i], or all when which is None) their next
        deal and write their observations and masks."""
        cdef int64_t i
        with nogil:
            for i in range(lo, hi):
                if which is None or which[i]:
                    next_deal(&self.c, &self.g[i], i)
                    write_obs(&self.g[i], self.c.visible, &obs[i, 0])
                    write_mask(&self.g[i], &mask[i, 0])
                    self.publish(i)

    def reset_decks(self, const int64_t[::1] games, const uint8_t[:, ::1] decks,
                    const uint64_t[::1] keys, const uint8_t[::1] numbered, int8_t[:, ::1] obs,
                    uint8_t[:, ::1] mask):
        """Deal games[j] the deck decks[j] (checked by the caller)."""
        cdef Py_ssize_t j
        cdef bgame* g
        with nogil:
            for j in range(games.shape[0]):
                g = &self.g[games[j]]
                deal_game(g, &decks[j, 0], &self.c.rules, keys[j], numbered[j] != 0,
                          game_seed(&self.c, games[j]), game_index(&self.c, games[j]))
                write_obs(g, self.c.visible, &obs[games[j], 0])
                write_mask(g, &mask[games[j], 0])
                self.publish(games[j])

    # ---- steps -------------------------------------------------------------------------------

    def first_illegal(self, const int64_t[::1] actions, int64_t lo, int64_t hi):
        """The first game in lo..hi-1 still playing whose action is not legal, or -1."""
        cdef int64_t i, a, bad = -1
        with nogil:
            for i in range(lo, hi):
                if self.g[i].flags & F_DONE:
                    continue
                a = actions[i]
                if a < 0 or a >= N_ACTIONS or not is_legal(&self.g[i], <int>a):
                    bad = i
                    break
        return bad

    def set_outputs(self, int8_t[:, ::1] obs, uint8_t[:, ::1] mask, float[::1] reward,
                    uint8_t[::1] terminated, uint8_t[::1] truncated, uint8_t[::1] illegal,
                    uint8_t[::1] reset, int8_t[:, ::1] final_obs, uint8_t[:, ::1] final_mask):
        """The buffers step() writes (n rows each; final_obs and final_mask only under
        same-step autoreset), given once: a step then takes no buffer but its actions."""
        self._keep_out = (obs, mask, reward, terminated, truncated, illegal, reset, final_obs,
                          final_mask)
        self.o_obs = &obs[0, 0]
        self.o_mask = &mask[0, 0]
        self.o_reward = &reward[0]
        self.o_term = &terminated[0]
        self.o_trunc = &truncated[0]
        self.o_ill = &illegal[0]
        self.o_reset = &reset[0]
        self.o_fobs = &final_obs[0, 0]
        self.o_fmask = &final_mask[0, 0]

    def step(self, int64_t[::1] actions, int64_t lo, int64_t hi, bint random=False):
        """Play actions[i] in games lo..hi-1 (random=True: a uniform legal action of each,
        written to actions; -1 for a game that makes no move) and write their rows of the
        set_outputs buffers (see GameBatch.step)."""
        cdef int64_t i
        cdef bgame* g
        cdef int8_t* obs = self.o_obs
        cdef uint8_t* mask = self.o_mask
        cdef float* reward = self.o_reward
        cdef uint8_t* terminated = self.o_term
        cdef uint8_t* truncated = self.o_trunc
        cdef uint8_t* illegal = self.o_ill
        cdef uint8_t* reset = self.o_reset
        if obs == NULL:
            raise ValueError("set_outputs() first")
        with nogil:
            for i in range(lo, hi):
                g = &self.g[i]
                illegal[i] = 0
                reset[i] = 0
                if g.flags & F_DONE:
                    reward[i] = 0
                    if random:
                        actions[i] = SKIP     # (no move made)
                    if self.c.autoreset == AR_NEXT:
                        next_deal(&self.c, g, i)
                        reset[i] = 1
                    else:         # an ended game waits for its reset: nothing changes
                        terminated[i] = (g.flags & F_TERMINATED) != 0
                        truncated[i] = (g.flags & F_TRUNCATED) != 0
                        continue
                elif actions[i] == SKIP and not random:    # (simulate: this game waits)
                    reward[i] = 0
                    terminated[i] = 0
                    truncated[i] = 0
                    continue
                else:
                    if random:
                        actions[i] = random_action(g)
                    reward[i] = step_game(&self.c, g, <int>actions[i], &illegal[i])
                    if g.flags & F_DONE and self.c.autoreset == AR_SAME:
                        write_obs(g, self.c.visible, self.o_fobs + OBS_SIZE * i)
                        write_mask(g, self.o_fmask + N_ACTIONS * i)
                        if self.f_moves != NULL:
                            self.f_moves[i] = g.steps
                            self.f_keys[i] = g.key
                            self.f_numbered[i] = (g.flags & F_NUMBERED) != 0
                        terminated[i] = (g.flags & F_TERMINATED) != 0
                        truncated[i] = (g.flags & F_TRUNCATED) != 0
                        next_deal(&self.c, g, i)
                        reset[i] = 1
                        write_obs(g, self.c.visible, obs + OBS_SIZE * i)
                        write_mask(g, mask + N_ACTIONS * i)
                        self.publish(i)
                        continue
                terminated[i] = (g.flags & F_TERMINATED) != 0
                truncated[i] = (g.flags & F_TRUNCATED) != 0
                write_obs(g, self.c.visible, obs + OBS_SIZE * i)
                write_mask(g, mask + N_ACTIONS * i)
                self.publish(i)

    def rollout(self, int64_t steps, int64_t lo, int64_t hi, int64_t[::1] out,
                const uint8_t[::1] cancel, int8_t[:, ::1] obs, uint8_t[:, ::1] mask,
                bint write):
        """`steps` steps of uniform random legal actions in games lo..hi-1, every game dealt
        anew as soon as its episode ends (the benchmark's "random actions chosen in the
        core"); write: write the observations and masks at every step. Adds to out the
        steps played, the episodes ended and the wins. Stops early once cancel[0] is set."""
        cdef int64_t _s, i, n_steps = 0, ended = 0, wins = 0
        cdef bgame* g
        cdef uint8_t ill
        with nogil:
            # Game by game (the games are independent, so the order changes nothing): one
            # game's state stays in the cache for all its moves.
            for i in range(lo, hi):
                if (i & 255) == 0 and pyr_cancelled(&cancel[0]):
                    break
                g = &self.g[i]
                if g.flags & F_DONE:          # ended before this call: dealt anew, not counted
                    next_deal(&self.c, g, i)
                for _s in range(steps):
                    step_game(&self.c, g, random_action(g), &ill)
                    n_steps += 1
                    if g.flags & F_DONE:
                        ended += 1
                        wins += pos_won(&g.t, g.pos)
                        next_deal(&self.c, g, i)
                    if write:
                        write_obs(g, self.c.visible, &obs[i, 0])
                        write_mask(g, &mask[i, 0])
                self.publish(i)
        out[0] += n_steps
        out[1] += ended
        out[2] += wins

    def observe(self, int64_t lo, int64_t hi, int8_t[:, ::1] obs, uint8_t[:, ::1] mask,
                bint visible):
        """Write the observations (in the given mode) and masks of games lo..hi-1."""
        cdef int64_t i
        with nogil:
            for i in range(lo, hi):
                write_obs(&self.g[i], visible, &obs[i, 0])
                write_mask(&self.g[i], &mask[i, 0])

    # ---- what the Python layer reads ------------------------------------------------------

    def state(self, int64_t[:, ::1] out):
        """Per game: position word, deal key, numbered, steps, episode, flags, the talon
        cards seen so far (as int64; the position as its bits)."""
        cdef int64_t i
        for i in range(self.c.n):
            out[i, 0] = <int64_t>self.g[i].pos
            out[i, 1] = <int64_t>self.g[i].key
            out[i, 2] = (self.g[i].flags & F_NUMBERED) != 0
            out[i, 3] = self.g[i].steps
            out[i, 4] = self.g[i].episode
            out[i, 5] = self.g[i].flags
            out[i, 6] = self.g[i].seen

    def get_games(self, uint8_t[:, ::1] cards, uint64_t[:, ::1] words):
        """Every game as plain numbers, which set_games puts back: its deck (n x 52) and
        STATE_WORDS words (position, key, rng, seen, episode, steps, flags)."""
        cdef int64_t i
        cdef bgame* g
        if cards.shape[0] != self.c.n or words.shape[0] != self.c.n or \
                cards.shape[1] != 52 or words.shape[1] != STATE_WORDS:
            raise ValueError("get_games: buffers of the wrong shape")
        for i in range(self.c.n):
            g = &self.g[i]
            memcpy(&cards[i, 0], g.t.card, 52)
            words[i, 0] = g.pos
            words[i, 1] = g.key
            words[i, 2] = g.rng
            words[i, 3] = g.seen
            words[i, 4] = g.episode
            words[i, 5] = g.steps
            words[i, 6] = g.flags

    def set_games(self, const uint8_t[:, ::1] cards, const uint64_t[:, ::1] words):
        """Put the games back as get_games gave them (the decks checked by the caller to be
        permutations): each table made anew under the batch's rules, each word checked to
        fit its field (a position that names no talon card past the 24th, no more recycles
        than the rules allow), the legal actions listed anew. Nothing changes when a row is
        refused (ValueError naming it)."""
        cdef int64_t i
        cdef bgame* g
        cdef uint64_t p
        cdef int most = self.c.rules.redeals
        if cards.shape[0] != self.c.n or words.shape[0] != self.c.n or \
                cards.shape[1] != 52 or words.shape[1] != STATE_WORDS:
            raise ValueError("set_games: arrays of the wrong shape")
        for i in range(self.c.n):
            p = words[i, 0]
            if (p >> 63) or ((p >> CUR_SHIFT) & 31) > N_TALON or (
                    most != REDEALS_UNLIMITED and <int>(p >> REC_SHIFT) > most) or (
                    most == REDEALS_UNLIMITED and (p >> REC_SHIFT) != 0):
                raise ValueError(f"game {i}: its position word {p:#x} is no position")
            if words[i, 3] >> 24 or words[i, 4] >> 32 or words[i, 5] > 65535 or \
                    words[i, 6] > 255:
                raise ValueError(f"game {i}: a state word out of its range")
        for i in range(self.c.n):
            g = &self.g[i]
            table_init(&g.t, &cards[i, 0], &self.c.rules)
            g.pos = words[i, 0]
            g.key = words[i, 1]
            g.rng = words[i, 2]
            g.seen = <uint32_t>words[i, 3]
            g.episode = <uint32_t>words[i, 4]
            g.steps = <uint16_t>words[i, 5]
            g.flags = <uint8_t>words[i, 6]
            list_legal(g)
            self.publish(i)

    def won(self, uint8_t[::1] out):
        """1 where a game's position is won."""
        cdef int64_t i
        for i in range(self.c.n):
            out[i] = pos_won(&self.g[i].t, self.g[i].pos)

    def deck(self, int64_t i):
        """Game i's 52 card indices (pyramid row-major, then the talon in draw order)."""
        return bytes((<char*>self.g[i].t.card)[:52])

    # ---- solver labels ---------------------------------------------------------------------

    def labels(self, const int64_t[::1] games, int64_t lo, int64_t hi, bint shortest,
               bint max_removed, int64_t max_nodes, double max_seconds, int64_t max_memory,
               int8_t[::1] winnable, int16_t[::1] n_moves, int16_t[::1] action,
               int8_t[::1] removable, int8_t[::1] stop, const uint8_t[::1] cancel):
        """Solve the positions of games[lo..hi-1] (rows lo..hi-1 of the outputs):
        winnable (1/0/-1 unknown), n_moves (a shortest win's length with `shortest`, else
        -1), action (the first move of a shortest win, of a win, or of a line removing the
        most pyramid cards; -1 none or unknown), removable (with max_removed: the most
        pyramid cards still removable from here; -1 unknown), stop (which budget ran out)."""
        cdef solve_ws ws
        cdef solve_limits lim
        cdef solve_out* out = _solver_begin(&ws, &lim, max_nodes, max_seconds, max_memory,
                                            &cancel[0])
        cdef int64_t j
        cdef bgame* g
        cdef int gone
        try:
            with nogil:
                for j in range(lo, hi):
                    g = &self.g[games[j]]
                    gone = 28 - pyr_popcount32(pos_pyr(g.pos))     # removed already
                    solve_with(&ws, &g.t, g.pos, OBJ_MIN_MOVES if shortest else OBJ_ANY,
                               &lim, out)
                    winnable[j] = out.winnable
                    stop[j] = out.stop
                    n_moves[j] = (out.n_moves if shortest and out.winnable == 1 and out.optimal
                                  else -1)
                    action[j] = move_action(&g.t, out.line[0]) \
                        if out.winnable == 1 and out.n_moves > 0 else -1
                    removable[j] = 28 - gone if out.winnable == 1 else -1
                    if max_removed and out.winnable == 0:
                        solve_with(&ws, &g.t, g.pos, OBJ_MAX_REMOVED, &lim, out)
                        stop[j] = out.stop
                        if out.max_removed >= 0 and out.stop == 0:
                            removable[j] = out.max_removed - gone
                            if out.n_moves > 0:
                                action[j] = move_action(&g.t, out.line[0])
                    if pyr_cancelled(&cancel[0]):
                        break
        finally:
            free(out)
            ws_free(&ws)

    def optimal_masks(self, const int64_t[::1] games, int64_t lo, int64_t hi, bint shortest,
                      bint max_removed, int64_t max_nodes, double max_seconds,
                      int64_t max_memory, const int8_t[::1] winnable,
                      const int16_t[::1] n_moves, const int8_t[::1] removable,
                      uint8_t[:, ::1] mask, int8_t[::1] stop, const uint8_t[::1] cancel):
        """Every optimal action of games[lo..hi-1] into mask rows lo..hi-1, from `labels`'
        answers: for a winnable position, the actions after which a shortest win is one
        move shorter (`shortest` and n_moves known), else those after which it can still be
        won; for a lost one with max_removed, those after which the most pyramid cards can
        still go. Each action's position is decided by the solver (budgets per position);
        a budget that runs out leaves the row empty, with stop saying which."""
        cdef solve_ws ws
        cdef solve_limits lim
        cdef solve_out* out = _solver_begin(&ws, &lim, max_nodes, max_seconds, max_memory,
                                            &cancel[0])
        cdef pyr_move buf[MAX_MOVES]
        cdef int64_t j
        cdef int n, i, k, gone, target
        cdef bgame* g
        cdef pyr_pos c
        cdef bint ok
        try:
            with nogil:
                for j in range(lo, hi):
                    memset(&mask[j, 0], 0, N_ACTIONS)
                    g = &self.g[games[j]]
                    if winnable[j] < 0 or (winnable[j] == 0 and
                                           (not max_removed or removable[j] < 0)):
                        continue
                    gone = 28 - pyr_popcount32(pos_pyr(g.pos))
                    target = gone + removable[j]
                    n = gen_moves(&g.t, g.pos, buf)
                    for i in range(n):
                        c = pos_apply(&g.t, g.pos, buf[i])
                        if winnable[j] == 1 and pos_won(&g.t, c):
                            ok = not shortest or n_moves[j] <= 1
                        elif winnable[j] == 1 and shortest and n_moves[j] > 0:
                            solve_with(&ws, &g.t, c, OBJ_MIN_MOVES, &lim, out)
                            ok = out.winnable == 1 and out.optimal \
                                and out.n_moves == n_moves[j] - 1
                        elif winnable[j] == 1:
                            solve_with(&ws, &g.t, c, OBJ_ANY, &lim, out)
                            ok = out.winnable == 1
                        else:
                            solve_with(&ws, &g.t, c, OBJ_MAX_REMOVED, &lim, out)
                            ok = out.stop == 0 and out.max_removed == target
                        if out.stop != 0 and not pos_won(&g.t, c):
                            stop[j] = out.stop
                            memset(&mask[j, 0], 0, N_ACTIONS)
                            break
                        if ok:
                            k = move_action(&g.t, buf[i])
                            mask[j, k] = 1
                    if pyr_cancelled(&cancel[0]):
                        break
        finally:
            free(out)
            ws_free(&ws)

    def fair_actions(self, const int64_t[::1] games, int64_t lo, int64_t hi, dict params,
                     int16_t[::1] action, const uint8_t[::1] cancel,
                     int16_t[:, ::1] wins=None, int16_t[::1] used=None):
        """The hindsight policy's action (pyramid_core.fair) in games[lo..hi-1], from what
        each game has seen (rows lo..hi-1 of action; -1 for a game over). With `wins` (n x
        N_ACTIONS) and `used` (n): the completions each legal action won and how many were
        used (0: no sampling was needed; a move that could no longer reach the best was not
        decided again, its count stops there)."""
        cdef fair_params prm
        cdef fair_ctx ctx
        cdef sim_deal d
        cdef int64_t j
        cdef int m, n, i, counted
        cdef int w[MAX_MOVES]
        cdef pyr_move buf[MAX_MOVES]
        cdef bint with_counts = wins is not None and used is not None
        cdef bgame* g
        fair_params_from(&prm, params)
        if fair_ctx_init(&ctx, &prm, &cancel[0]) < 0:
            raise MemoryError()
        try:
            with nogil:
                for j in range(lo, hi):
                    g = &self.g[games[j]]
                    sim_deal_from_deck(&d, g.t.card, &g.t.rules)
                    m = fair_decide(&ctx, &g.t, &d, g.pos, g.seen,
                                    g.t.rules.redeals == REDEALS_UNLIMITED
                                    and not (g.flags & F_PASS_REMOVED), w, &counted)
                    action[j] = move_action(&g.t, <pyr_move>m) if m >= 0 else -1
                    if with_counts:
                        memset(&wins[j, 0], 0, N_ACTIONS * sizeof(int16_t))
                        used[j] = <int16_t>counted
                        n = gen_moves(&g.t, g.pos, buf)
                        for i in range(n if counted else 0):
                            wins[j, move_action(&g.t, buf[i])] = <int16_t>w[i]
                    if pyr_cancelled(&cancel[0]):
                        break
        finally:
            fair_ctx_free(&ctx)


# ---- the action table, for the Python layer ------------------------------------------------

cdef pyr_pos _obs_position(const int8_t[:, ::1] obs, int64_t i, const pyr_rules* r,
                           pyr_table* t) noexcept nogil:
    """The position of observation row i (OBS_SIZE; "visible" or "full") on a table t built
    from it: the cards not seen yet lie in the unseen places in card order (for what reads
    only the seen cards and which cards the talon holds, never their order)."""
    cdef uint8_t deck[52]
    cdef bint have[52]
    cdef int k, c, m, top = -1, first = -1
    cdef uint32_t pyr = 0, talon = 0
    cdef pyr_pos p
    memset(have, 0, sizeof(have))
    for k in range(52):
        c = obs[i, k] - 1 if k < 28 or obs[i, k] != UNKNOWN else -1
        if 0 <= c < 52:
            have[c] = True
        deck[k] = <uint8_t>c if 0 <= c < 52 else 255
    c = 0
    for k in range(28, 52):       # unseen places: the cards not seen, in card order
        if deck[k] == 255:
            while c < 52 and have[c]:
                c += 1
            deck[k] = <uint8_t>(c if c < 52 else 0)
            c += 1
    table_init(t, deck, r)
    for k in range(28):
        if obs[i, O_PSTATE + k] > 0:
            pyr |= (<uint32_t>1) << k
    for k in range(24):
        if obs[i, O_TSTATE + k] > 0:
            talon |= (<uint32_t>1) << k
        if obs[i, O_TSTATE + k] >= 3:
            top = k
        elif obs[i, O_TSTATE + k] > 0 and first < 0:
            first = k
    if r.draw == 1:
        m = top + 1
    else:
        m = first if first >= 0 else 24
    p = (<pyr_pos>pyr) | ((<pyr_pos>talon) << LOC_TALON) | ((<pyr_pos>m) << 52)
    if r.redeals != REDEALS_UNLIMITED:
        p |= (<pyr_pos>obs[i, O_SCALAR + 2]) << 57
    return p


cdef int _check_obs(const int8_t[:, ::1] obs, Py_ssize_t n_out) except -1:
    if obs.shape[1] != OBS_SIZE or n_out < obs.shape[0]:
        raise ValueError(f"obs is n x {OBS_SIZE} and out has n entries")
    return 0


def greedy_actions(dict rules, const int8_t[:, ::1] obs, int16_t[::1] out):
    """The greedy policy's action (simulate.pxd's sim_greedy_choose) at each observation's
    position (rows of OBS_SIZE; "visible" or "full", the same answer: greedy reads only the
    available cards and how many of each rank are left), -1 where no move is legal. For
    callable policies that want greedy's move."""
    cdef pyr_rules r
    cdef pyr_table t
    cdef sim_deal d
    cdef pyr_move buf[MAX_MOVES]
    cdef int64_t i
    cdef int n, m
    cdef pyr_pos p
    rules_from_options(&r, rules)
    _check_obs(obs, out.shape[0])
    with nogil:
        for i in range(obs.shape[0]):
            p = _obs_position(obs, i, &r, &t)
            n = gen_moves(&t, p, buf)
            if n == 0:
                out[i] = -1
                continue
            sim_deal_from_deck(&d, t.card, &t.rules)
            m = sim_greedy_at(&t, &d, p, buf, n,
                              r.redeals == REDEALS_UNLIMITED and obs[i, O_SCALAR + 4] == 0)
            out[i] = move_action(&t, <pyr_move>m)


def relaxed_actions(dict rules, const int8_t[:, ::1] obs, uint8_t[:, ::1] out):
    """out[i, a] = 1 for each legal action a at observation i's position after which the
    free-talon relaxation (solver.pxd's relaxed_moves) does not prove the game lost, else
    0 (illegal actions 0). It reads only the pyramid and which cards the talon holds, never
    their order: the same answer from "visible" and "full" rows."""
    cdef pyr_rules r
    cdef pyr_table t
    cdef pyr_move buf[MAX_MOVES]
    cdef uint8_t ok[MAX_MOVES]
    cdef solve_ws ws
    cdef int64_t i
    cdef int n, k, rc = 0
    cdef pyr_pos p
    rules_from_options(&r, rules)
    _check_obs(obs, out.shape[0])
    if out.shape[1] != N_ACTIONS:
        raise ValueError(f"out is n x {N_ACTIONS}")
    memset(&ws, 0, sizeof(solve_ws))
    try:
        with nogil:
            if ws_init(&ws) < 0:
                rc = -1
            for i in range(obs.shape[0]):
                if rc < 0:
                    break
                memset(&out[i, 0], 0, N_ACTIONS)
                p = _obs_position(obs, i, &r, &t)
                n = gen_moves(&t, p, buf)
                relaxed_moves(&ws, &t, p, buf, n, ok)
                for k in range(n):
                    out[i, move_action(&t, buf[k])] = ok[k]
    finally:
        ws_free(&ws)
    if rc < 0:
        raise MemoryError("relaxed_actions: out of memory")


def action_cards_of(int a):
    """The card indices of action a (0..99): (King,) or (low card, high card)."""
    cdef int c, d
    action_cards(a, &c, &d)
    if d < 0:
        return (c,)
    return (c, d)


def action_of_cards(int c, int d=-1):
    """The action of a King (d = -1) or of a pair of card indices summing to 13."""
    if d < 0:
        return card_suit(c)
    return pair_action(c, d)


N_ACTIONS_ = N_ACTIONS
OBS_SIZE_ = OBS_SIZE
UNKNOWN_ = UNKNOWN
BYTES_PER_GAME = sizeof(bgame)
STATE_WORDS = 7  # the words of a game's state (Batch.get_games)
REWARDS = {"removed": R_REMOVED, "win": R_WIN, "score": R_SCORE}
ILLEGAL = {"raise": I_RAISE, "ignore": I_IGNORE, "penalty": I_PENALTY}
AUTORESET = {None: AR_NONE, "next_step": AR_NEXT, "same_step": AR_SAME}
