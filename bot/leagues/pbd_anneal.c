/* Simulated annealing for the base blocks of a design with blocks of several sizes, developed
 * by Z_p acting on o orbits of points (and, with infinity, blocks {inf, (t, 0), ..., (t, o-1)}).
 *
 * Used by `python -m bot.leagues.pbd --search` (see `anneal` there, which compiles this file
 * with the system C compiler); the bot never needs it.
 *
 * stdin: p o infinity seed seconds count, then the count block sizes.
 * Point (x, i) is numbered i * p + x. The blocks' differences are counted by orbits (i, j),
 * i <= j, and d = x_j - x_i: two points of one orbit must meet at each d != 0 once (so each
 * pair {d, -d} once), two of orbits i < j at each d once, but at d = 0 with infinity, whose
 * blocks hold those pairs. The cost is the sum of squared distances from those targets; a move
 * puts a random point in place of one of a block's. The seed fixes the moves.
 * stdout: the blocks, one line of "x i x i ..." each, or NONE.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "xorshift.h"

#define MAXP 256
#define MAXO 16
#define MAXB 64
#define MAXK 32
static int p, o, inf, nb, size[MAXB];
static int bx[MAXB][MAXK], bo[MAXB][MAXK];
static int C[MAXO][MAXO][MAXP], T[MAXO][MAXO][MAXP];
static long cost;

static inline void bump(int i, int j, int d, int s) {
    long b = (long)(C[i][j][d] - T[i][j][d]) * (C[i][j][d] - T[i][j][d]);
    C[i][j][d] += s;
    cost += (long)(C[i][j][d] - T[i][j][d]) * (C[i][j][d] - T[i][j][d]) - b;
}
/* The pair of points (x, i) and (y, j), counted once as x_j - x_i with i <= j. */
static inline void pair(int x, int i, int y, int j, int s) {
    if (i == j) { bump(i, i, ((y - x) % p + p) % p, s); bump(i, i, ((x - y) % p + p) % p, s); }
    else if (i < j) bump(i, j, ((y - x) % p + p) % p, s);
    else bump(j, i, ((x - y) % p + p) % p, s);
}
static void point(int b, int k, int s) {
    for (int m = 0; m < size[b]; m++)
        if (m != k) pair(bx[b][k], bo[b][k], bx[b][m], bo[b][m], s);
}
static int holds(int b, int x, int i) {
    for (int m = 0; m < size[b]; m++) if (bx[b][m] == x && bo[b][m] == i) return 1;
    return 0;
}

static void print_blocks(void) {
    for (int b = 0; b < nb; b++) {
        for (int k = 0; k < size[b]; k++) printf("%s%d %d", k ? " " : "", bx[b][k], bo[b][k]);
        printf("\n");
    }
}

/* The change of cost were point k of block b moved to (x, i). */
static long delta_of(int b, int k, int x, int i) {
    long before = cost;
    int ox = bx[b][k], oi = bo[b][k];
    point(b, k, -1);
    bx[b][k] = x; bo[b][k] = i;
    point(b, k, 1);
    long d = cost - before;
    point(b, k, -1);
    bx[b][k] = ox; bo[b][k] = oi;
    point(b, k, 1);
    return d;
}

/* A point takes part in a wrong count when a pair of it with another of its block does. */
static int wrong(int b, int k) {
    for (int m = 0; m < size[b]; m++) {
        if (m == k) continue;
        int x = bx[b][k], i = bo[b][k], y = bx[b][m], j = bo[b][m], d;
        if (i > j || (i == j && 0)) { int t = x; x = y; y = t; t = i; i = j; j = t; }
        d = ((y - x) % p + p) % p;
        if (C[i][j][d] > T[i][j][d]) return 1;
        if (i == j && C[i][i][(p - d) % p] > T[i][i][(p - d) % p]) return 1;
    }
    return 0;
}

/* Tabu search: each step makes the best move of a point in a wrong count (ties at random),
 * that point then tabu for `tenure` to `2 tenure` steps unless the move reaches a new best. */
static int tabu(clock_t start, double seconds, int tenure) {
    static long until[MAXB][MAXK];
    long step = 0, best = cost;
    while (cost > 0) {
        long bestd = 1L << 60; int nbest = 0, cb = -1, ck = -1, cx = -1, ci = -1;
        for (int b = 0; b < nb; b++)
            for (int k = 0; k < size[b]; k++) {
                if (!wrong(b, k)) continue;
                for (int i = 0; i < o; i++)
                    for (int x = 0; x < p; x++) {
                        if (holds(b, x, i)) continue;
                        long d = delta_of(b, k, x, i);
                        if (until[b][k] > step && cost + d >= best) continue;
                        if (d < bestd) { bestd = d; nbest = 1; cb = b; ck = k; cx = x; ci = i; }
                        else if (d == bestd && rint_(++nbest) == 0) { cb = b; ck = k; cx = x; ci = i; }
                    }
            }
        step++;
        if (cb < 0) continue;
        point(cb, ck, -1);
        bx[cb][ck] = cx; bo[cb][ck] = ci;
        point(cb, ck, 1);
        until[cb][ck] = step + tenure + rint_(tenure + 1);
        if (cost < best) best = cost;
        if ((step & 255) == 0 && (double)(clock() - start) / CLOCKS_PER_SEC > seconds) break;
    }
    if (cost > 0) { printf("NONE %ld\n", best); return 1; }
    print_blocks();
    fprintf(stderr, "steps %ld\n", step);
    return 0;
}

int main(int argc, char **argv) {
    double t0 = argc > 1 ? atof(argv[1]) : 2.0, tmin = argc > 2 ? atof(argv[2]) : 0.2;
    double cool = argc > 3 ? atof(argv[3]) : 0.97;
    long seed; double seconds;
    if (scanf("%d %d %d %ld %lf %d", &p, &o, &inf, &seed, &seconds, &nb) != 6) return 2;
    for (int b = 0; b < nb; b++) if (scanf("%d", &size[b]) != 1) return 2;
    rs = 0x9E3779B97F4A7C15ULL ^ (unsigned long long)(seed * 2654435761UL + 1);
    for (int i = 0; i < o; i++)
        for (int j = i; j < o; j++)
            for (int d = 0; d < p; d++) T[i][j][d] = (d == 0 && (i == j || inf)) ? 0 : 1;
    cost = 0;
    for (int i = 0; i < o; i++)
        for (int j = i; j < o; j++)
            for (int d = 0; d < p; d++) cost += (long)T[i][j][d] * T[i][j][d];
    for (int b = 0; b < nb; b++)
        for (int k = 0; k < size[b]; k++) {
            int x, i;
            do { x = rint_(p); i = rint_(o); } while (holds(b, x, i));
            bx[b][k] = x; bo[b][k] = i;
        }
    for (int b = 0; b < nb; b++)
        for (int k = 0; k < size[b]; k++)
            for (int m = k + 1; m < size[b]; m++) pair(bx[b][k], bo[b][k], bx[b][m], bo[b][m], 1);
    clock_t start = clock();
    if (t0 < 0) return tabu(start, seconds, (int)-t0);
    double temp = t0;
    long step = 0, best = cost;
    while (cost > 0) {
        for (int it = 0; it < 20000 && cost > 0; it++) {
            int b = rint_(nb), k = rint_(size[b]), x = rint_(p), i = rint_(o);
            if (holds(b, x, i)) continue;
            int ox = bx[b][k], oi = bo[b][k];
            long before = cost;
            point(b, k, -1);
            bx[b][k] = x; bo[b][k] = i;
            point(b, k, 1);
            long delta = cost - before;
            if (delta > 0 && rdbl() >= exp(-delta / temp)) {
                point(b, k, -1);
                bx[b][k] = ox; bo[b][k] = oi;
                point(b, k, 1);
            }
        }
        step++;
        if (cost < best) best = cost;
        temp *= cool;
        if (temp < tmin) temp = t0;
        if ((double)(clock() - start) / CLOCKS_PER_SEC > seconds) break;
    }
    if (cost > 0) { printf("NONE %ld\n", best); return 1; }
    print_blocks();
    fprintf(stderr, "steps %ld\n", step);
    return 0;
}
