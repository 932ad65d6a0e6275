"""Finite fields of prime-power order, small enough to tabulate.

The transversal designs behind some whist designs (`bot.leagues.transversal`) are lines of the
plane over a field. A field of q = p^n elements is the polynomials over Z_p modulo one of
degree n; an element is numbered by its coefficients in base p (the constant term last), as
`Group((p,) * n)` numbers its elements, so that field addition is that group's addition.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from itertools import product


def prime_power(q: int) -> tuple[int, int] | None:
    """(p, n) with q = p^n for a prime p, or None when q is not a prime power."""
    if q < 2:
        return None
    p = next(d for d in range(2, q + 1) if q % d == 0)  # the least divisor is a prime
    n = 0
    while q % p == 0:
        q //= p
        n += 1
    return (p, n) if q == 1 else None


@dataclass(frozen=True)
class Field:
    """The field of `order` elements: addition and multiplication tables, 0 and 1 numbered
    0 and 1."""

    order: int
    add: tuple[tuple[int, ...], ...]
    times: tuple[tuple[int, ...], ...]


@cache
def field(q: int) -> Field:
    """The field of q elements.

    Raises:
        ValueError: q is not a prime power.
    """
    found = prime_power(q)
    if found is None:
        raise ValueError(f"there is no field of {q} elements ({q} is not a prime power)")
    p, n = found

    def number(coefficients: list[int]) -> int:  # constant term first
        return sum(c * p**i for i, c in enumerate(coefficients))

    def digits(x: int) -> list[int]:
        return [x // p**i % p for i in range(n)]

    add = tuple(
        tuple(
            number([(a + b) % p for a, b in zip(digits(x), digits(y), strict=True)])
            for y in range(q)
        )
        for x in range(q)
    )
    # The powers of t modulo a primitive polynomial run through every non-zero element, so
    # multiplying is adding their exponents.
    powers = _powers_of_a_generator(p, n)
    log = {x: e for e, x in enumerate(powers)}
    times = tuple(
        tuple(0 if 0 in (x, y) else powers[(log[x] + log[y]) % (q - 1)] for y in range(q))
        for x in range(q)
    )
    return Field(q, add, times)


def _powers_of_a_generator(p: int, n: int) -> list[int]:
    """t^0 .. t^(q-2), numbered, for t modulo the first polynomial t^n - (r_(n-1) t^(n-1) + ...
    + r_0) in which t has order q - 1 (so the polynomial is irreducible and t generates)."""
    q = p**n
    for reduction in product(range(p), repeat=n):
        if reduction[0] == 0:
            continue  # t would divide the polynomial
        powers, seen, state = [], set(), [1] + [0] * (n - 1)
        for _ in range(q - 1):
            x = sum(c * p**i for i, c in enumerate(state))
            if x in seen:
                break
            seen.add(x)
            powers.append(x)
            carry = state[-1]
            state = [0, *state[:-1]]
            state = [(c + carry * r) % p for c, r in zip(state, reduction, strict=True)]
        if len(powers) == q - 1 and state == [1] + [0] * (n - 1):
            return powers
    raise AssertionError(f"no primitive polynomial of degree {n} over Z_{p}")  # there always is
