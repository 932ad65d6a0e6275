/* A whist starting round as a starter and a matching of its partnerships (a search in two
 * stages).
 *
 * Used by `python -m bot.leagues.whist_search --match` (see `match_c` there, which compiles
 * this file with the system C compiler); the bot never needs it.
 *
 * The partnerships of a starting round are a "starter": pairs that split the non-zero elements
 * (0 partners the fixed player, or sits out) and whose differences take each class {d, -d}
 * once. Stage 1 finds a random starter (annealing over matchings of the non-zero elements: a
 * move re-pairs two pairs). Stage 2 seats its partnerships two a table (the fixed player's
 * partnership included) so that the opponent differences take each class twice, the partner
 * differences being right all along: by annealing over swaps of two partnerships of two tables
 * (the squared cost), or with `exact` by backtracking over the options (two partnerships at one
 * table), which decides the starter unless it passes its limit of nodes. After `moves` moves
 * (or nodes) of stage 2 with no round, a new starter. The seed fixes the moves, so a run finds
 * the same round at the same move whatever the machine.
 *
 * stdin: N fixed bye seed seconds, then the group's subtraction table (N rows of N:
 * sub[x][y] = x - y). argv: the starting and lowest temperature, the cooling factor (every
 * 4096 moves), the moves (or nodes) of stage 2 for each starter, 1 for `exact`.
 * stdout: the tables, one "a b c d" a line ((a, b) against (c, d)), "steps S starters K", or
 * NONE.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAXN 512
#define MAXOPT 8192 /* options: two partnerships of the at most 128 */
static int N, fixedp, bye;
static int sub[MAXN][MAXN];
static int cls[MAXN]; /* the class {d, -d} of d, numbered from 0; -1 for d = 0 */
static int C;         /* classes */
static unsigned long long rs;
static inline unsigned long long rnd(void) {
    rs ^= rs << 13; rs ^= rs >> 7; rs ^= rs << 17; return rs;
}
static inline int rint_(int n) { return (int)(rnd() % (unsigned long long)n); }
static inline double rdbl(void) { return (rnd() >> 11) * (1.0 / 9007199254740992.0); }

static int pa[MAXN], pb[MAXN]; /* partnership i is {pa[i], pb[i]}; pb = N: the fixed player */
static int np;                 /* partnerships */
static int P[MAXN], O[MAXN];

/* Stage 1: a starter, pairs of the non-zero elements taking each class once. */
static void starter(void) {
    int xs[MAXN], k = 0;
    for (int x = 1; x < N; x++) xs[k++] = x;
    for (;;) {
        for (int i = k - 1; i > 0; i--) { int j = rint_(i + 1), t = xs[i]; xs[i] = xs[j]; xs[j] = t; }
        int m = k / 2;
        for (int i = 0; i < m; i++) { pa[i] = xs[2 * i]; pb[i] = xs[2 * i + 1]; }
        memset(P, 0, sizeof P);
        long cost = C;
        for (int i = 0; i < m; i++) { int c = cls[sub[pa[i]][pb[i]]]; cost += abs(P[c]) - abs(P[c] - 1); P[c]++; }
        double T = 1.0;
        for (long step = 0; step < 400L * N * N && cost; step++) {
            int i = rint_(m), j = rint_(m);
            if (i == j) continue;
            int c1 = cls[sub[pa[i]][pb[i]]], c2 = cls[sub[pa[j]][pb[j]]];
            int a = pa[i], b = pb[i], c = pa[j], d = pb[j];
            if (rnd() & 1) { int t = c; c = d; d = t; }
            int e1 = cls[sub[a][c]], e2 = cls[sub[b][d]];
            long before = cost;
            cost += abs(P[c1] - 2) - abs(P[c1] - 1); P[c1]--;
            cost += abs(P[c2] - 2) - abs(P[c2] - 1); P[c2]--;
            cost += abs(P[e1]) - abs(P[e1] - 1); P[e1]++;
            cost += abs(P[e2]) - abs(P[e2] - 1); P[e2]++;
            long dlt = cost - before;
            if (dlt > 0 && rdbl() >= exp(-dlt / T)) {
                P[e2]--; P[e1]--; P[c2]++; P[c1]++;
                cost = before;
            } else {
                pa[i] = a; pb[i] = c; pa[j] = b; pb[j] = d;
            }
            if ((step & 1023) == 1023) T = T > 0.1 ? T * 0.99 : 0.1;
        }
        if (!cost) { np = m; break; }
    }
    if (fixedp) { pa[np] = 0; pb[np] = N; np++; }
}

static long cost2; /* the sum of (count - 2)^2 over the classes' opponent counts */
static int exact, exact_result;
static inline void bumpO(int x, int y, int s) {
    if (x >= N || y >= N) return;
    int c = cls[sub[x][y]];
    long b = (long)(O[c] - 2) * (O[c] - 2);
    O[c] += s;
    cost2 += (long)(O[c] - 2) * (O[c] - 2) - b;
}
static int tab[MAXN][2]; /* table t: partnerships tab[t][0] against tab[t][1] */
static void table(int t, int s) {
    int i = tab[t][0], j = tab[t][1];
    bumpO(pa[i], pa[j], s); bumpO(pa[i], pb[j], s);
    bumpO(pb[i], pa[j], s); bumpO(pb[i], pb[j], s);
}

/* Stage 2 exactly: `whist_seat.h`, with the class of two players here. */
static inline int pair_class(int x, int y) { return x < N && y < N ? cls[sub[x][y]] : -1; }
#include "whist_seat.h"

static long exact_search(long moves) {
    if (np * (np - 1) / 2 > MAXOPT) { fprintf(stderr, "too many partnerships\n"); exit(3); }
    for (int c = 0; c < C; c++) need[c] = 2;
    int r = seat_partnerships(moves);
    exact_result = r;
    if (r) return 1;  /* the cost: any but 0 */
    int t = 0;
    for (int i = 0; i < np; i++)
        if (i < partner_of[i]) { tab[t][0] = i; tab[t][1] = partner_of[i]; t++; }
    memset(O, 0, sizeof O);
    cost2 = 0;
    return 0;
}

int main(int argc, char **argv) {
    long seed; double seconds;
    if (scanf("%d %d %d %ld %lf", &N, &fixedp, &bye, &seed, &seconds) != 5) return 2;
    for (int x = 0; x < N; x++) for (int y = 0; y < N; y++) if (scanf("%d", &sub[x][y]) != 1) return 2;
    double T0 = argc > 1 ? atof(argv[1]) : 1.0, Tmin = argc > 2 ? atof(argv[2]) : 0.1;
    double decay = argc > 3 ? atof(argv[3]) : 0.99;
    long moves = argc > 4 ? atol(argv[4]) : 2000000;
    exact = argc > 5 ? atoi(argv[5]) : 0;
    rs = 0x9E3779B97F4A7C15ULL ^ (unsigned long long)seed * 0xD1B54A32D192ED03ULL;
    if (!rs) rs = 1;
    C = 0;
    cls[0] = -1;
    for (int d = 1; d < N; d++) cls[d] = -2;
    for (int d = 1; d < N; d++) if (cls[d] == -2) { cls[d] = C; cls[sub[0][d]] = C; C++; }
    clock_t start = clock();
    long steps = 0, starters = 0, best = -1, exact_counts[3] = {0, 0, 0};
    for (;;) {
        double el = (double)(clock() - start) / CLOCKS_PER_SEC;
        if (el > seconds) break;
        starter();
        starters++;
        int m = np / 2;
        int perm[MAXN];
        for (int i = 0; i < np; i++) perm[i] = i;
        for (int i = np - 1; i > 0; i--) { int j = rint_(i + 1), t = perm[i]; perm[i] = perm[j]; perm[j] = t; }
        for (int t = 0; t < m; t++) { tab[t][0] = perm[2 * t]; tab[t][1] = perm[2 * t + 1]; }
        memset(O, 0, sizeof O);
        cost2 = 4L * C;
        for (int t = 0; t < m; t++) table(t, 1);
        long sbest = cost2;
        if (exact) {
            sbest = exact_search(moves);
            steps += nodes;
            exact_counts[exact_result]++;
        }
        double T = T0;
        for (long s = 0; !exact && s < moves && cost2; s++) {
            steps++;
            int t1 = rint_(m), t2 = rint_(m);
            if (t1 == t2) continue;
            int s1 = rint_(2), s2 = rint_(2);
            long before = cost2;
            table(t1, -1); table(t2, -1);
            int t = tab[t1][s1]; tab[t1][s1] = tab[t2][s2]; tab[t2][s2] = t;
            table(t1, 1); table(t2, 1);
            long d = cost2 - before;
            if (d > 0 && rdbl() >= exp(-d / T)) {
                table(t1, -1); table(t2, -1);
                t = tab[t1][s1]; tab[t1][s1] = tab[t2][s2]; tab[t2][s2] = t;
                table(t1, 1); table(t2, 1);
            }
            if (cost2 < sbest) sbest = cost2;
            if ((s & 4095) == 4095) { T *= decay; if (T < Tmin) T = T0; }
        }
        if (best < 0 || sbest < best) best = sbest;
        if (!cost2) {
            el = (double)(clock() - start) / CLOCKS_PER_SEC;
            fprintf(stderr, "found: starters %ld steps %ld secs %.1f\n", starters, steps, el);
            for (int t = 0; t < m; t++) {
                int i = tab[t][0], j = tab[t][1];
                if (pb[j] == N) { int u = i; i = j; j = u; }
                /* the fixed player's partnership first, as (N, 0) */
                if (pb[i] == N) printf("%d %d %d %d\n", pb[i], pa[i], pa[j], pb[j]);
                else printf("%d %d %d %d\n", pa[i], pb[i], pa[j], pb[j]);
            }
            printf("steps %ld starters %ld secs %.1f\n", steps, starters, el);
            return 0;
        }
    }
    fprintf(stderr, "none: best %ld starters %ld (exact: %ld none, %ld past the limit) steps %ld secs %.1f\n",
            best, starters, exact_counts[1], exact_counts[2], steps, (double)(clock() - start) / CLOCKS_PER_SEC);
    printf("NONE\n");
    return 1;
}
