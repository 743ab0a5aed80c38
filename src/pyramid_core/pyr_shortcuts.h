/* The shortcuts of the solver and the simulator, each with the rule options it has been shown
 * sound for: one record per rule set, worked out once (table_init for the solver, the
 * simulator's choice of playout), which bounds.pyx, solver.pyx, shortest.pyx, search.pxd and
 * simulate.pyx ask before a shortcut runs. None of them asks the options whether it may run.
 *
 * A shortcut runs under a rule set only when every option that differs from its default
 * (pyr_rules_changed) is one the shortcut lists as proven, and its own condition on the
 * values of those options holds. So an option added to the table (model/options.py) and
 * listed by no shortcut turns every shortcut off as soon as it is set: the general search,
 * the bounds that never prune and the engine's playout answer instead, correct and slower,
 * until a shortcut is shown sound for the option (tests/test_solver_bruteforce.py,
 * tests/test_shortcuts.py) and the option is added to its list here.
 * tools/dummy_option_build.sh builds the core with such an option and checks it.
 *
 * How a shortcut computes may depend on the options it is proven for (a bound under draw
 * three counts differently); whether it runs is this record's to say.
 *
 * Not in the record, because no option could change it without changing the engine's move
 * encoding first (position.pxd's KIND_*): the kinds of move themselves. Every search takes a
 * move to be a removal (a King, a pair), the draw or the recycle, and A* builds its nodes on
 * that (a node after each removal, the draws and recycles walked between). An option that
 * adds a kind of move must give A* and the searches their own look first. */
#ifndef PYR_SHORTCUTS_H
#define PYR_SHORTCUTS_H
#include <stdint.h>
#include "pyr_rules.h"

enum {
    /* solver.pyx: the free-talon search (the talon's order does not matter) */
    PYR_SC_FREE_TALON = 1u << 0,
    /* lastpass.pyx: the last pass's frames decide a one-pass game */
    PYR_SC_FRAMES = 1u << 1,
    /* search.pxd order_moves: a free King goes alone, first */
    PYR_SC_KING_FIRST = 1u << 2,
    /* bounds.pyx: the rank classes (classes_ok, pyramid_matching, stuck and removal bounds)
     * and solver.pyx's dominance of talon counts */
    PYR_SC_CLASSES = 1u << 3,
    /* bounds.pyx pyramid_partners: the pyramid's own order of removals */
    PYR_SC_PARTNERS = 1u << 4,
    /* bounds.pyx stack_ok: the last pass's waste comes back from the top only */
    PYR_SC_STACK = 1u << 5,
    /* bounds.pyx: the free-talon relaxation (relaxed_ok, relaxed_removal_bound, and
     * solver.pyx's relaxed_moves) */
    PYR_SC_RELAX = 1u << 6,
    /* bounds.pyx lower_bound: the moves still needed at least (A*'s heuristic) */
    PYR_SC_LOWER_BOUND = 1u << 7,
    /* shortest.pyx: macro-moves (a removal after a draw uses a card the draw made available) */
    PYR_SC_MACRO = 1u << 8,
    /* shortest.pyx: those removals written directly (fresh_moves) */
    PYR_SC_FRESH = 1u << 9,
    /* shortest.pyx dominated_by_cursor: positions with the same cards, further on */
    PYR_SC_CURSOR = 1u << 10,
    /* simulate.pyx: the specialised playouts, one game at a time (scalar) */
    PYR_SC_PLAYOUT_DRAW1 = 1u << 11,
    PYR_SC_PLAYOUT_DRAW3 = 1u << 12,
    /* simulate.pyx and pyr_sim_lockstep.h: sixteen games at a time (vector) */
    PYR_SC_LOCKSTEP_DRAW1 = 1u << 13,
    PYR_SC_LOCKSTEP_DRAW3 = 1u << 14,
    /* solver.pyx general_dfs: a position searched stands for one with the same cards and
     * more progress through the passes (drawing and recycling lead from one to the other) */
    PYR_SC_PROGRESS = 1u << 15,
    /* shortest.pyx: under unlimited redeals a walk of draws stops once round to where it
     * began (going on repeats the same positions, dearer) */
    PYR_SC_ROUND = 1u << 16,
};

/* lower_bound counts with the rank classes' machinery (class_matchings, stuck_of,
 * reachable_talon): it runs only where both may. */
#define PYR_SC_LOWER_BOUND_NEEDS (PYR_SC_LOWER_BOUND | PYR_SC_CLASSES)

/* The shortcuts' names, by bit (for Python: Table.shortcuts and the tests). */
#define PYR_SC_COUNT 17
#define PYR_SC_ALL ((1u << PYR_SC_COUNT) - 1u)
static inline const char *pyr_sc_name(int bit) {
    static const char *const names[PYR_SC_COUNT] = {
        "free_talon", "frames", "king_first", "classes", "partners", "stack", "relax",
        "lower_bound", "macro", "fresh", "cursor", "playout_draw1", "playout_draw3",
        "lockstep_draw1", "lockstep_draw3", "progress", "round",
    };
    return bit >= 0 && bit < PYR_SC_COUNT ? names[bit] : "";
}

/* Every option the engine plays today, for the shortcuts shown sound under all of them. */
#define PYR_PROVEN_ALL_SEVEN                                                               \
    (PYR_OPT_WASTE_AT_DEAL | PYR_OPT_DRAW | PYR_OPT_REDEALS | PYR_OPT_WIN_ALL |            \
     PYR_OPT_STOCK_TOP_PLAYABLE | PYR_OPT_PAIR_WASTE_TOP_TWO | PYR_OPT_PAIR_WITH_COVERING)

/* One shortcut: the options it is proven for, and whether it runs given the rule set (the
 * options outside `proven` are at their defaults when this is asked). */
static inline int pyr_sc_runs(uint32_t changed, uint32_t proven, int condition) {
    return (changed & ~proven) == 0 && condition;
}

/* The record: the shortcuts that may run under *r, as PYR_SC_* bits. */
static inline uint32_t pyr_shortcuts(const pyr_rules *r) {
    uint32_t c = pyr_rules_changed(r), sc = 0;
    /* draw one, unlimited redeals, neither the stock top nor the waste's top two */
    if (pyr_sc_runs(c, PYR_OPT_WASTE_AT_DEAL | PYR_OPT_WIN_ALL | PYR_OPT_PAIR_WITH_COVERING, 1))
        sc |= PYR_SC_FREE_TALON;
    /* draw one, one pass, not the waste's top two */
    if (pyr_sc_runs(c,
                    PYR_OPT_WASTE_AT_DEAL | PYR_OPT_REDEALS | PYR_OPT_WIN_ALL |
                        PYR_OPT_STOCK_TOP_PLAYABLE | PYR_OPT_PAIR_WITH_COVERING,
                    r->redeals == 0))
        sc |= PYR_SC_FRAMES;
    if (pyr_sc_runs(c, PYR_PROVEN_ALL_SEVEN, 1))
        sc |= PYR_SC_KING_FIRST | PYR_SC_CLASSES | PYR_SC_RELAX | PYR_SC_LOWER_BOUND |
              PYR_SC_MACRO | PYR_SC_PROGRESS | PYR_SC_ROUND;
    /* not with the covering card (a card may go before the one covering it) */
    if (pyr_sc_runs(c, PYR_PROVEN_ALL_SEVEN & ~PYR_OPT_PAIR_WITH_COVERING, 1))
        sc |= PYR_SC_PARTNERS;
    /* draw one, neither pairing option */
    if (pyr_sc_runs(c,
                    PYR_OPT_WASTE_AT_DEAL | PYR_OPT_REDEALS | PYR_OPT_WIN_ALL |
                        PYR_OPT_STOCK_TOP_PLAYABLE,
                    1))
        sc |= PYR_SC_STACK | PYR_SC_PLAYOUT_DRAW1 | PYR_SC_LOCKSTEP_DRAW1;
    /* draw one, not the waste's top two */
    if (pyr_sc_runs(c,
                    PYR_OPT_WASTE_AT_DEAL | PYR_OPT_REDEALS | PYR_OPT_WIN_ALL |
                        PYR_OPT_STOCK_TOP_PLAYABLE | PYR_OPT_PAIR_WITH_COVERING,
                    1))
        sc |= PYR_SC_FRESH;
    /* draw one, finite redeals */
    if (pyr_sc_runs(c, PYR_PROVEN_ALL_SEVEN & ~PYR_OPT_DRAW, r->redeals != PYR_REDEALS_UNLIMITED))
        sc |= PYR_SC_CURSOR;
    /* draw three, not with the covering card (draw three excludes the other two) */
    if (pyr_sc_runs(c, PYR_OPT_WASTE_AT_DEAL | PYR_OPT_DRAW | PYR_OPT_REDEALS | PYR_OPT_WIN_ALL,
                    r->draw == 3))
        sc |= PYR_SC_PLAYOUT_DRAW3 | PYR_SC_LOCKSTEP_DRAW3;
    return sc;
}

#endif
