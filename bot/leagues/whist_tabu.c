/* Tabu search for a whist starting round over an abelian group.
 *
 * Used by `python -m bot.leagues.whist_search --tabu` (see `tabu_c` there, which compiles this
 * file with the system C compiler); the bot never needs it.
 *
 * stdin: N fixed bye seed seconds, then the group's subtraction table (N rows of N:
 * sub[x][y] = x - y). argv, each optional: the tabu tenure (a base and a random extra), the
 * steps without a new best before a kick, the random swaps of a kick, 1 to count the cost as
 * squares (sum of (count - target)^2) instead of absolute values, the steps between weighings
 * (0: none) and the weight at which all weights go back to their start, 1 to also try trading
 * two partnerships between tables, the partner differences' starting weight, and 1 for the
 * search in two stages (below).
 *
 * The players: 0..N-1 and, when `fixed`, the fixed player N, who partners 0 at table 0 (both
 * stay there); with `bye`, 0 sits out. The cost is the distance of the round's partner and
 * opponent difference counts from the whist property (every non-zero difference a partner
 * once, an opponent twice). A move swaps two players: of two tables, or of the two
 * partnerships of one table (which re-pairs it). Each step evaluates every move that touches a
 * player in a wrong difference (one whose count is off: at first nearly every player) and
 * makes the best one whose players are not tabu (or that reaches a new best cost), ties
 * broken at random; the two players moved are then tabu for the tenure. (With weighings, the
 * moves see each difference's distance times its weight, and every so many steps the wrong
 * differences weigh one more.) After
 * `stall` steps with no new best of this run, a few random swaps perturb the round (from the
 * best round seen when the current one has drifted far from it). The seed fixes every choice,
 * so a run finds the same round at the same step whatever the machine.
 *
 * In two stages, the moves see only which players share a table: the cost is the distance of
 * each difference's count over pairs at one table from 3 (once partners, twice opponents), and
 * a set of tables at cost 0 is paired, each table in one of its three ways, by backtracking so
 * that every partner difference comes once (then the round is translated so that the fixed
 * player partners 0). About one such set in ten to fifty can be paired (for 44 and 48); when a
 * set cannot, a kick leaves it. Far fewer moves get to such sets than to a whole round.
 * stdout: the tables, one "a b c d" a line ((a, b) against (c, d)), or NONE.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAXN 256
static int N, fixedp, bye, SQ, DF; /* DF: first the table sets, then their pairings */
static int sub[MAXN + 1][MAXN + 1];
static int P[MAXN], O[MAXN];
static long cost, err; /* the weighted cost the moves see, the true cost */
static int wP[MAXN], wO[MAXN];
static int pos[MAXN + 4], loc[MAXN + 1], npos, first; /* players by position, positions */
static long tabu_until[MAXN + 1];
static unsigned long long rs;

static inline unsigned long long rnd(void) {
    rs ^= rs << 13; rs ^= rs >> 7; rs ^= rs << 17; return rs;
}
static inline int rint_(int n) { return (int)(rnd() % (unsigned long long)n); }

static inline void bumpT(int d, int s) { /* pairs at one table: 3 of each difference */
    int b = O[d] - 3, c = SQ ? 2 * s * b + 1 : abs(b + s) - abs(b);
    O[d] += s; err += c; cost += wO[d] * c;
}
static inline void bumpP(int d, int s) {
    if (DF) { bumpT(d, s); return; }
    int b = P[d] - 1, c = SQ ? 2 * s * b + 1 : abs(b + s) - abs(b);
    P[d] += s; err += c; cost += wP[d] * c;
}
static inline void bumpO(int d, int s) {
    if (DF) { bumpT(d, s); return; }
    int b = O[d] - 2, c = SQ ? 2 * s * b + 1 : abs(b + s) - abs(b);
    O[d] += s; err += c; cost += wO[d] * c;
}
static inline void part(int x, int y, int s) {
    if (x < N && y < N) { bumpP(sub[x][y], s); bumpP(sub[y][x], s); }
}
static inline void opp(int x, int y, int s) {
    if (x < N && y < N) { bumpO(sub[x][y], s); bumpO(sub[y][x], s); }
}
static void table(int t, int s) {
    int *q = pos + 4 * t;
    part(q[0], q[1], s); part(q[2], q[3], s);
    opp(q[0], q[2], s); opp(q[0], q[3], s); opp(q[1], q[2], s); opp(q[1], q[3], s);
}
/* the differences of the player at position i with its partner and opponents */
static void seat(int x, int i, int s) {
    int *q = pos + 4 * (i / 4), k = i % 4;
    part(x, q[k ^ 1], s);
    opp(x, q[(k ^ 2) & ~1], s); opp(x, q[((k ^ 2) & ~1) + 1], s);
}
static void swap(int i, int j) {
    int ti = i / 4, tj = j / 4;
    if (ti == tj) {
        table(ti, -1);
        int t = pos[i]; pos[i] = pos[j]; pos[j] = t; loc[pos[i]] = i; loc[pos[j]] = j;
        table(ti, 1);
        return;
    }
    int x = pos[i], y = pos[j];
    seat(x, i, -1); seat(y, j, -1);
    pos[i] = y; pos[j] = x; loc[x] = j; loc[y] = i;
    seat(y, i, 1); seat(x, j, 1);
}
/* the change in the weighted cost of swapping positions i and j, and in the true one */
static long delta(int i, int j, long *derr) {
    long before = cost, eb = err;
    swap(i, j);
    long d = cost - before;
    *derr = err - eb;
    swap(i, j);
    return d;
}
static long dev(int c, int target) { int b = c - target; return SQ ? (long)b * b : labs((long)b); }
/* the weighted cost from scratch */
static void recost(void) {
    cost = 0;
    for (int d = 1; d < N; d++)
        cost += DF ? wO[d] * dev(O[d], 3) : wP[d] * dev(P[d], 1) + wO[d] * dev(O[d], 2);
}
/* does player x sit in a difference whose count is off? */
static int wrong(int x) {
    if (x >= N) return 0;
    int i = loc[x], *q = pos + 4 * (i / 4), k = i % 4;
    if (DF) {
        for (int m = 0; m < 4; m++) if (m != k && q[m] < N && O[sub[x][q[m]]] != 3) return 1;
        return 0;
    }
    int y = q[k ^ 1];
    if (y < N && (P[sub[x][y]] != 1)) return 1;
    for (int m = 0; m < 2; m++) {
        y = q[((k ^ 2) & ~1) + m];
        if (y < N && (O[sub[x][y]] != 2 || O[sub[y][x]] != 2)) return 1;
    }
    return 0;
}

/* With DF: the pairings of the tables (each of its three) that make every partner difference
 * once, by backtracking; on success the tables are so paired (the fixed player partnering 0,
 * after a translation) and it returns 1. */
static int nt_, popt[MAXN][3][2], used[MAXN];
static int choice[MAXN];
static int cls(int a, int b) {
    if (a >= N || b >= N) return -1;
    int d = sub[a][b], e = sub[b][a];
    return d < e ? d : e;
}
static int cover(int t) {
    if (t == nt_) return 1;
    for (int k = 0; k < 3; k++) {
        int c1 = popt[t][k][0], c2 = popt[t][k][1];
        if ((c1 >= 0 && used[c1]) || (c2 >= 0 && used[c2]) || (c1 >= 0 && c1 == c2)) continue;
        if (c1 >= 0) used[c1] = 1;
        if (c2 >= 0) used[c2] = 1;
        choice[t] = k;
        if (cover(t + 1)) return 1;
        if (c1 >= 0) used[c1] = 0;
        if (c2 >= 0) used[c2] = 0;
    }
    return 0;
}
static int pairing(int nt) {
    nt_ = nt;
    for (int t = 0; t < nt; t++) {
        int *q = pos + 4 * t;
        for (int k = 0; k < 3; k++) { /* q[0] partners q[k + 1] */
            int a = q[0], b = q[k + 1], c = q[k == 0 ? 2 : 1], d = q[k == 2 ? 2 : 3];
            popt[t][k][0] = cls(a, b); popt[t][k][1] = cls(c, d);
        }
    }
    memset(used, 0, sizeof used);
    if (!cover(0)) return 0;
    for (int t = 0; t < nt; t++) {
        int *q = pos + 4 * t, k = choice[t];
        int a = q[0], b = q[k + 1], c = q[k == 0 ? 2 : 1], d = q[k == 2 ? 2 : 3];
        q[0] = a; q[1] = b; q[2] = c; q[3] = d;
    }
    if (fixedp) { /* table 0 holds the fixed player: make its partner 0 */
        int *q = pos, x = q[0] == N ? q[1] : q[0];
        for (int i = 0; i < npos; i++) if (pos[i] < N) pos[i] = sub[pos[i]][x];
        if (q[0] != N) { int t = q[0]; q[0] = q[1]; q[1] = t; }
    }
    return 1;
}

int main(int argc, char **argv) {
    long seed; double seconds;
    int tenure = argc > 1 ? atoi(argv[1]) : 3, extra = argc > 2 ? atoi(argv[2]) : 3;
    long stall = argc > 3 ? atol(argv[3]) : 1000000;
    int kicks = argc > 4 ? atoi(argv[4]) : 3;
    SQ = argc > 5 ? atoi(argv[5]) : 1;
    long wstep = argc > 6 ? atol(argv[6]) : 0;
    int wcap = argc > 7 ? atoi(argv[7]) : 1 << 20;
    int pairs = argc > 8 ? atoi(argv[8]) : 0;
    int pw = argc > 9 ? atoi(argv[9]) : 1; /* the partner differences' weight */
    DF = argc > 10 ? atoi(argv[10]) : 0;
    long df_sets = 0; /* table sets found whose pairings failed */
    if (scanf("%d %d %d %ld %lf", &N, &fixedp, &bye, &seed, &seconds) != 5) return 2;
    for (int x = 0; x < N; x++) for (int y = 0; y < N; y++) if (scanf("%d", &sub[x][y]) != 1) return 2;
    if (!bye && !fixedp) { fprintf(stderr, "need fixed or bye\n"); return 3; }
    rs = 0x9E3779B97F4A7C15ULL ^ (unsigned long long)seed * 0xD1B54A32D192ED03ULL;
    if (!rs) rs = 1;
    int players = N + (fixedp ? 1 : 0) - (bye ? 1 : 0);
    int nt = players / 4;
    npos = 4 * nt;
    first = fixedp ? 2 : 0;
    int c = 0;
    if (fixedp) { pos[c++] = N; pos[c++] = 0; }
    for (int x = 1; x < N; x++) pos[c++] = x;
    for (int i = npos - 1; i > first; i--) { int j = first + rint_(i - first + 1); int t = pos[i]; pos[i] = pos[j]; pos[j] = t; }
    for (int i = 0; i < npos; i++) loc[pos[i]] = i;
    for (int d = 0; d < N; d++) { wP[d] = pw; wO[d] = 1; }
    err = DF ? (SQ ? 9L : 3L) * (N - 1) : (SQ ? 5L : 3L) * (N - 1);
    for (int t = 0; t < nt; t++) table(t, 1);
    recost();
    long best = err, run_best = err, since = 0, step = 0, low = 0; /* entries to cost <= 4 */
    int was_low = 0;
    static int best_pos[MAXN + 4];
    memcpy(best_pos, pos, sizeof pos);
    clock_t start = clock();
    static int cand_i[MAXN * MAXN], cand_j[MAXN * MAXN];
    static char bad[MAXN + 1];
    for (;;) {
        if (err == 0) {
            if (!DF || pairing(nt)) break;
            df_sets++;
            best = 1L << 40; /* from here the best of the next sets */
            since = stall; /* a kick */
            goto kick;
        }
        step++;
        if ((step & 0xFF) == 0) {
            double el = (double)(clock() - start) / CLOCKS_PER_SEC;
            if (el > seconds) break;
            if ((step & 0x3FFFF) == 0) fprintf(stderr, "step %ld cost %ld best %ld %.0f s\n", step, err, best, el);
        }
        if (wstep && step % wstep == 0) { /* weigh the wrong differences more */
            int top = 0;
            for (int d = 1; d < N; d++) {
                if (P[d] != 1) wP[d]++;
                if (O[d] != 2) wO[d]++;
                if (wP[d] > top) top = wP[d];
                if (wO[d] > top) top = wO[d];
            }
            if (top > wcap) for (int d = 0; d < N; d++) { wP[d] = pw; wO[d] = 1; }
            recost();
        }
        /* the players in a wrong difference */
        for (int i = first; i < npos; i++) bad[pos[i]] = (char)wrong(pos[i]);
        long bd = 1L << 60; int nc = 0;
        for (int i = first; i < npos; i++) {
            int x = pos[i];
            for (int j = i + 1; j < npos; j++) {
                if (j / 4 == i / 4 && ((j ^ i) < 2 || DF)) continue;
                int y = pos[j];
                if (!bad[x] && !bad[y]) continue;
                long de, d = delta(i, j, &de);
                if (err + de == 0) { d = -(1L << 50); }
                else if ((tabu_until[x] > step || tabu_until[y] > step) && err + de >= best) continue;
                if (d < bd) { bd = d; nc = 0; }
                if (d == bd) { cand_i[nc] = i; cand_j[nc] = j; nc++; }
            }
        }
        /* two partnerships trade tables: partner counts stay, opponents change */
        if (pairs) for (int u = first / 2; u < npos / 2; u++) {
            int x = pos[2 * u], x2 = pos[2 * u + 1];
            for (int v = u + 1; v < npos / 2; v++) {
                if (v / 2 == u / 2) continue;
                int y = pos[2 * v], y2 = pos[2 * v + 1];
                if (!bad[x] && !bad[y] && !bad[x2] && !bad[y2]) continue;
                long before = cost, eb = err;
                swap(2 * u, 2 * v); swap(2 * u + 1, 2 * v + 1);
                long d = cost - before, de = err - eb;
                swap(2 * u, 2 * v); swap(2 * u + 1, 2 * v + 1);
                if (err + de == 0) { d = -(1L << 50); }
                else if ((tabu_until[x] > step || tabu_until[y] > step || tabu_until[x2] > step ||
                          tabu_until[y2] > step) && err + de >= best) continue;
                if (d < bd) { bd = d; nc = 0; }
                if (d == bd) { cand_i[nc] = -1 - 2 * u; cand_j[nc] = 2 * v; nc++; }
            }
        }
        if (nc == 0) { since = stall; }
        else {
            int k = rint_(nc), i = cand_i[k], j = cand_j[k];
            if (i < 0) {
                i = -1 - i;
                int x2 = pos[i + 1], y2 = pos[j + 1];
                swap(i + 1, j + 1);
                tabu_until[x2] = step + tenure + rint_(extra + 1);
                tabu_until[y2] = step + tenure + rint_(extra + 1);
            }
            int x = pos[i], y = pos[j];
            swap(i, j);
            tabu_until[x] = step + tenure + rint_(extra + 1);
            tabu_until[y] = step + tenure + rint_(extra + 1);
            if (err <= 4 && !was_low) low++;
            was_low = err <= 4;
            if (err < best) { best = err; memcpy(best_pos, pos, sizeof pos); }
            if (err < run_best) { run_best = err; since = 0; } else since++;
        }
    kick:
        if (since >= stall) { /* perturb: a few random swaps, from the best round if far off */
            if (err > best + best / 2) {
                memcpy(pos, best_pos, sizeof pos);
                for (int i = 0; i < npos; i++) loc[pos[i]] = i;
                memset(P, 0, sizeof P); memset(O, 0, sizeof O);
                err = DF ? (SQ ? 9L : 3L) * (N - 1) : (SQ ? 5L : 3L) * (N - 1);
                for (int t = 0; t < nt; t++) table(t, 1);
            }
            for (int k = 0; k < kicks; k++) {
                int i = first + rint_(npos - first), j = first + rint_(npos - first);
                if (j / 4 == i / 4 && (j ^ i) < 2) continue;
                swap(i, j);
            }
            recost();
            for (int x = 0; x <= N; x++) tabu_until[x] = 0;
            run_best = err; since = 0;
        }
    }
    double el = (double)(clock() - start) / CLOCKS_PER_SEC;
    fprintf(stderr, "done cost %ld best %ld steps %ld low %ld sets %ld secs %.1f\n", err, best, step, low, df_sets, el);
    if (err) { printf("NONE\nbest %ld\n", best); return 1; }
    for (int t = 0; t < nt; t++) printf("%d %d %d %d\n", pos[4 * t], pos[4 * t + 1], pos[4 * t + 2], pos[4 * t + 3]);
    printf("steps %ld secs %.1f\n", step, el);
    return 0;
}
