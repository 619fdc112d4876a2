#!/usr/bin/env python3
"""How many feasible paths ../shared/bench/ptokens.c has at -O0, by brute force.

Every branch of ptokens.c compares one input byte with constants, so bytes fall into classes that no branch
tells apart; running the program (transcribed below with clang's -O0 short-circuit branches) on one
representative per class, for every combination of the 5 bytes, and counting the distinct branch
sequences gives the number of paths a complete symbolic exploration must find. It prints 271453; KLEE's
README figure (177,156) is lower, so KLEE's count cannot be the number of feasible -O0 paths.
usage: python3 bench/ptokens_paths.py
"""
import itertools

# One byte per class of values the comparisons below do not distinguish (char is signed: 128..255 are
# negative and behave like 1..41).
REPRESENTATIVES = [0, 1, 42, 43, 44, 45, 46, 48, 58, 61, 62, 65, 91, 95, 96, 97, 123]


def run(s):
    trace = []

    def br(c):
        trace.append(c)
        return c

    def is_alpha(c):
        if br(c >= ord('a')) and br(c <= ord('z')):
            return True
        if br(c >= ord('A')) and br(c <= ord('Z')):
            return True
        return br(c == ord('_'))

    def is_digit(c):
        return br(c >= ord('0')) and br(c <= ord('9'))

    ids = nums = ops = i = 0
    while br(s[i] != 0):
        if is_alpha(s[i]):
            ids += 1
            while is_alpha(s[i]) or is_digit(s[i]):
                i += 1
        elif is_digit(s[i]):
            nums += 1
            while is_digit(s[i]):
                i += 1
        elif br(s[i] == ord('+')) or br(s[i] == ord('-')) or br(s[i] == ord('*')) or br(s[i] == ord('=')):
            ops += 1
            i += 1
        else:
            i += 1
    return tuple(trace)


paths = {run(list(bytes5) + [0]) for bytes5 in itertools.product(REPRESENTATIVES, repeat=5)}
print(len(paths))
