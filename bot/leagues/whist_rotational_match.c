/* The starting round R0 of a rotational whist design (see `bot/leagues/whist_rotational.py`)
 * as a starter and a matching of its partnerships, the two stages of `whist_match.c`.
 *
 * Used by `python -m bot.leagues.whist_rotational --match` (`match_c` there compiles this file
 * with the system C compiler); the bot never needs it.
 *
 * Z_N, N = 4m, h = N / 4; the fixed player is N, and 0 sits out R0. Stage 1 picks the fixed
 * player's partner at random and a random starter of the other players: pairs taking each class
 * {d, -d} once as partners, but none at N / 2 (annealing over re-pairings of two pairs). Stage 2
 * seats the partnerships two a table by backtracking over the options (two partnerships at one
 * table), branching on the partnership or the class short of its count with the fewest options
 * left, so that the opponents take each class twice, the class of h once and the class of N / 2
 * once (one pair). After `limit` nodes on one starter, a new one. The seed fixes the search.
 *
 * argv: N seed seconds limit. stdout: the tables, one "a b c d" a line ((a, b) against
 * (c, d)), then "steps S starters K secs T"; or NONE.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <math.h>

#define MAXN 256
#define MAXOPT 8192
static int N, C, H, HALF;
static unsigned long long rs;
static inline unsigned long long rnd(void) {
    rs ^= rs << 13; rs ^= rs >> 7; rs ^= rs << 17; return rs;
}
static inline int rint_(int n) { return (int)(rnd() % (unsigned long long)n); }
static inline double rdbl(void) { return (rnd() >> 11) * (1.0 / 9007199254740992.0); }
/* The class of the difference of x and y (both in Z_N), numbered 0..C-1; the class of h is
 * H - 1 and that of N / 2 is C - 1. */
static inline int cls(int x, int y) {
    int d = ((x - y) % N + N) % N;
    return (d <= HALF ? d : N - d) - 1;
}
static inline int ptarget(int c) { return c == C - 1 ? 0 : 1; }
static inline int otarget(int c) { return c == C - 1 || c == H - 1 ? 1 : 2; }

static int pa[MAXN], pb[MAXN], np;
static int P[MAXN];

/* Stage 1: the fixed player's partner and a starter of the rest. */
static void starter(void) {
    int xs[MAXN], k;
    for (;;) {
        int fp = 1 + rint_(N - 1);
        k = 0;
        for (int x = 1; x < N; x++) if (x != fp) xs[k++] = x;
        for (int i = k - 1; i > 0; i--) { int j = rint_(i + 1), t = xs[i]; xs[i] = xs[j]; xs[j] = t; }
        int m = k / 2;
        for (int i = 0; i < m; i++) { pa[i] = xs[2 * i]; pb[i] = xs[2 * i + 1]; }
        memset(P, 0, sizeof P);
        long cost = 0;
        for (int c = 0; c < C; c++) cost += ptarget(c);
        for (int i = 0; i < m; i++) {
            int c = cls(pa[i], pb[i]);
            cost += abs(P[c] + 1 - ptarget(c)) - abs(P[c] - ptarget(c));
            P[c]++;
        }
        double T = 1.0;
        for (long step = 0; step < 400L * N * N && cost; step++) {
            int i = rint_(m), j = rint_(m);
            if (i == j) continue;
            int a = pa[i], b = pb[i], c = pa[j], d = pb[j];
            if (rnd() & 1) { int t = c; c = d; d = t; }
            int c1 = cls(a, b), c2 = cls(c, d), e1 = cls(a, c), e2 = cls(b, d);
            long before = cost;
            cost += abs(P[c1] - 1 - ptarget(c1)) - abs(P[c1] - ptarget(c1)); P[c1]--;
            cost += abs(P[c2] - 1 - ptarget(c2)) - abs(P[c2] - ptarget(c2)); P[c2]--;
            cost += abs(P[e1] + 1 - ptarget(e1)) - abs(P[e1] - ptarget(e1)); P[e1]++;
            cost += abs(P[e2] + 1 - ptarget(e2)) - abs(P[e2] - ptarget(e2)); P[e2]++;
            long dlt = cost - before;
            if (dlt > 0 && rdbl() >= exp(-dlt / T)) {
                P[e2]--; P[e1]--; P[c2]++; P[c1]++;
                cost = before;
            } else {
                pa[i] = a; pb[i] = c; pa[j] = b; pb[j] = d;
            }
            if ((step & 1023) == 1023) T = T > 0.1 ? T * 0.99 : 0.1;
        }
        if (!cost) { np = m; pa[np] = fp; pb[np] = N; np++; return; }
    }
}

/* Stage 2: `whist_seat.h`, with the counts of this kind. */
static inline int pair_class(int x, int y) { return x < N && y < N ? cls(x, y) : -1; }
#include "whist_seat.h"

static int seat(long moves) {
    for (int c = 0; c < C; c++) need[c] = otarget(c);
    return seat_partnerships(moves);
}

int main(int argc, char **argv) {
    if (argc < 5) return 2;
    N = atoi(argv[1]);
    long seed = atol(argv[2]);
    double seconds = atof(argv[3]);
    long moves = atol(argv[4]);
    if (N % 4 || N < 8 || N > MAXN) return 2;
    H = N / 4; HALF = N / 2; C = HALF;
    if ((long)(N / 2) * (N / 2 - 1) / 2 > MAXOPT) { fprintf(stderr, "too many partnerships\n"); return 3; }
    rs = 0x9E3779B97F4A7C15ULL ^ (unsigned long long)seed * 0xD1B54A32D192ED03ULL;
    if (!rs) rs = 1;
    clock_t start = clock();
    long steps = 0, starters = 0, counts[3] = {0, 0, 0};
    for (;;) {
        double el = (double)(clock() - start) / CLOCKS_PER_SEC;
        if (el > seconds) break;
        starter();
        starters++;
        int r = seat(moves);
        steps += nodes;
        counts[r]++;
        if (r == 0) {
            el = (double)(clock() - start) / CLOCKS_PER_SEC;
            for (int i = 0; i < np; i++)
                if (i < partner_of[i]) {
                    int a = i, b = partner_of[i];
                    if (pb[b] == N) { a = b; b = i; }  /* the fixed player's partnership first */
                    printf("%d %d %d %d\n", pa[a], pb[a], pa[b], pb[b]);
                }
            printf("steps %ld starters %ld secs %.1f\n", steps, starters, el);
            return 0;
        }
    }
    fprintf(stderr, "none: starters %ld (%ld none, %ld past the limit) steps %ld secs %.1f\n",
            starters, counts[1], counts[2], steps, (double)(clock() - start) / CLOCKS_PER_SEC);
    printf("NONE\n");
    return 1;
}
