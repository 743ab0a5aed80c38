/* The lockstep playouts' text, compiled once per vector backend: pyr_sim_lockstep.h includes
 * it with PV_PREFIX (the backend of pyr_vec.h) and LS(name) (this backend's names) defined.
 * No include guard: that is the point. */
/* below(n) = (1 << n) - 1; the highest set bit's index plus one (0 for 0); the index of the
 * i-th set bit (i <= 3, from the lowest; vctz is the lowest's, -1 for 0) */
PV_TARGET static PYR_INLINE pv LS(below)(pv n)
{
    return vsub(vsllv(v1(1), n), v1(1));
}
PV_TARGET static PYR_INLINE pv LS(top1)(pv x)
{
    return vsub(v1(32), vlzcnt(x));
}
/* the highest set bit as a mask (0 for 0) */
PV_TARGET static PYR_INLINE pv LS(topbit)(pv x)
{
    return vsllv(v1(1), vsub(v1(31), vlzcnt(x)));
}
PV_TARGET static PYR_INLINE pv LS(nth)(pv x, pv i)
{
    const pv one = v1(1);
    x = vmask_and(x, vgt(i, v1(0)), x, vsub(x, one));
    x = vmask_and(x, vgt(i, one), x, vsub(x, one));
    x = vmask_and(x, vgt(i, v1(2)), x, vsub(x, one));
    return vctz(x);
}

/* The deals' rank masks (PR, TR), the talon masks of the ranks' bits (TB[k]: the cards
 * whose rank has bit k) and the talon mask the draw runs stop at (TN: tnext, or t3 under
 * draw 3) as vectors: lane k from deals[k] (gathered once; a step then reads no memory). */
PV_TARGET static PYR_INLINE void LS(load)(pv *PR, pv *TR, pv *TN, pv *TB,
                                          const pyr_sim_deal *deals, int draw3)
{
    const char *base = (const char *)deals;
    const pv rec = vmul(vlanes(), v1((int)sizeof(pyr_sim_deal)));
    const int tn = (int)(draw3 ? offsetof(pyr_sim_deal, t3) : offsetof(pyr_sim_deal, tnext));
    int r;
    for (r = 0; r < 14; r++) {
        PR[r] = vgather(base, vadd(rec, v1((int)offsetof(pyr_sim_deal, prank) + 4 * r)));
        TR[r] = vgather(base, vadd(rec, v1((int)offsetof(pyr_sim_deal, trank) + 4 * r)));
    }
    for (r = 0; r < 4; r++) {
        int k;
        TB[r] = vzero();
        for (k = 1; k <= 13; k++)
            if ((k >> r) & 1)
                TB[r] = vor(TB[r], TR[k]);
    }
    *TN = vgather(base, vadd(rec, v1(tn)));
}

/* Lanes m draw on while drawing is all they would do: with stock_top_playable, while the
 * stock has no gap, to the lowest bit of the stop mask (_skip_draws_stp), across gaps one
 * draw a step (the same moves); with the waste top only, to the first useful card or the
 * end. st: the stock, t: its top, useful: the talon cards with a move. */
PV_TARGET static PYR_INLINE void LS(draws)(int stp, pm m, pv st, pv t,
                                                  pv useful, pv TN, pv *moves,
                                                  pv *cur)
{
    const pv one = v1(1), zero = vzero();
    if (stp) {
        pv low = vand(st, vsub(zero, st));
        pm gl = m & vtestn(vadd(st, low), st);
        pv stop = vand(st, vor(
            vor(useful, vsrli(useful, 1)),
            vor(vand(TN, vsrli(st, 1)),
                            vxor(st, vsrli(st, 1)))));
        pv last = vsel(gl, vctz(stop), t);
        *moves = vmask_add(*moves, m, *moves,
                                       vadd(vsub(last, t), one));
        *cur = vmask_add(*cur, m, last, one);
    } else {
        pv u = vand(st, useful);
        pv j = vsel(vnz(u), vadd(vctz(u), one), LS(top1)(st));
        *moves = vmask_add(*moves, m, *moves,
                                       vpopcnt(vand(st, LS(below)(j))));
        *cur = vsel(m, j, *cur);
    }
}

/* Draw 3: lanes m draw once (the cursor three cards on, at most to the end) */
PV_TARGET static PYR_INLINE pv LS(draw3)(pm m, pv cur)
{
    return vmask_min(cur, m, vadd(cur, v1(3)), v1(24));
}

/* Draw 3: lanes m draw on while drawing is all they would do (_skip_draws3): while the stock
 * is whole and starts at or after waste_at_deal (wad), to the lowest start c of three cards of
 * which one has a move or two pair (t3), else the last draw; otherwise one draw a step (the
 * same moves: the next step looks again). useful: the talon cards with a move. */
PV_TARGET static PYR_INLINE void LS(draws3)(pm m, int wad, pv talon,
                                                   pv useful, pv T3, pv *moves,
                                                   pv *cur)
{
    const pv all = v1(0xFFFFFF), every3 = v1(0x249249);
    pm whole = m & vge(*cur, v1(wad))
                      & veq(vsrlv(talon, *cur), vsrlv(all, *cur));
    pv starts = vand(vsllv(every3, *cur), all);
    pv last = vsub(LS(top1)(starts), v1(1));
    pv stop = vand(vand(starts, LS(below)(last)), vor(
        vor(useful, vsrli(useful, 1)), vor(vsrli(useful, 2), T3)));
    pv c = vctz(vor(stop, vsllv(v1(1), last)));
    /* (c - cur) / 3 draws before the last: c - cur is a multiple of 3 up to 21 */
    pv k = vsrli(vmul(vsub(c, *cur), v1(11)), 5);
    *moves = vmask_add(*moves, m, *moves, vmaskz_add(whole, k, v1(1)));
    *moves = vmask_add(*moves, m & ~whole, *moves, v1(1));
    *cur = vsel(whole, c, *cur);
    *cur = LS(draw3)(m, *cur);
}

/* The free cards of pyramids pyr: the present cards whose covering cards are gone */
#define LS_ANDC(x, c) vand((x), v1((int)(c)))
PV_TARGET static PYR_INLINE pv LS(free)(pv pyr)
{
    return vandnot(PYR_COVERED(pyr, vsrli, LS_ANDC, vor), pyr);
}
#undef LS_ANDC

/* Lanes m play the removal of a and b (locations, 63: none): talon locations 28.. leave the
 * talon (a shift by a pyramid location's negative offset, or by 63 - 28, clears nothing),
 * pyramid ones leave the pyramid (a shift by 28.. sets no pyramid bit), the free cards are
 * worked out again, and under draw 1 (canon) the waste top is (draw 3 keeps its cursor where
 * it is). */
PV_TARGET static PYR_INLINE void LS(remove)(int canon, pm m,
                                                   pv a, pv b, pv *pyr,
                                                   pv *fre, pv *talon, pv *cur)
{
    const pv one = v1(1);
    *talon = vmask_andnot(*talon, m, vor(
        vsllv(one, vsub(a, v1(28))),
        vsllv(one, vsub(b, v1(28)))), *talon);
    *pyr = vmask_andnot(*pyr, m, vor(vsllv(one, a), vsllv(one, b)), *pyr);
    *fre = LS(free)(*pyr);
    if (canon)
        *cur = vsel(m, LS(top1)(vand(*talon, LS(below)(*cur))), *cur);
}

/* The finished games' rows */
PV_TARGET static PYR_INLINE void LS(rows)(pv pyr, pv talon, pv moves,
                                                 int win_all, int cnt, uint8_t *won,
                                                 uint8_t *removed, uint16_t *moves_out,
                                                 uint16_t *score)
{
    uint32_t P[PV_LANES] = {0}, T[PV_LANES] = {0}, M[PV_LANES] = {0};
    int i;
    vstore(P, pyr);
    vstore(T, talon);
    vstore(M, moves);
    for (i = 0; i < cnt; i++) {
        won[i] = P[i] == 0 && (!win_all || T[i] == 0);
        removed[i] = (uint8_t)(28 - pyr_popcount32(P[i]));
        moves_out[i] = (uint16_t)M[i];
        score[i] = (uint16_t)(10 * removed[i]);
    }
}

/* What a step looks at, for every lane: free cards by rank, the talon cards that are Kings
 * or pair with a free card (useful), the free pyramid Kings, the waste top w (-1: none) and,
 * with stock_top_playable, the stock top t, their ranks (for lanes m, from the rank-bit
 * masks TB), whether they have a move (wuse, tuse) or pair (wt). */
typedef struct {
    pv fc[14], useful, kings, w, bc, st, t, rw0, rt0;
    pm stnz, wnn, wuse, tuse, wt;
} LS(view);

/* T[i] in each lane (T: 14 vectors, i: 0..13) by a tree of blends: no memory access */
PV_TARGET static PYR_INLINE pv LS(pick)(const pv *T, pv i)
{
#if PV_LANES == 1
    return T[i];
#else
    pm b0 = vbiti(i, 0), b1 = vbiti(i, 1), b2 = vbiti(i, 2), b3 = vbiti(i, 3);
    pv x[7];
    int j;
    for (j = 0; j < 7; j++)
        x[j] = vsel(b0, T[2 * j + 1], T[2 * j]);
    x[0] = vsel(b1, x[1], x[0]);
    x[1] = vsel(b1, x[3], x[2]);
    x[2] = vsel(b1, x[5], x[4]);
    x[0] = vsel(b2, x[1], x[0]);
    x[2] = vsel(b2, x[6], x[2]);
    return vsel(b3, x[2], x[0]);
#endif
}

/* The rank of talon card i (0..23), from the talon masks of the ranks' bits (TB[k]: the
 * cards whose rank has bit k) */
PV_TARGET static PYR_INLINE pv LS(rank)(const pv *TB, pv i)
{
    const pv one = v1(1);
    pv r = vand(vsrlv(TB[0], i), one);
    r = vor(r, vslli(vand(vsrlv(TB[1], i), one), 1));
    r = vor(r, vslli(vand(vsrlv(TB[2], i), one), 2));
    return vor(r, vslli(vand(vsrlv(TB[3], i), one), 3));
}

PV_TARGET static PYR_INLINE void LS(look)(LS(view) *v, int counts, int stp, pm m,
                                                 const pv *PR, const pv *TR,
                                                 pv fre, pv talon, pv cur,
                                                 const pv *TB)
{
    const pv one = v1(1), zero = vzero();
    int r;
    v->useful = TR[13];
    for (r = 1; r <= 13; r++) {
        v->fc[r] = vand(fre, PR[r]);
        if (counts)
            v->fc[r] = vpopcnt(v->fc[r]);
    }
    for (r = 1; r <= 12; r++)
        v->useful = vmask_or(v->useful, vnz(v->fc[r]),
                                         v->useful, TR[13 - r]);
    v->kings = vand(fre, PR[13]);
    v->w = vsub(cur, one);
    v->bc = LS(below)(cur);
    v->st = vandnot(v->bc, talon);
    v->stnz = vnz(v->st);
    v->wnn = vgt(cur, zero);
    v->wuse = vbit(v->useful, v->w);
    v->t = vctz(v->st);
    v->rw0 = vmaskz(v->wnn & m, LS(rank)(TB, v->w));
    v->tuse = v->wt = PM_NONE;
    v->rt0 = zero;
    if (stp) {
        v->tuse = vbit(v->useful, v->t);
        v->rt0 = vmaskz(v->stnz & m, LS(rank)(TB, v->t));
        v->wt = v->wnn & v->stnz
                & veq(vadd(v->rw0, v->rt0), v1(13));
    }
}

/* Draw 3: the waste piles' tops (pile[k]: pile k's talon bits; card i < waste_at_deal goes
 * to pile 0, else to pile (i - waste_at_deal) % 3), as a mask and in order, tp[0] < tp[1] <
 * tp[2] (talon indices) in lanes th[i], of ranks tr[i] (0 where none); inplay: the lanes
 * where a top has a move (a King or a free partner: useful) or two tops pair. */
typedef struct {
    pv pile[3], tops, tp[3], tr[3];
    pm th[3], inplay;
} LS(tops);

PV_TARGET static PYR_INLINE void LS(piles)(LS(tops) *p, int waste_at_deal)
{
    const uint32_t every3 = 0x249249u, all = 0xFFFFFFu, w = (uint32_t)waste_at_deal;
    p->pile[0] = v1((int)((((1u << w) - 1) | (every3 << w)) & all));
    p->pile[1] = v1((int)((every3 << (w + 1)) & all));
    p->pile[2] = v1((int)((every3 << (w + 2)) & all));
    p->tops = vzero();      /* (LS(look3) sets it each step; this quiets GCC's -Wmaybe-uninitialized) */
}

PV_TARGET static PYR_INLINE void LS(look3)(LS(tops) *p, const LS(view) *v,
                                                  pv talon, const pv *TB)
{
    const pv thirteen = v1(13);
    pv wm = vand(talon, v->bc), x;
    int i;
    p->tops = vor(vor(LS(topbit)(vand(wm, p->pile[0])),
                                              LS(topbit)(vand(wm, p->pile[1]))),
                              LS(topbit)(vand(wm, p->pile[2])));
    x = p->tops;
    for (i = 0; i < 3; i++) {
        p->th[i] = vnz(x);
        p->tp[i] = vctz(x);
        p->tr[i] = vmaskz(p->th[i], LS(rank)(TB, p->tp[i]));
        x = vand(x, vsub(x, v1(1)));
    }
    p->inplay = vtest(p->tops, v->useful)
                | (p->th[1] & veq(vadd(p->tr[0], p->tr[1]), thirteen))
                | (p->th[2] & (veq(vadd(p->tr[0], p->tr[2]), thirteen)
                               | veq(vadd(p->tr[1], p->tr[2]), thirteen)));
}

/* Lemire's k < n for the lanes in `need` (n > 1): advances their generators. */
PV_TARGET static PYR_INLINE pv LS(rand)(pm need, pv n, pv_rng *g)
{
    pv k, lo;
    pm bad;
    vrng_draw(g, need, n, PYR_SM_GAMMA, PYR_SM_M1, PYR_SM_M2, &k, &lo);
    bad = need & vltu(lo, n);
    if (pm_any(bad)) {          /* the low product word below n: maybe reject (rare) */
        uint64_t ss[PV_LANES];
        uint32_t kk[PV_LANES], nn[PV_LANES], ll[PV_LANES];
        int i;
        const uint32_t badbits = pm_bits(bad);
        vrng_store(g, ss);
        vstore(kk, k);
        vstore(nn, n);
        vstore(ll, lo);
        for (i = 0; i < PV_LANES; i++) {
            uint32_t t;
            if (!((badbits >> i) & 1))
                continue;
            t = (0u - nn[i]) % nn[i];
            while (ll[i] < t) {
                uint64_t m = (pyr_sm_next(&ss[i]) >> 32) * nn[i];
                ll[i] = (uint32_t)m;
                kk[i] = (uint32_t)(m >> 32);
            }
        }
        vrng_load(g, ss);
        k = vload(kk);
    }
    return k;
}

/* The random playout of games 0 .. cnt-1 (cnt <= PV_LANES) of deals[0 .. cnt-1] under
 * `rules` (draw 1 or draw 3, no pair_waste_top_two or pair_with_covering), game k's generator
 * in rng[k]; their rows into won/removed/moves/score[0 .. cnt-1]. Under unlimited redeals a
 * game ends at a recycle when no removal was legal since the last one (or the deal), or once
 * it has played cap moves (SIM_MOVE_CAP). */
PV_TARGET static void LS(random)(const pyr_rules *rules, int cap, const pyr_sim_deal *deals,
                                 const uint64_t *rng, int cnt, uint8_t *won, uint8_t *removed,
                                 uint16_t *moves_out, uint16_t *score)
{
    const int draw3 = rules->draw == 3, redeals = rules->redeals, win_all = rules->win_all;
    const int waste_at_deal = rules->waste_at_deal, stp = !draw3 && rules->stock_top_playable;
    const pv one = v1(1), zero = vzero(), thirteen = v1(13);
    const pv_tab16 div = vtab16(pyr_ls_div);
    const int unl = redeals == 255;
    const pv nredeals = v1(redeals), ncap = v1(cap);
    pv PR[14], TR[14], TN, TB[4];
    pv pyr = v1(0x0FFFFFFF), fre = v1(0x0FE00000), talon = v1(0xFFFFFF);
    pv cur = v1(waste_at_deal), moves = zero, recycles = zero;
    pv_rng gen;
    pm act = pm_first(cnt);
    /* 1 in the lanes where a removal was legal since the last recycle (a vector: as a mask,
     * live through the loop beside the others, it measured 2-3% slower on msc) */
    pv seen = zero;
    LS(tops) p3;
    int r, i;
    vrng_load(&gen, rng);
    LS(load)(PR, TR, &TN, TB, deals, draw3);
    LS(piles)(&p3, waste_at_deal);
    while (1) {
        LS(view) v;
        pv npairs, rw, rt, nk, pmw, pmt, pm3[3], c3[3], ktop = zero;
        pv cw, ct, cwt, n, k, k2, a, b;
        pm forced, wnz, canrec, nf, kw, kt, isk, kp, kwl, inplay, e3[3][3];
        pm chosen, l1, l2, l3, l4, rc, rem, need;
        act &= vnz(pyr)
               | (win_all ? vnz(talon) : PM_NONE);
        if (!pm_any(act))
            break;
        LS(look)(&v, 1, stp, act, PR, TR, fre, talon, cur, TB);
        if (draw3)
            LS(look3)(&p3, &v, talon, TB);
        inplay = draw3 ? p3.inplay : v.wuse | v.tuse | v.wt;
        npairs = zero;                          /* the number of pyramid pairs */
        for (r = 1; r <= 6; r++)
            npairs = vadd(npairs, vmul(v.fc[r], v.fc[13 - r]));
        forced = act & ~inplay & veq(npairs, zero)
                 & vz(v.kings);
        wnz = vtest(talon, v.bc);
        canrec = unl ? PM_ALL : vlt(recycles, nredeals);
        if (pm_any(forced)) {
            /* drawing or recycling is the only move: no random number is used */
            pm fs = forced & v.stnz, fe = forced & ~v.stnz;
            if (draw3 && pm_any(fs))
                LS(draws3)(fs, waste_at_deal, talon, v.useful, TN, &moves, &cur);
            else if (pm_any(fs))
                LS(draws)(stp, fs, v.st, v.t, v.useful, TN, &moves, &cur);
            if (pm_any(fe)) {
                pm end = fe & (~wnz | ~canrec
                                      | (unl ? vz(seen)
                                               | vge(moves, ncap) : PM_NONE));
                act &= ~end;
                fe &= ~end;
                cur = vsel(fe, zero, cur);
                if (!unl)
                    recycles = vmask_add(recycles, fe, recycles, one);
                seen = vsel(fe, zero, seen);
                moves = vmask_add(moves, fe, moves, one);
            }
        }
        nf = act & ~forced;
        if (!pm_any(nf))
            continue;
        seen = vsel(nf, one, seen);    /* a removal is legal here */
        /* count the legal moves by kind, in gen_moves order: pyramid Kings, talon Kings,
         * pyramid pairs, then under draw 1 the waste top's partners, waste top + stock top,
         * the stock top's partners, under draw 3 each pile top's partners and its pairs with
         * the later tops (e3[i][j]: tops i < j pair), and last draw or recycle */
        kw = kt = l1 = l2 = l3 = PM_NONE;
        rw = rt = pmw = pmt = cw = ct = cwt = zero;
        if (draw3) {
            ktop = vand(p3.tops, TR[13]);
            nk = vadd(v.fc[13], vpopcnt(ktop));
            n = vadd(nk, npairs);
            for (i = 0; i < 3; i++) {
                pv q = vsub(thirteen, p3.tr[i]);
                pm live = nf & p3.th[i] & vne(p3.tr[i], thirteen);
                int j;
                pm3[i] = vmaskz_and(live, fre, LS(pick)(PR, q));
                c3[i] = vpopcnt(pm3[i]);
                n = vadd(n, c3[i]);
                for (j = i + 1; j < 3; j++) {
                    e3[i][j] = live & p3.th[j] & veq(p3.tr[j], q);
                    n = vmask_add(n, e3[i][j], n, one);
                }
            }
        } else {
            rw = vmaskz(v.wuse, v.rw0);
            rt = vmaskz(v.tuse, v.rt0);
            kw = veq(rw, thirteen);
            kt = veq(rt, thirteen);
            nk = vmask_add(v.fc[13], kw, v.fc[13], one);
            nk = vmask_add(nk, kt, nk, one);
            pmw = vmaskz_and(nf & v.wuse & ~kw, fre, LS(pick)(PR, vsub(thirteen, rw)));
            cw = vpopcnt(pmw);
            if (stp) {
                pmt = vmaskz_and(nf & v.tuse & ~kt, fre, LS(pick)(PR, vsub(thirteen, rt)));
                ct = vpopcnt(pmt);
            }
            n = vadd(vadd(nk, npairs), vadd(cw, ct));
            n = vmask_add(n, v.wt, n, one);
        }
        n = vmask_add(n, v.stnz | (wnz & canrec), n, one);
        need = nf & vgt(n, one);
        k = pm_any(need) ? LS(rand)(need, n, &gen) : zero;
        k = vmaskz(need, k);
        /* the k-th legal move: a, b (63: none) */
        a = b = v1(63);
        isk = nf & vlt(k, nk);
        kp = isk & vlt(k, v.fc[13]);
        if (pm_any(kp))
            a = vsel(kp, LS(nth)(v.kings, k), a);
        if (draw3) {
            a = vmask_add(a, isk & ~kp, LS(nth)(ktop, vsub(k, v.fc[13])),
                                      v1(28));
        } else {
            kwl = isk & ~kp & veq(k, v.fc[13]) & kw;
            a = vmask_add(a, kwl, v.w, v1(28));
            a = vmask_add(a, isk & ~kp & ~kwl, v.t, v1(28));
        }
        k2 = vsub(k, nk);
        chosen = isk | ~nf;
        for (r = 1; r <= 6; r++) {
            pv j = vmul(v.fc[r], v.fc[13 - r]);
            pm sel = ~chosen & vlt(k2, j);
            if (pm_any(sel)) {
                pv f = v.fc[13 - r];
                pv ai = vsrli(vmul(k2, vlook16(&div, f)), 8);
                pv bi = vsub(k2, vmul(ai, f));
                a = vsel(sel, LS(nth)(vand(fre, PR[r]), ai), a);
                b = vsel(sel, LS(nth)(vand(fre, PR[13 - r]), bi), b);
                chosen |= sel;
            }
            k2 = vmask_sub(k2, ~chosen, k2, j);
        }
        if (draw3) {
            /* each pile top: its partners, then its pairs with the later tops */
            for (i = 0; i < 3; i++) {
                int j;
                pm sel = ~chosen & vlt(k2, c3[i]);
                pv loc = vadd(p3.tp[i], v1(28));
                if (pm_any(sel)) {
                    a = vsel(sel, LS(nth)(pm3[i], k2), a);
                    b = vsel(sel, loc, b);
                    chosen |= sel;
                }
                k2 = vmask_sub(k2, ~chosen, k2, c3[i]);
                for (j = i + 1; j < 3; j++) {
                    sel = ~chosen & e3[i][j] & veq(k2, zero);
                    a = vsel(sel, loc, a);
                    b = vmask_add(b, sel, p3.tp[j], v1(28));
                    chosen |= sel;
                    k2 = vmask_sub(k2, ~chosen & e3[i][j], k2, one);
                }
            }
            l4 = ~chosen;
        } else {
            cwt = vmask_add(cw, v.wt, cw, one);
            l1 = ~chosen & vlt(k2, cw);
            l2 = ~chosen & ~l1 & vlt(k2, cwt);
            l3 = ~chosen & ~l1 & ~l2 & vlt(k2, vadd(cwt, ct));
            l4 = ~chosen & ~(l1 | l2 | l3);
        }
        if (!draw3 && pm_any(l1)) {
            a = vsel(l1, LS(nth)(pmw, k2), a);
            b = vmask_add(b, l1, v.w, v1(28));
        }
        if (!draw3 && pm_any(l2)) {
            a = vmask_add(a, l2, v.w, v1(28));
            b = vmask_add(b, l2, v.t, v1(28));
        }
        if (!draw3 && pm_any(l3)) {
            a = vsel(l3, LS(nth)(pmt, vsub(k2, cwt)), a);
            b = vmask_add(b, l3, v.t, v1(28));
        }
        /* play it: a draw, a recycle (unless under unlimited redeals the game has played
         * cap moves: a removal is legal here, so the pass has seen one), or a removal */
        if (draw3)
            cur = LS(draw3)(l4 & v.stnz, cur);
        else
            cur = vmask_add(cur, l4 & v.stnz, v.t, one);
        rc = l4 & ~v.stnz;
        if (pm_any(rc)) {
            if (unl) {
                pm end = rc & vge(moves, ncap);
                act &= ~end;
                rc &= ~end;
                nf &= ~end;
            } else {
                recycles = vmask_add(recycles, rc, recycles, one);
            }
            cur = vsel(rc, zero, cur);
            seen = vsel(rc, zero, seen);
        }
        moves = vmask_add(moves, nf, moves, one);
        rem = nf & ~l4;
        LS(remove)(!draw3, rem, a, b, &pyr, &fre, &talon, &cur);
    }
    LS(rows)(pyr, talon, moves, win_all, cnt, won, removed, moves_out, score);
}

typedef struct {
    pv_tab32 bad, sup;
} LS(gtab);

/* ok[i]: the cards of sset compatible with rset's i-th card (pyramid positions: not in a
 * covering relation with it; none for a missing card, the sentinel) */
PV_TARGET static PYR_INLINE void LS(compat)(const pv_tab32 *bad, pv rset, pv sset, pv *ok)
{
    const pv sent = v1(1 << 28), one = v1(1);
    pv x = rset;
    int i;
    for (i = 0; i < 4; i++) {
        ok[i] = vandnot(vlook32(bad, vctz(vor(x, sent))), sset);
        x = vand(x, vsub(x, one));
    }
}

/* The largest matching of up to 4 x 4 cards (rset and sset, their compatible pairs ok) where
 * the veto needs its value (lanes in `full`: at least 2 pairs needed), else only whether it
 * is at least 1 (lanes in `part`). pyr_match.h's PYR_MATCH16 table holds the Konig-Ore
 * formula, worked out here directly on vectors: 4 - the largest deficiency |S| - |N(S)| over
 * the sets S of rset's (up to) four cards, N(S) their compatible cards in sset (a gather from
 * that 64 KB table was slower); one lane reads the table (pyr_match). */
PV_TARGET static PYR_INLINE pv LS(match_or_any)(const pv_tab32 *bad, pm full,
                                                pm part, pv rset, pv sset)
{
    pv ok[4], n01, n23, d, best, m = vzero();
#if PV_LANES == 1
    /* one lane: the formula's values from pyr_match.h's table (its popcounts cost more) */
    if (full)
        return (pv)pyr_match(rset, sset, bad->p);
#endif
    LS(compat)(bad, rset, sset, ok);
    n01 = vor(ok[0], ok[1]);
    n23 = vor(ok[2], ok[3]);
    if (pm_any(part))
        m = vmaskz(vnz(vor(n01, n23)), v1(1));
    if (!pm_any(full))
        return m;
#define PYR_LS_DEF(k, n) vsub(v1(k), vpopcnt(n))
    best = vmax(vmax(PYR_LS_DEF(1, ok[0]), PYR_LS_DEF(1, ok[1])),
                vmax(PYR_LS_DEF(1, ok[2]), PYR_LS_DEF(1, ok[3])));
    d = vmax(vmax(PYR_LS_DEF(2, n01), PYR_LS_DEF(2, n23)),
             vmax(PYR_LS_DEF(2, vor(ok[0], ok[2])), PYR_LS_DEF(2, vor(ok[0], ok[3]))));
    best = vmax(best, d);
    d = vmax(PYR_LS_DEF(2, vor(ok[1], ok[2])), PYR_LS_DEF(2, vor(ok[1], ok[3])));
    best = vmax(best, d);
    d = vmax(vmax(PYR_LS_DEF(3, vor(n01, ok[2])), PYR_LS_DEF(3, vor(n01, ok[3]))),
             vmax(PYR_LS_DEF(3, vor(n23, ok[0])), PYR_LS_DEF(3, vor(n23, ok[1]))));
    best = vmax(best, vmax(d, PYR_LS_DEF(4, vor(n01, n23))));
#undef PYR_LS_DEF
    return vsel(full, vsub(v1(4), vmax(best, vzero())), m);
}

/* The rank pair's slack, its spare partners: the matching m of its present pyramid cards
 * minus the pyramid pairs it needs (need), below 0 when it cannot be cleared any more; exact
 * in sign, a lower bound when positive (m is only "at least 1" where that decides). */
PV_TARGET static PYR_INLINE pv LS(slack)(pv need, pv small, pv m)
{
    const pv zero = vzero(), one = v1(1);
    pm any = vgt(small, zero) & vge(m, one);
    pv v = vsub(vmaskz(any, one), need);
    v = vmask_sub(v, vge(need, v1(2)), m, need);
    v = vsel(vgt(need, small), v1(-1), v);
    return vmask_sub(v, vlt(need, zero), zero, need);
}

/* The greedy policy's veto, its one text (the scalar playouts call its one-lane instance,
 * pyr_sim_veto): would the pair (a < b: locations) of lanes m leave its rank pair (r, 13 - r)
 * unclearable while it was clearable? prr, prq: the pyramid positions of the two ranks; pr,
 * pq, tr, tq: their present pyramid and talon cards; bad: pyr_geometry.h's bad or bad_pwc as
 * a table. Early exits where no lane needs more (on one lane, the common case). */
PV_TARGET PYR_FORCE_INLINE pm LS(veto_n)(const pv_tab32 *bad, pm m, pv a, pv b, pv prr,
                                          pv prq, pv pr, pv pq, pv tr, pv tq, pv pyr)
{
    const pv zero = vzero(), one = v1(1);
    pv need, small, rA, sA, rB, sB, mA, mB, pyr2, ia1, ib1, needB, smallB;
    pm ia, ib, mixed, mx, same, wantA, wantB, veto, two;
    ia = vlt(a, v1(28));
    ib = vlt(b, v1(28));
    mixed = m & (ia ^ ib);
    same = m & ~mixed;
    need = vmax(vsub(pr, tq), vsub(pq, tr));
    small = vmin(pr, pq);
    /* a pyramid card x with a talon partner: vetoed when the matching is exactly what is
     * needed and every largest matching uses x; two cards of one kind: when the rank pair's
     * slack is 0 before (tight) and below 0 after. With at most one pair needed, "the
     * matching is at least 1" decides (a matching loses at most one pair when x goes). */
    mx = mixed & vgt(need, zero) & vle(need, small);
    wantA = mx | (same & vge(need, zero) & vle(need, small));
    if (!pm_any(wantA))
        return PM_NONE;
    rA = vand(pyr, vsel(mixed & ib, prq, prr));
    sA = vand(pyr, vsel(mixed & ib, prr, prq));
    two = vge(need, v1(2));
    mA = LS(match_or_any)(bad, wantA & two, wantA & ~two, rA, sA);
    veto = mx & veq(mA, need);
    same &= veq(LS(slack)(need, small, mA), zero);
    if (!pm_any(veto | same))
        return PM_NONE;
    ia1 = vmaskz(ia, one);
    ib1 = vmaskz(ib, one);
    rB = vmask_andnot(rA, mixed, vsllv(one, vsel(ia, a, b)), rA);
    sB = sA;
    pyr2 = vandnot(vor(vsllv(one, a), vsllv(one, b)), pyr);
    rB = vmask_and(rB, same, pyr2, prr);
    sB = vmask_and(sB, same, pyr2, prq);
    needB = vmax(vsub(vsub(pr, ia1), vsub(tq, vsub(one, ib1))),
                 vsub(vsub(pq, ib1), vsub(tr, vsub(one, ia1))));
    smallB = vmin(vsub(pr, ia1), vsub(pq, ib1));
    needB = vsel(mixed, need, needB);
    two = vge(needB, v1(2));
    wantB = veto | (same & vge(needB, zero) & vle(needB, smallB));
    mB = LS(match_or_any)(bad, wantB & two, wantB & ~two, rB, sB);
    veto &= vlt(mB, need);
    veto |= same & vlt(LS(slack)(needB, smallB, mB), zero);
    return veto;
}

/* The veto where the lanes' ranks r differ: their masks from the deals' rank masks (PR,
 * TR), their counts from the pyramids and talons */
PV_TARGET static PYR_INLINE pm LS(veto)(const LS(gtab) *gt, const pv *PR, const pv *TR, pm m,
                                        pv a, pv b, pv r, pv pyr, pv talon)
{
    pv q, prr, prq;
    if (!pm_any(m))
        return PM_NONE;
    q = vsub(v1(13), r);
    prr = LS(pick)(PR, r);
    prq = LS(pick)(PR, q);
    return LS(veto_n)(&gt->bad, m, a, b, prr, prq, vpopcnt(vand(pyr, prr)),
                      vpopcnt(vand(pyr, prq)), vpopcnt(vand(talon, LS(pick)(TR, r))),
                      vpopcnt(vand(talon, LS(pick)(TR, q))), pyr);
}

/* A candidate list's best pair below a ceiling: candidates in gen_moves order (their index
 * o), best = the largest merit, the first of equals, among those ranking after (cm, co) in
 * the order (merit down, index up). Used again after a veto with the vetoed pair as the
 * ceiling: the next best. */
typedef struct {
    pv m, o, a, b, r;    /* best merit (-1: none), its index, its pair, a's rank */
    pv fa, fb;           /* the first candidate's pair */
} LS(best);

PV_TARGET static PYR_INLINE void LS(offer)(LS(best) *bs, pm l, pv merit,
                                                  pv *o, pv cm, pv co,
                                                  pv a, pv b, pv r)
{
    pm ok = l & (vlt(merit, cm)
                        | (veq(merit, cm) & vgt(*o, co)));
    pm better = ok & vgt(merit, bs->m);
    pm first = l & veq(*o, vzero());
    bs->m = vsel(better, merit, bs->m);
    bs->o = vsel(better, *o, bs->o);
    bs->a = vsel(better, a, bs->a);
    bs->b = vsel(better, b, bs->b);
    bs->r = vsel(better, r, bs->r);
    bs->fa = vsel(first, a, bs->fa);
    bs->fb = vsel(first, b, bs->fb);
    *o = vmask_add(*o, l, *o, v1(1));
}

/* _greedy_merit_free of a pyramid card a with a talon card: 100 + SUPPORT[a] + 30 for each
 * card it frees */
PV_TARGET static PYR_INLINE pv LS(merit1)(const LS(gtab) *gt, pv f1,
                                                       pv f2, pv a)
{
    const pv one = v1(1);
    pv fr = vadd(vand(vsrlv(f1, a), one),
                                   vand(vsrlv(f2, a), one));
    pv sup = vlook32(&gt->sup, a);
    return vadd(vadd(sup, v1(100)), vmul(fr, v1(30)));
}

/* ... and of two pyramid cards a < b: both cards' merits, and 30 more for the card above two
 * row neighbours */
PV_TARGET static PYR_INLINE pv LS(merit2)(const LS(gtab) *gt, pv f1,
                                                       pv f2, pv a, pv b)
{
    const pv one = v1(1);
    pm adj = veq(b, vadd(a, one))
                    & vbit(v1((int)pyr_ls_hasr), a);
    pv m = vadd(LS(merit1)(gt, f1, f2, a), LS(merit1)(gt, f1, f2, b));
    return vmask_add(m, adj, m, v1(30));
}

/* The partners y of one talon card (location loc) in lanes l, each offered as (y, loc) */
PV_TARGET static PYR_INLINE void LS(offer_partners)(const LS(gtab) *gt, LS(best) *bs,
                                                           pm l, pv y, pv loc,
                                                           pv f1, pv f2, pv *o,
                                                           pv cm, pv co, pv r)
{
    const pv one = v1(1);
    y = vmaskz(l, y);
    while (pm_any(l = vnz(y))) {
        pv a = vctz(y);
        LS(offer)(bs, l, LS(merit1)(gt, f1, f2, a), o, cm, co, a, loc, r);
        y = vand(y, vsub(y, one));
    }
}

/* What the candidate lists are made of. The talon cards in play: under draw 1 the waste top
 * w and the stock top t (stock_top_playable), under draw 3 (draw3) the waste piles' tops. */
typedef struct {
    const LS(gtab) *gt;
    const pv *PR, *TR;
    const LS(tops) *p3;
    pv pyr, fre, talon, f1, f2, w, t, rw, rt;
    pm wuse, tuse, wt;
    int r_pairs[7];            /* ranks 1..6 with a pyramid pair in some lane */
    int win_all, draw3;
} LS(cands);

/* The candidates of lanes l0 (the pyramid pairs) and l1 (the talon cards' pairs), in
 * gen_moves order, offered to *bs with the ceiling (cm, co) */

PV_TARGET static PYR_INLINE void LS(list)(const LS(cands) *c, pm l0, pm l1,
                                                 LS(best) *bs, pv cm, pv co)
{
    const pv one = v1(1), p28 = v1(28);
    pv o = vzero();
    int r;
    pm l = l0;
    bs->m = v1(-1);
    if (pm_any(l0)) {
        for (r = 1; r <= 6; r++) {
            pv x, y0;
            pm lx;
            if (!c->r_pairs[r])
                continue;
            x = vmaskz_and(l, c->fre, c->PR[r]);
            y0 = vand(c->fre, c->PR[13 - r]);
            /* lanes without a card of rank 13 - r list nothing for rank r */
            x = vmaskz(vnz(y0), x);
            while (pm_any(lx = vnz(x))) {
                pv a = vctz(x), y = vmaskz(lx, y0);
                pm ly;
                while (pm_any(ly = vnz(y))) {
                    pv b = vctz(y);
                    pv lo = vmin(a, b), hi = vmax(a, b);
                    LS(offer)(bs, ly, LS(merit2)(c->gt, c->f1, c->f2, lo, hi), &o, cm, co, lo, hi, v1(r));
                    y = vand(y, vsub(y, one));
                }
                x = vand(x, vsub(x, one));
            }
        }
    }
    l = l1;
    if (c->draw3 && pm_any(l1)) {
        /* each pile top in order: its pyramid partners, then its pairs with the later tops */
        const LS(tops) *p = c->p3;
        int i, j;
        for (i = 0; i < 3; i++) {
            pv loc = vadd(p->tp[i], p28), q = vsub(v1(13), p->tr[i]);
            pm li = l & p->th[i];
            if (!pm_any(li))
                continue;
            LS(offer_partners)(c->gt, bs, li, vand(c->fre, LS(pick)(c->PR, q)), loc,
                                  c->f1, c->f2, &o, cm, co, q);
            for (j = i + 1; j < 3; j++)
                LS(offer)(bs, li & p->th[j] & veq(p->tr[j], q),
                             vzero(), &o, cm, co, loc,
                             vadd(p->tp[j], p28), p->tr[i]);
        }
    } else if (pm_any(l1)) {
        pv wl = vadd(c->w, p28), tl = vadd(c->t, p28);
        pv y = vmaskz_and(l & c->wuse, c->fre, LS(pick)(c->PR, vsub(v1(13), c->rw)));
        LS(offer_partners)(c->gt, bs, l & c->wuse, y, wl, c->f1, c->f2, &o, cm, co, vsub(v1(13), c->rw));
        LS(offer)(bs, l & c->wt, vzero(), &o, cm, co, wl, tl, c->rw);
        y = vmaskz_and(l & c->tuse, c->fre, LS(pick)(c->PR, vsub(v1(13), c->rt)));
        LS(offer_partners)(c->gt, bs, l & c->tuse, y, tl, c->f1, c->f2, &o, cm, co, vsub(v1(13), c->rt));
    }
}

/* The pair for lanes np (with pyramid pairs: those first) and nt (talon cards' pairs, the
 * only ones where np is not set): found (returned) or, when every pair is vetoed, the first
 * pyramid pair (else the first talon pair). Both lists share each round of enumeration and
 * veto; a lane whose pyramid pairs are all vetoed goes on with its talon pairs. */
PV_TARGET static PYR_INLINE pm LS(choose)(const LS(cands) *c, pm np,
                                                        pm nt, pv *a, pv *b)
{
    const pv top = v1(0x7FFFFFFF), none = v1(-1);
    LS(best) bs;
    pv cm = top, co = none;
    pm found = PM_NONE, l0 = np, l1 = nt & ~np, fresh = l0 | l1;
    bs.fa = bs.fb = bs.a = bs.b = bs.o = v1(63);
    bs.r = v1(1);
    while (pm_any(l0 | l1)) {
        pm v, some, sw;
        LS(list)(c, l0, l1, &bs, cm, co);
        if (pm_any(fresh)) {
            *a = vsel(fresh, bs.fa, *a);   /* all vetoed: the first pair */
            *b = vsel(fresh, bs.fb, *b);
            fresh = PM_NONE;
        }
        some = (l0 | l1) & vge(bs.m, vzero());
        sw = l0 & ~some & nt;
        v = c->win_all ? PM_NONE : LS(veto)(c->gt, c->PR, c->TR,
                                         some, bs.a, bs.b, bs.r, c->pyr, c->talon);
        found |= some & ~v;
        *a = vsel(some & ~v, bs.a, *a);
        *b = vsel(some & ~v, bs.b, *b);
        l0 &= v;
        l1 = (l1 & v) | sw;
        cm = vsel(sw, top, bs.m);
        co = vsel(sw, none, bs.o);
    }
    return found;
}

/* The greedy playout (as simulate.pyx's _greedy_talon) of games 0 .. cnt-1 of deals[0 ..
 * cnt-1] under `rules`, as LS(random) plays the random one. */
PV_TARGET static void LS(greedy)(const pyr_rules *rules, const pyr_sim_deal *deals, int cnt,
                                 uint8_t *won, uint8_t *removed, uint16_t *moves_out,
                                 uint16_t *score)
{
    const int draw3 = rules->draw == 3, redeals = rules->redeals, win_all = rules->win_all;
    const int waste_at_deal = rules->waste_at_deal, stp = !draw3 && rules->stock_top_playable;
    const pv one = v1(1), zero = vzero();
    const pv hasl = v1((int)pyr_ls_hasl), hasr = v1((int)pyr_ls_hasr);
    const int unl = redeals == 255;
    const pv nredeals = v1(redeals);
    pv PR[14], TR[14], TN, TB[4];
    pv pyr = v1(0x0FFFFFFF), fre = v1(0x0FE00000), talon = v1(0xFFFFFF);
    pv cur = v1(waste_at_deal), moves = zero, recycles = zero, prem = zero;
    pm act = pm_first(cnt), vetoed = PM_NONE;
    LS(tops) p3;
    LS(gtab) gt;
    LS(cands) c;
    int r;
    gt.bad = vtab32(pyr_ls_bad);
    gt.sup = vtab32(pyr_ls_sup);
    LS(load)(PR, TR, &TN, TB, deals, draw3);
    c.gt = &gt;
    c.PR = PR;
    c.TR = TR;
    c.win_all = win_all;
    c.draw3 = draw3;
    c.p3 = &p3;
    LS(piles)(&p3, waste_at_deal);
    while (1) {
        LS(view) v;
        pv a, b;
        pm pp, kp, skip, tk, dl, wnz, canrec, np, nt, found, inplay;
        pm stuck, hasbest, fdraw, frec, take, endl, rc, rem, dr;
        act &= vnz(pyr)
               | (win_all ? vnz(talon) : PM_NONE);
        if (!pm_any(act))
            break;
        LS(look)(&v, 0, stp, act, PR, TR, fre, talon, cur, TB);
        pp = PM_NONE;
        for (r = 1; r <= 6; r++) {
            pm h = vnz(v.fc[r])
                          & vnz(v.fc[13 - r]);
            c.r_pairs[r] = pm_any(h & act);
            pp |= h;
        }
        kp = act & vnz(v.kings);   /* a free pyramid King: at once */
        if (draw3) {
            LS(look3)(&p3, &v, talon, TB);
            inplay = p3.inplay;
        } else {
            inplay = v.wuse | v.tuse | v.wt;
        }
        /* nothing in play and no pyramid pair worth a look: draw on */
        skip = act & ~kp & ~inplay & (~pp | vetoed) & v.stnz;
        if (draw3 && pm_any(skip))
            LS(draws3)(skip, waste_at_deal, talon, v.useful, TN, &moves, &cur);
        else if (pm_any(skip))
            LS(draws)(stp, skip, v.st, v.t, v.useful, TN, &moves, &cur);
        /* Kings: a free pyramid King (lowest position), else a talon King in play (draw 1:
         * the waste top first; draw 3: the lowest pile top) */
        a = b = v1(63);
        a = vsel(kp, vctz(v.kings), a);
        if (draw3) {
            pv x = vand(p3.tops, TR[13]);
            tk = act & ~kp & ~skip & vnz(x);
            a = vmask_add(a, tk, vctz(x), v1(28));
        } else {
            tk = act & ~kp & ~skip & v.wuse & vbit(TR[13], v.w);
            a = vmask_add(a, tk, v.w, v1(28));
            dl = act & ~kp & ~skip & ~tk & v.tuse & vbit(TR[13], v.t);
            a = vmask_add(a, dl, v.t, v1(28));
            tk |= dl;
        }
        /* the other lanes decide among the pairs: the pyramid pairs first (their merit, 200
         * or more, beats any pair with a talon card); the talon cards' pairs when there is no
         * pyramid pair or every one is vetoed */
        dl = act & ~kp & ~skip & ~tk;
        wnz = vtest(talon, v.bc);
        canrec = unl ? PM_ALL : vlt(recycles, nredeals);
        found = PM_NONE;
        hasbest = PM_NONE;
        if (pm_any(dl)) {
            c.pyr = pyr;
            c.fre = fre;
            c.talon = talon;
            c.f1 = vandnot(vslli(pyr, 1), hasl);
            c.f2 = vandnot(vsrli(pyr, 1), hasr);
            c.w = v.w;
            c.t = v.t;
            c.rw = v.rw0;
            c.rt = v.rt0;
            c.wuse = v.wuse;
            c.tuse = v.tuse;
            c.wt = v.wt;
            np = dl & pp;
            nt = dl & inplay;
            found = LS(choose)(&c, np, nt, &a, &b);
            hasbest = np | nt;
        }
        /* the fallback when no pair scores 0 or more: draw, else recycle, else nothing; a
         * vetoed pair is played when there is no fallback, or at the end of a pass that
         * removed nothing under unlimited redeals (stuck) */
        stuck = unl ? veq(prem, zero) : PM_NONE;
        fdraw = dl & ~found & v.stnz;
        frec = dl & ~found & ~v.stnz & wnz & canrec;
        take = (dl & found) | (hasbest & ~fdraw & (~frec | stuck));
        endl = dl & ~take & ~fdraw & ~frec;            /* no move at all */
        endl |= dl & ~take & frec & stuck;             /* unlimited: the pass removed nothing */
        act &= ~endl;
        dr = dl & ~take & fdraw;
        rc = dl & ~take & ~endl & frec;
        vetoed = (vetoed & ~(kp | tk | take)) | dr | rc;
        if (draw3)
            cur = LS(draw3)(dr, cur);
        else
            cur = vmask_add(cur, dr, v.t, one);
        cur = vsel(rc, zero, cur);
        if (!unl)
            recycles = vmask_add(recycles, rc, recycles, one);
        prem = vsel(rc, zero, prem);
        rem = kp | tk | take;
        moves = vmask_add(moves, rem | dr | rc, moves, one);
        prem = vmask_add(prem, rem, prem, one);
        LS(remove)(!draw3, rem, a, b, &pyr, &fre, &talon, &cur);
    }
    LS(rows)(pyr, talon, moves, win_all, cnt, won, removed, moves_out, score);
}

/* The batch's entry: games 0 .. cnt-1 (cnt <= PV_LANES) of deals[0 .. cnt-1] under `rules`
 * with the greedy or the random policy (game k's generator in rng[k]); their rows into
 * won/removed/moves/score[0 .. cnt-1]. cap: the random policy's bound on moves under
 * unlimited redeals (SIM_MOVE_CAP; greedy needs none). */
static void LS(play)(int greedy, const pyr_rules *rules, int cap, const pyr_sim_deal *deals,
                     const uint64_t *rng, int cnt, uint8_t *won, uint8_t *removed,
                     uint16_t *moves, uint16_t *score)
{
    if (greedy)
        LS(greedy)(rules, deals, cnt, won, removed, moves, score);
    else
        LS(random)(rules, cap, deals, rng, cnt, won, removed, moves, score);
}
