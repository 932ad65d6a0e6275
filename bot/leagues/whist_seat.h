/* Stage 2 of the starter-and-matching searches (`whist_match.c`, `whist_rotational_match.c`):
 * the partnerships of a starter seated two a table so that the opponents take each class as
 * often as `need` says.
 *
 * A backtracking over the options (two partnerships at one table), each step branching on the
 * partnership or the class short of its count with the fewest options left (an option once
 * tried is barred for the rest of the branch). Each node looks only at the options that fit at
 * its parent (those that still fit are its children's list): the same search as looking at all
 * of them, some 3.7 times as fast for 72 players.
 *
 * The including file defines MAXN, MAXOPT, the number of classes C, the partnerships pa[i],
 * pb[i] (i < np) and pair_class(x, y) (the class of two players, -1 when one is the fixed
 * player) before including this, and sets need[c] before calling `seat_partnerships`.
 */
static int nopt, ocls[MAXOPT][4], oi[MAXOPT], oj[MAXOPT];
static char barred[MAXOPT];
static int used[MAXN], need[MAXN], partner_of[MAXN];
static long nodes, limit;
static int odn[MAXOPT], odc[MAXOPT][4], odm[MAXOPT][4]; /* an option's distinct classes, counts */
static int fits(int o) {
    if (barred[o] || used[oi[o]] || used[oj[o]]) return 0;
    for (int k = 0; k < odn[o]; k++)  /* each of its classes at most as often as still needed */
        if (odm[o][k] > need[odc[o][k]]) return 0;
    return 1;
}
static int dfs(int left, const int *plist, int pn) {
    if (!left) return 0;
    if (++nodes > limit) return 2;
    static int cnt_p[MAXN], cnt_c[MAXN];
    int okl[MAXOPT], nok = 0;
    for (int i = 0; i < np; i++) cnt_p[i] = 0;
    for (int c = 0; c < C; c++) cnt_c[c] = 0;
    for (int q = 0; q < pn; q++) {
        int o = plist[q];
        if (fits(o)) {
            okl[nok++] = o;
            cnt_p[oi[o]]++; cnt_p[oj[o]]++;
            for (int a = 0; a < 4; a++) if (ocls[o][a] >= 0) cnt_c[ocls[o][a]]++;
        }
    }
    int bestv = 1 << 30, bi = -1, isclass = 0;
    for (int i = 0; i < np; i++) if (!used[i] && cnt_p[i] < bestv) { bestv = cnt_p[i]; bi = i; isclass = 0; }
    for (int c = 0; c < C; c++) {
        if (need[c] && cnt_c[c] < need[c]) return 1;
        if (need[c] && cnt_c[c] < bestv) { bestv = cnt_c[c]; bi = c; isclass = 1; }
    }
    if (bestv == 0) return 1;
    int tried[MAXN * 2], nt = 0, r = 1;
    for (int q = 0; q < nok && r; q++) {
        int o = okl[q];
        if (barred[o]) continue;
        if (isclass) {
            int has = 0;
            for (int a = 0; a < 4; a++) if (ocls[o][a] == bi) has = 1;
            if (!has) continue;
        } else if (oi[o] != bi && oj[o] != bi) continue;
        used[oi[o]] = used[oj[o]] = 1;
        for (int a = 0; a < 4; a++) if (ocls[o][a] >= 0) need[ocls[o][a]]--;
        partner_of[oi[o]] = oj[o]; partner_of[oj[o]] = oi[o];
        r = dfs(left - 1, okl, nok);
        if (r == 0) return 0;
        used[oi[o]] = used[oj[o]] = 0;
        for (int a = 0; a < 4; a++) if (ocls[o][a] >= 0) need[ocls[o][a]]++;
        barred[o] = 1; tried[nt++] = o;
        if (r == 2) break;
    }
    for (int q = 0; q < nt; q++) barred[tried[q]] = 0;
    return r == 2 ? 2 : 1;
}

/* Seat the partnerships: 0 when it does (partner_of[i] is the partnership at i's table), 1 when
 * there is no way, 2 past `moves` nodes. */
static int seat_partnerships(long moves) {
    nopt = 0;
    for (int i = 0; i < np; i++)
        for (int j = i + 1; j < np; j++) {
            int xs[2] = {pa[i], pb[i]}, ys[2] = {pa[j], pb[j]}, a = 0;
            for (int u = 0; u < 2; u++)
                for (int v = 0; v < 2; v++) ocls[nopt][a++] = pair_class(xs[u], ys[v]);
            odn[nopt] = 0;
            for (int u = 0; u < 4; u++) {
                int c = ocls[nopt][u], k = 0;
                if (c < 0) continue;
                while (k < odn[nopt] && odc[nopt][k] != c) k++;
                if (k == odn[nopt]) { odc[nopt][k] = c; odm[nopt][k] = 0; odn[nopt]++; }
                odm[nopt][k]++;
            }
            oi[nopt] = i; oj[nopt] = j; barred[nopt] = 0; nopt++;
        }
    for (int i = 0; i < np; i++) used[i] = 0;
    static int all[MAXOPT];
    for (int o = 0; o < nopt; o++) all[o] = o;
    nodes = 0; limit = moves;
    return dfs(np / 2, all, nopt);
}
