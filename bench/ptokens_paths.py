#!/usr/bin/env python3
"""How many paths ptokens.c has, counted without symex: the ground for the path column of klee-table.sh.

    python3 bench/ptokens_paths.py

A separately written model of ../shared/bench/ptokens.c as clang -O0 compiles it (the flags of the bench
README): every comparison of an `&&`, `||`, `if` or `while` condition is a branch on its own. Byte values
that agree on every comparison the program makes take the same branches, so one value per class stands for
all 256; a path is a distinct sequence of branch outcomes, and the bytes after the first zero are never
read. Enumerating the class strings up to their first zero therefore covers all 256^5 inputs, and the
number of distinct outcome sequences is the number of feasible paths an exhaustive exploration must
complete. A second count treats `c >= '0' && c <= '9'` as one branch (a range test), to show which program
KLEE's figure fits.
"""
import itertools

LOWER, UPPER, DIGIT = (97, 122), (65, 90), (48, 57)
UNDERSCORE, OPERATORS = 95, (43, 45, 42, 61)  # '_', then '+', '-', '*', '='


def comparisons(c):
    """Every comparison ptokens.c makes of a character (signed, as `char` is on x86-64)."""
    return (c >= LOWER[0], c <= LOWER[1], c >= UPPER[0], c <= UPPER[1], c == UNDERSCORE,
            c >= DIGIT[0], c <= DIGIT[1], c != 0) + tuple(c == o for o in OPERATORS)


def byte_classes():
    """One representative (signed) value per class of bytes that agree on every comparison."""
    reps = {}
    for b in range(256):
        c = b - 256 if b >= 128 else b
        reps.setdefault(comparisons(c), c)
    return sorted(reps.values())


def trace(s, digit_as_range):
    """The branch outcomes of one run of main() on the 6 bytes `s` (s[5] is 0)."""
    out = []

    # The outcomes alone name the path: the program is deterministic, so the branch each outcome belongs
    # to follows from the outcomes before it.
    def branch(_site, outcome):
        out.append("1" if outcome else "0")
        return outcome

    def within(site, c, lo_hi, as_range=False):
        lo, hi = lo_hi
        if as_range:
            return branch(site, lo <= c <= hi)
        return branch((site, "lo"), c >= lo) and branch((site, "hi"), c <= hi)

    def is_alpha(site, c):
        return (within((site, "a"), c, LOWER) or within((site, "A"), c, UPPER)
                or branch((site, "_"), c == UNDERSCORE))

    def is_digit(site, c):
        return within((site, "0"), c, DIGIT, digit_as_range)

    ids = nums = ops = i = 0
    while branch("while", s[i] != 0):
        if branch("if-alpha", is_alpha("head", s[i])):
            ids += 1
            while branch("while-alnum", is_alpha("alnum", s[i]) or is_digit("alnum", s[i])):
                i += 1
        elif branch("if-digit", is_digit("head", s[i])):
            nums += 1
            while branch("while-digit", is_digit("digits", s[i])):
                i += 1
        else:
            if any(branch(("op", o), s[i] == o) for o in OPERATORS):
                ops += 1
            i += 1
    branch("error", ids == 2 and nums == 1 and ops == 2)
    return "".join(out)


def paths(digit_as_range=False):
    nonzero = [c for c in byte_classes() if c != 0]
    seen = set()
    for n in range(6):
        for prefix in itertools.product(nonzero, repeat=n):
            seen.add(trace(list(prefix) + [0] * (6 - n), digit_as_range))
    return len(seen), len(nonzero)


if __name__ == "__main__":
    n, k = paths()
    print(f"ptokens.c at -O0: {k} classes of non-zero bytes, {n} feasible paths "
          f"(= sum of {k}^L for L = 0..5: {sum(k ** L for L in range(6))})")
    n, _ = paths(digit_as_range=True)
    print(f"with `c >= '0' && c <= '9'` as one branch: {n} paths "
          f"(sum of {k - 1}^L: {sum((k - 1) ** L for L in range(6))}; KLEE's README: 177156)")
