/* Simulated annealing for a whist starting round, optionally invariant under a multiplier.
 *
 * Used by `python -m bot.leagues.whist_search --anneal-c` (see `anneal_c` there, which
 * compiles this file with the system C compiler); the bot never needs it.
 *
 * stdin: N fixed bye E K seed seconds, then the group's subtraction table (N rows of N:
 * sub[x][y] = x - y), then the automorphism h as the images of 0..N-1 (the identity and E = 1
 * for no symmetry). argv: the starting and lowest temperature, the cooling factor, and 1 to
 * count the cost as squares (sum of (count - target)^2) instead of absolute values.
 *
 * The players: 0..N-1 and, when `fixed`, the fixed player N; with `bye`, 0 sits out.
 * h (of order E) splits them into its fixed points and shorter orbits, and orbits of E. The
 * starting round is a "special" part, tables of any players, holding the fixed points and short
 * orbits (and the fixed player) and K orbits of E; and "base" tables, one player of each other orbit, whose images under the powers
 * of h are in the round too. The cost is the distance of the round's partner and opponent
 * difference counts from the whist property (every non-zero difference once and twice); a move
 * swaps two players of the special part or of the base tables, moves a base player along its
 * orbit, or exchanges an orbit of the special part with one of the base tables. (The squared
 * cost weighs a difference three times over its target more than two differences once over:
 * for 40 players over Z_39 it found a round within 30 s for three seeds in five, the absolute
 * one for none.) The seed fixes
 * the moves, so a run finds the same round at the same step whatever the machine.
 * stdout: the tables, one "a b c d" a line ((a, b) against (c, d)), or NONE.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <time.h>

#include "xorshift.h"

#define MAXN 256
#define MAXE 128
static int N, fixedp, bye, E, K;
static int sub[MAXN][MAXN];
static int hp[MAXE][MAXN + 1];
static int P[MAXN], O[MAXN];
static long cost;

static int ts, tb;             /* special tables, base tables */
static int sp[4 * MAXN];       /* special positions */
static int bp[4 * MAXN];       /* base positions */
static int orbit_of[MAXN + 1]; /* orbit id of element (-1 for fixed) */
static int orbit_rep[MAXN];
static int norb;
static int spec_orbits[MAXN], nspec; /* orbit ids in special part */

static int SQ = 0;
static inline void bumpP(int d, int s) {
    if (SQ) { int b = (P[d] - 1) * (P[d] - 1); P[d] += s; cost += (P[d] - 1) * (P[d] - 1) - b; return; }
    int b = abs(P[d] - 1); P[d] += s; cost += abs(P[d] - 1) - b;
}
static inline void bumpO(int d, int s) {
    if (SQ) { int b = (O[d] - 2) * (O[d] - 2); O[d] += s; cost += (O[d] - 2) * (O[d] - 2) - b; return; }
    int b = abs(O[d] - 2); O[d] += s; cost += abs(O[d] - 2) - b;
}
static inline void pairP(int x, int y, int s, int rep) {
    if (x >= N || y >= N) return;
    int d = sub[x][y], f = sub[y][x];
    for (int i = 0; i < rep; i++) { bumpP(hp[i][d], s); bumpP(hp[i][f], s); }
}
static inline void pairO(int x, int y, int s, int rep) {
    if (x >= N || y >= N) return;
    int d = sub[x][y], f = sub[y][x];
    for (int i = 0; i < rep; i++) { bumpO(hp[i][d], s); bumpO(hp[i][f], s); }
}
static void table(int *t, int s, int rep) {
    pairP(t[0], t[1], s, rep); pairP(t[2], t[3], s, rep);
    pairO(t[0], t[2], s, rep); pairO(t[0], t[3], s, rep);
    pairO(t[1], t[2], s, rep); pairO(t[1], t[3], s, rep);
}
/* table id: 0..ts-1 special, ts..ts+tb-1 base */
static void tab(int id, int s) {
    if (id < ts) table(sp + 4 * id, s, 1); else table(bp + 4 * (id - ts), s, E);
}

int main(int argc, char **argv) {
    long seed; double seconds;
    SQ = argc > 4 ? atoi(argv[4]) : 0;
    if (scanf("%d %d %d %d %d %ld %lf", &N, &fixedp, &bye, &E, &K, &seed, &seconds) != 7) return 2;
    for (int x = 0; x < N; x++) for (int y = 0; y < N; y++) if (scanf("%d", &sub[x][y]) != 1) return 2;
    int h[MAXN];
    for (int x = 0; x < N; x++) if (scanf("%d", &h[x]) != 1) return 2;
    rs = 0x9E3779B97F4A7C15ULL ^ (unsigned long long)seed * 0xD1B54A32D192ED03ULL;
    if (!rs) rs = 1;
    for (int x = 0; x <= N; x++) hp[0][x] = x;
    for (int i = 1; i < E; i++) { for (int x = 0; x < N; x++) hp[i][x] = h[hp[i - 1][x]]; hp[i][N] = N; }
    /* orbits */
    int fixedlist[MAXN + 1], nfix = 0;
    for (int x = 0; x < N; x++) orbit_of[x] = -2;
    orbit_of[N] = -1;
    norb = 0;
    for (int x = 0; x < N; x++) {
        if (orbit_of[x] != -2) continue;
        int sz = 1, y = h[x];
        while (y != x) { sz++; y = h[y]; }
        if (sz == 1) { orbit_of[x] = -1; if (!(bye && x == 0)) fixedlist[nfix++] = x; continue; }
        if (sz < E) { /* a short orbit: its players go to the special part, like fixed points */
            for (int i = 0, y2 = x; i < sz; i++, y2 = h[y2]) { orbit_of[y2] = -1; fixedlist[nfix++] = y2; }
            continue;
        }
        if (bye && x == 0) { fprintf(stderr, "0 not fixed\n"); return 3; }
        for (int i = 0; i < E; i++) orbit_of[hp[i][x]] = norb;
        orbit_rep[norb++] = x;
    }
    if (fixedp) fixedlist[nfix++] = N;
    int s = nfix + K * E;
    if (s % 4 || (norb - K) % 4 || K > norb) { fprintf(stderr, "bad counts s=%d norb=%d\n", s, norb); return 3; }
    ts = s / 4; tb = (norb - K) / 4;
    /* random initial */
    int perm[MAXN];
    for (int i = 0; i < norb; i++) perm[i] = i;
    for (int i = norb - 1; i > 0; i--) { int j = rint_(i + 1); int t = perm[i]; perm[i] = perm[j]; perm[j] = t; }
    int c = 0;
    for (int i = 0; i < nfix; i++) sp[c++] = fixedlist[i];
    nspec = K;
    for (int i = 0; i < K; i++) {
        spec_orbits[i] = perm[i];
        for (int j = 0; j < E; j++) sp[c++] = hp[j][orbit_rep[perm[i]]];
    }
    for (int i = c - 1; i > 0; i--) { int j = rint_(i + 1); int t = sp[i]; sp[i] = sp[j]; sp[j] = t; }
    for (int i = 0; i < 4 * tb; i++) bp[i] = hp[rint_(E)][orbit_rep[perm[K + i]]];
    memset(P, 0, sizeof P); memset(O, 0, sizeof O);
    cost = (SQ ? 5L : 3L) * (N - 1);
    for (int t = 0; t < ts + tb; t++) tab(t, 1);
    fprintf(stderr, "ts=%d tb=%d nfix=%d norb=%d cost=%ld\n", ts, tb, nfix, norb, cost);
    double T0 = argc > 1 ? atof(argv[1]) : 2.0, Tmin = argc > 2 ? atof(argv[2]) : 0.15, T = T0; double decay = argc > 3 ? atof(argv[3]) : 0.97;
    long best = cost;
    clock_t start = clock();
    long step = 0;
    int aff[MAXN + 4], naff;
    int savesp[4 * MAXN];
    int nsp = 4 * ts, nbp = 4 * tb;
    while (cost) {
        step++;
        if ((step & 0xFFFF) == 0) {
            double el = (double)(clock() - start) / CLOCKS_PER_SEC;
            if (el > seconds) break;
            T *= decay;
            if (T < Tmin) T = T0;
            if ((step & 0xFFFFFF) == 0) fprintf(stderr, "step %ld T %.3f cost %ld best %ld\n", step, T, cost, best);
        }
        int kind = rint_(100);
        long before = cost;
        if (tb == 0) kind = 0;
        else if (ts <= 1 && kind < 30) kind = 30 + rint_(70);
        if (kind < 30) { /* special swap */
            int i = rint_(nsp), j = rint_(nsp);
            int ti = i / 4, tj = j / 4;
            if (ti == tj && (i ^ j) < 2) continue;
            tab(ti, -1); if (tj != ti) tab(tj, -1);
            int t = sp[i]; sp[i] = sp[j]; sp[j] = t;
            tab(ti, 1); if (tj != ti) tab(tj, 1);
            long d = cost - before;
            if (d > 0 && rdbl() >= exp(-d / T)) {
                tab(ti, -1); if (tj != ti) tab(tj, -1);
                t = sp[i]; sp[i] = sp[j]; sp[j] = t;
                tab(ti, 1); if (tj != ti) tab(tj, 1);
            }
        } else if (kind < 65) { /* base swap */
            int i = rint_(nbp), j = rint_(nbp);
            int ti = i / 4, tj = j / 4;
            if (ti == tj && (i ^ j) < 2) continue;
            int ri = rint_(E), rj = rint_(E);
            int oi = bp[i], oj = bp[j];
            tab(ts + ti, -1); if (tj != ti) tab(ts + tj, -1);
            bp[i] = hp[rj][oj]; bp[j] = hp[ri][oi];
            tab(ts + ti, 1); if (tj != ti) tab(ts + tj, 1);
            long d = cost - before;
            if (d > 0 && rdbl() >= exp(-d / T)) {
                tab(ts + ti, -1); if (tj != ti) tab(ts + tj, -1);
                bp[i] = oi; bp[j] = oj;
                tab(ts + ti, 1); if (tj != ti) tab(ts + tj, 1);
            }
        } else if (kind < 85 || nspec == 0) { /* rotate */
            if (E == 1) continue;
            int i = rint_(nbp), ti = i / 4, r = 1 + rint_(E - 1);
            int oi = bp[i];
            tab(ts + ti, -1); bp[i] = hp[r][oi]; tab(ts + ti, 1);
            long d = cost - before;
            if (d > 0 && rdbl() >= exp(-d / T)) { tab(ts + ti, -1); bp[i] = oi; tab(ts + ti, 1); }
        } else { /* orbit exchange */
            int si = rint_(nspec), o2 = spec_orbits[si];
            int i = rint_(nbp), ti = i / 4;
            int x = bp[i], o1 = orbit_of[x];
            int y = orbit_rep[o2];
            int j = rint_(E);
            /* affected special tables: those holding orbit o2 */
            naff = 0;
            static int mark[MAXN];
            for (int q = 0; q < nsp; q++) if (sp[q] < N && orbit_of[sp[q]] == o2) {
                int t = q / 4; if (!mark[t]) { mark[t] = 1; aff[naff++] = t; }
            }
            for (int q = 0; q < naff; q++) tab(aff[q], -1);
            tab(ts + ti, -1);
            memcpy(savesp, sp, sizeof(int) * nsp);
            /* element h^a y -> h^a x */
            for (int q = 0; q < nsp; q++) if (sp[q] < N && orbit_of[sp[q]] == o2) {
                int a = 0; while (hp[a][y] != sp[q]) a++;
                sp[q] = hp[a][x];
            }
            bp[i] = hp[j][y];
            for (int q = 0; q < naff; q++) tab(aff[q], 1);
            tab(ts + ti, 1);
            long d = cost - before;
            if (d > 0 && rdbl() >= exp(-d / T)) {
                for (int q = 0; q < naff; q++) tab(aff[q], -1);
                tab(ts + ti, -1);
                memcpy(sp, savesp, sizeof(int) * nsp);
                bp[i] = x;
                for (int q = 0; q < naff; q++) tab(aff[q], 1);
                tab(ts + ti, 1);
            } else {
                spec_orbits[si] = o1;
            }
            for (int q = 0; q < naff; q++) mark[aff[q]] = 0;
        }
        if (cost < best) best = cost;
    }
    double el = (double)(clock() - start) / CLOCKS_PER_SEC;
    fprintf(stderr, "done cost %ld best %ld steps %ld secs %.1f\n", cost, best, step, el);
    if (cost) { printf("NONE\n"); return 1; }
    for (int t = 0; t < ts; t++) printf("%d %d %d %d\n", sp[4 * t], sp[4 * t + 1], sp[4 * t + 2], sp[4 * t + 3]);
    for (int t = 0; t < tb; t++)
        for (int i = 0; i < E; i++)
            printf("%d %d %d %d\n", hp[i][bp[4 * t]], hp[i][bp[4 * t + 1]], hp[i][bp[4 * t + 2]], hp[i][bp[4 * t + 3]]);
    printf("steps %ld secs %.1f\n", step, el);
    return 0;
}
