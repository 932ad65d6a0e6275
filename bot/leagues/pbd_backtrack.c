/* Base blocks of a pairwise balanced design over Z_p on `o` orbits of points (x, i), found by
   randomized backtracking with restarts (`bot.leagues.pbd`).

   stdin: "p o infinity h seed seconds nodes count", then the `count` block sizes. With
   infinity, its blocks are {infinity} + (t + H) x every orbit, H the subgroup of order h of Z_p;
   the base blocks' differences then take every (i, j, d) once but d in H (d = 0 for i = j).
   Each step takes the difference (i, j, d) (or class) still to be taken that the fewest moves take
   (two new points in a block counted as one move):
   adding a point to a started block so that it makes that difference, adding two, or starting
   a block {(0, i), (d, j)} (a block may be translated). A run gives up after `nodes` steps and
   restarts with the moves in another random order. stdout: a base block a line, "x i x i ...".
   An optional last line "m q_0 ... q_{o-1}" asks for base blocks whose images under the
   multiplier (x, i) -> (m x, q_i) are base blocks too: only one of each class is printed, and
   the differences are taken a class at a time. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAXB 64
#define MAXK 32
#define MAXPTS 4096

static int P, O, INF, H, NB, K[MAXB], sz[MAXB], E[MAXB][MAXK], started[MAXB];
static unsigned char *used, *allowed, inb[MAXB][MAXPTS];
static int *cls; /* a difference's class under the multiplier: its least image */
static int MULT = 1, PERM[MAXB], ORDER = 1;
static long nodes, limit;
static unsigned long long rs;

static unsigned rnd(void) {
    rs ^= rs << 13;
    rs ^= rs >> 7;
    rs ^= rs << 17;
    return (unsigned)rs;
}

/* the slot of the difference from point a to point b (points numbered i * P + x) */
static int slot(int a, int b) {
    int i = a / P, x = a % P, j = b / P, y = b % P;
    return (i * O + j) * P + ((y - x) % P + P) % P;
}

/* whether z can join block b: its differences to the block's points (both ways, as classes
   under the multiplier) are allowed, not yet taken and all different */
static int fits(int b, int z) {
    if (inb[b][z]) return 0;
    int taken[2 * MAXK];
    for (int q = 0; q < sz[b]; q++) {
        int s = slot(E[b][q], z), r = slot(z, E[b][q]);
        if (!allowed[s] || used[cls[s]]) return 0;
        taken[2 * q] = cls[s], taken[2 * q + 1] = cls[r];
    }
    for (int a = 0; a < 2 * sz[b]; a++)
        for (int c = a + 1; c < 2 * sz[b]; c++)
            if (taken[a] == taken[c]) return 0;
    return 1;
}

static void add(int b, int z) {
    for (int q = 0; q < sz[b]; q++) {
        used[cls[slot(E[b][q], z)]] = 1;
        used[cls[slot(z, E[b][q])]] = 1;
    }
    E[b][sz[b]++] = z;
    inb[b][z] = 1;
}

static void drop(int b) {
    int z = E[b][--sz[b]];
    inb[b][z] = 0;
    for (int q = 0; q < sz[b]; q++) {
        used[cls[slot(E[b][q], z)]] = 0;
        used[cls[slot(z, E[b][q])]] = 0;
    }
}

typedef struct {
    int b, u, v, i, j, d; /* a start: block b, {(0, i), (d, j)} */
} Move;

/* the moves that take difference d from orbit i to orbit j; count only when out is NULL */
static int moves(int i, int j, int d, Move *out, int no_start) {
    int n = 0;
    for (int b = 0; b < NB; b++) {
        if (!started[b] || sz[b] >= K[b]) continue;
        for (int q = 0; q < sz[b]; q++) {
            int x = E[b][q] % P, k = E[b][q] / P;
            if (k == i) {
                int z = j * P + (x + d) % P;
                if (fits(b, z)) {
                    if (out) out[n] = (Move){b, z, -1};
                    n++;
                }
            }
            if (k == j && !(i == j && 2 * d % P == 0)) {
                int z = i * P + (x - d + P) % P;
                if (fits(b, z)) {
                    if (out) out[n] = (Move){b, z, -1};
                    n++;
                }
            }
        }
        if (sz[b] + 2 <= K[b] && !out)
            n++; /* counted as one: the difference is rarely short of pairs of new points */
        else if (sz[b] + 2 <= K[b])
            for (int u = 0; u < P; u++) {
                int a = i * P + u, c = j * P + (u + d) % P;
                if (!fits(b, a)) continue;
                add(b, a);
                int ok = fits(b, c);
                drop(b);
                if (ok) {
                    if (out) out[n] = (Move){b, a, c};
                    n++;
                }
            }
    }
    for (int b = 0; b < NB && !no_start; b++)
        if (!started[b]) {
            int fresh = 1;
            for (int c = 0; c < b; c++)
                if (!started[c] && K[c] == K[b]) fresh = 0;
            if (fresh) {
                if (out) out[n] = (Move){b, -2, -2, i, j, d};
                n++;
            }
        }
    return n;
}

/* the moves that take a difference of the class of s (a start only for s itself: the
   multiplier's images of a block are base blocks too) */
static int class_moves(int s, Move *out) {
    int n = 0, t = s;
    do {
        int i = t / (O * P), j = t / P % O, d = t % P;
        n += moves(i, j, d, out ? out + n : NULL, t != s);
        t = (PERM[i] * O + PERM[j]) * P + (int)((long)MULT * d % P);
    } while (t != s);
    return n;
}

static int search(void) {
    if (++nodes > limit) return -1;
    int bs = -1, best = 1 << 30;
    for (int i = 0; i < O; i++)
        for (int j = 0; j < O; j++)
            for (int d = 0; d < P; d++) {
                int s = (i * O + j) * P + d;
                if (!allowed[s] || used[cls[s]] || cls[s] != s) continue;
                int c = class_moves(s, NULL);
                if (c < best) {
                    best = c, bs = s;
                    if (c == 0) return 0;
                }
            }
    if (bs < 0) return 1;
    Move *m = malloc(sizeof(Move) * (size_t)(ORDER * NB * (2 * MAXK + P + 1)));
    int n = class_moves(bs, m);
    for (int a = n - 1; a > 0; a--) {
        int c = (int)(rnd() % (unsigned)(a + 1));
        Move t = m[a];
        m[a] = m[c];
        m[c] = t;
    }
    int r = 0;
    for (int a = 0; a < n && !r; a++) {
        Move x = m[a];
        if (x.u == -2) {
            started[x.b] = 1;
            add(x.b, x.i * P);
            add(x.b, x.j * P + x.d);
            r = search();
            if (!r) drop(x.b), drop(x.b), started[x.b] = 0;
        } else if (x.v < 0) {
            add(x.b, x.u);
            r = search();
            if (!r) drop(x.b);
        } else {
            add(x.b, x.u);
            add(x.b, x.v);
            r = search();
            if (!r) drop(x.b), drop(x.b);
        }
    }
    free(m);
    return r;
}

int main(void) {
    unsigned long long seed;
    double seconds;
    if (scanf("%d %d %d %d %llu %lf %ld %d", &P, &O, &INF, &H, &seed, &seconds, &limit, &NB) != 8)
        return 2;
    for (int b = 0; b < NB; b++)
        if (scanf("%d", &K[b]) != 1) return 2;
    for (int i = 0; i < O; i++) PERM[i] = i;
    if (scanf("%d", &MULT) == 1)
        for (int i = 0; i < O; i++)
            if (scanf("%d", &PERM[i]) != 1) return 2;
    if (P * O > MAXPTS || NB > MAXB) return 2;
    rs = seed * 2654435761ULL + 1;
    int slots = O * O * P, need = 0, have = 0;
    used = calloc((size_t)slots, 1);
    cls = malloc(sizeof(int) * (size_t)slots);
    /* the multiplier (x, i) -> (MULT x, PERM[i]) maps difference (i, j, d) to
       (PERM[i], PERM[j], MULT d); every class must have ORDER differences */
    for (ORDER = 1;; ORDER++) {
        long m = 1;
        for (int e = 0; e < ORDER; e++) m = m * MULT % P;
        int fixed = m == 1;
        for (int i = 0; i < O; i++) {
            int k = i;
            for (int e = 0; e < ORDER; e++) k = PERM[k];
            fixed &= k == i;
        }
        if (fixed) break;
    }
    for (int s = 0; s < slots; s++) {
        int least = s, t = s, n = 0;
        do {
            int i = t / (O * P), j = t / P % O, d = t % P;
            t = (PERM[i] * O + PERM[j]) * P + (int)((long)MULT * d % P);
            least = t < least ? t : least;
            n++;
        } while (t != s);
        cls[s] = least;
        if (n != ORDER && (s / (O * P) != s / P % O || s % P)) {
            fprintf(stderr, "difference %d has %d images, not %d\n", s, n, ORDER);
            return 2;
        }
    }
    allowed = calloc((size_t)slots, 1);
    for (int i = 0; i < O; i++)
        for (int j = 0; j < O; j++)
            for (int d = 0; d < P; d++) {
                int in_h = d % (P / H) == 0;
                allowed[(i * O + j) * P + d] = i == j ? !in_h : !(INF && in_h);
                need += allowed[(i * O + j) * P + d];
            }
    for (int b = 0; b < NB; b++) have += ORDER * K[b] * (K[b] - 1);
    if (have != need) {
        fprintf(stderr, "the blocks make %d differences, not %d\n", have, need);
        return 2;
    }
    clock_t start = clock();
    long runs = 0;
    while ((double)(clock() - start) < seconds * CLOCKS_PER_SEC) {
        memset(used, 0, (size_t)slots);
        memset(sz, 0, sizeof sz);
        memset(started, 0, sizeof started);
        memset(inb, 0, sizeof inb);
        nodes = 0;
        int r = search();
        runs++;
        if (r == 1) {
            for (int b = 0; b < NB; b++) {
                for (int q = 0; q < sz[b]; q++)
                    printf("%s%d %d", q ? " " : "", E[b][q] % P, E[b][q] / P);
                printf("\n");
            }
            fprintf(stderr, "found in run %ld\n", runs);
            return 0;
        }
        if (r == 0) {
            fprintf(stderr, "none: the search is complete\n");
            return 1;
        }
    }
    fprintf(stderr, "none in %ld runs\n", runs);
    return 1;
}
