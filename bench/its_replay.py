#!/usr/bin/env python3
"""Replays one run of a KoAT file with bench/its_check.py's own parser, to show runs of every
length from one start state (a file with no finite bound).

From the start state (`--start A=1,B=1`; unnamed variables 0), each step takes the first rule in
file order whose guard holds — or first the rules going to the location `--prefer` names for the
current one (`f23=f21,f19=f16`) —, with temporaries from a Z3 model of the guard (values in the
smallest box of -w..w, w = 0, 1, 2, 10, that has one; `--temp f26:N2=10` fixes one), and every
guard evaluated again on the chosen values. Prints the steps taken for each `--steps` limit and how
the run ended: `limit` (still running), `stopped at L`, or `state repeats` (a cycle: the run can go
on forever; only without `--no-cycle`).

    bench/its_replay.py FILE.koat --start D=1 --steps 10,100,1000 [--prefer L=M,...] [--temp L:X=v]
"""
import argparse
import importlib.util
import os
import sys

import z3

_spec = importlib.util.spec_from_file_location(
    "its_check", os.path.join(os.path.dirname(os.path.abspath(__file__)), "its_check.py"))
ic = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(ic)


def temps_for(rule, env, fixed):
    """Values of the rule's temporaries satisfying its guard in `env`, or None."""
    zv = {t: z3.Int(t) for t in rule.temps}
    e = dict(env)
    e.update(zv)
    s = z3.Solver()
    s.set("timeout", 5000)
    for g in rule.guard:
        c = eval(g, {}, e)
        if isinstance(c, bool):
            if not c:
                return None
        else:
            s.add(c)
    for w in (0, 1, 2, 10, None):
        s.push()
        for t, v in zv.items():
            if t in fixed:
                s.add(v == fixed[t])
            elif w is not None:
                s.add(v >= -w, v <= w)
        if s.check() == z3.sat:
            m = s.model()
            return {t: m.eval(v, model_completion=True).as_long() for t, v in zv.items()}
        s.pop()
    return None


def replay(its, start_vals, limit, prefer, fixed, stop_on_cycle):
    start, rules = its
    loc, vals, seen = start, None, {}
    for steps in range(limit):
        cands = [r for r in rules if r.src == loc]
        cands = [r for r in cands if r.dsts[0][0] == prefer.get(loc)] + cands
        if vals is None:
            vals = [start_vals.get(a, 0) for a in cands[0].src_args]
        for r in cands:
            env = dict(zip(r.src_args, vals))
            tv = temps_for(r, env, fixed.get(loc, {})) if r.temps else {}
            if tv is None:
                continue
            env.update(tv)
            if all(eval(g, {}, env) is True for g in r.guard):
                loc, vals = r.dsts[0][0], [eval(x, {}, env) for x in r.dsts[0][1]]
                break
        else:
            return steps, f"stopped at {loc}"
        key = (loc, tuple(vals))
        if stop_on_cycle and key in seen:
            return steps + 1, f"state repeats: after step {seen[key]} and step {steps + 1} at {loc}"
        seen[key] = steps + 1
    return limit, "limit"


def pairs(text, sep=","):
    return [p.split("=", 1) for p in text.split(sep) if p]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("file")
    ap.add_argument("--start", default="")
    ap.add_argument("--steps", default="10,100,1000")
    ap.add_argument("--prefer", default="")
    ap.add_argument("--temp", action="append", default=[])
    ap.add_argument("--no-cycle", action="store_true")
    a = ap.parse_args()
    its = ic.parse(open(a.file).read())
    start = {k: int(v) for k, v in pairs(a.start)}
    prefer = dict(pairs(a.prefer))
    fixed = {}
    for t in a.temp:
        loc, rest = t.split(":", 1)
        fixed.setdefault(loc, {}).update({k: int(v) for k, v in pairs(rest)})
    for n in [int(x) for x in a.steps.split(",")]:
        steps, how = replay(its, start, n, prefer, fixed, not a.no_cycle)
        print(f"{os.path.basename(a.file)}\tlimit {n}\t{steps} steps\t{how}", flush=True)


if __name__ == "__main__":
    sys.exit(main())
