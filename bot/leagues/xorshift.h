/* The random numbers of the C searches (xorshift64): `rs` is the state, which each search
 * seeds from its seed, so a run repeats. */
static unsigned long long rs;
static inline unsigned long long rnd(void) {
    rs ^= rs << 13; rs ^= rs >> 7; rs ^= rs << 17; return rs;
}
static inline int rint_(int n) { return (int)(rnd() % (unsigned long long)n); }
static inline double rdbl(void) { return (rnd() >> 11) * (1.0 / 9007199254740992.0); }
