#!/usr/bin/env python3
"""Re-checks the runtime bounds `symex its` claims with an interpreter of its own.

symex's soundness test (`crates/symex-its/tests/soundness.rs`) runs its bounds on symex's own
interpreter, which shares symex's KoAT parser and ITS data structure with the provers: a bug in
that shared part (a guard atom dropped, an argument mapped to the wrong variable) would fool both.
This script shares nothing with symex but the file and the printed bound: it parses the KoAT file
itself, runs the ITS from random small start values (temporaries chosen by Z3 inside a random box,
else by any model; among enabled transitions one at random), counts one unit of cost per step and
asserts that no run's cost exceeds the bound `symex its --json` printed, evaluated at those start
values. Lower bounds are re-checked by bounded model checking on the file: an unbounded runtime
(`NON_POLY`) by runs of 10 and 100 steps from the witness's start state (for a recursive file by
complete binary trees of growing depth; where Z3 does not decide the unrolling of a large system, by a
concrete run of that length found by a depth-first search over the file's rules), a linear one
(`Omega(n^1)`) by runs of L steps from the witness's start states of size linear in L, L = 5, 10, 20,
a constant one (`Omega(1)`) by a first step from the witness's start state.

    bench/its_check.py [--runs N] [--range K] [--limit S] FILE.koat ...
    SYMEX=path/to/symex bench/its_check.py ...        (default target/release/symex)

Needs Python 3 and the `z3-solver` package (pip install z3-solver). Prints one line per file
(`ok`, `VIOLATED`, `no bound`, `skipped: why`) and a summary; exit status 1 if any bound is
violated.
"""
import argparse
import json
import os
import random
import re
import subprocess
import sys

try:
    import z3
except ImportError:
    sys.exit("its_check.py needs the z3-solver package: pip install z3-solver")

# Exponential bounds print integers of many thousand digits.
if hasattr(sys, "set_int_max_str_digits"):
    sys.set_int_max_str_digits(0)

IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_'.]*")


class Rule:
    def __init__(self, src, src_args, dsts, guard):
        self.src = src
        self.src_args = src_args  # parameter names, bound by position
        self.dsts = dsts  # (location, python expressions) per target: Com_k has k of them
        self.guard = guard  # list of python comparisons
        names = set()
        for e in [a for _, args in dsts for a in args] + guard:
            names.update(IDENT.findall(e))
        self.temps = sorted(names - set(src_args))


def split_top(s, sep=","):
    """Splits at `sep` outside parentheses."""
    out, depth, cur = [], 0, ""
    for ch in s:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        if ch == sep and depth == 0:
            out.append(cur)
            cur = ""
        else:
            cur += ch
    out.append(cur)
    return [x.strip() for x in out]


def to_python(expr):
    """KoAT arithmetic to a Python expression (`^` is a power, `=` an equality)."""
    expr = expr.replace("^", "**")
    expr = re.sub(r"(?<![<>!=])=(?!=)", "==", expr)
    return expr


def call(term):
    m = re.fullmatch(r"\s*([^\s(]+)\s*\((.*)\)\s*", term)
    if not m:
        raise ValueError(f"not a function term: {term!r}")
    args = split_top(m.group(2)) if m.group(2).strip() else []
    return m.group(1), args


def parse(text):
    m = re.search(r"\(STARTTERM\s*\(FUNCTIONSYMBOLS\s+([^\s)]+)\s*\)\s*\)", text)
    if not m:
        raise ValueError("no STARTTERM")
    start = m.group(1)
    body = text[text.index("(RULES") + len("(RULES"):]
    body = body[: body.rindex(")")]
    rules = []
    for line in body.splitlines():
        line = line.strip()
        if not line:
            continue
        lhs, rest = line.split("->", 1)
        if ":|:" in rest:
            rhs, guard = rest.split(":|:", 1)
        else:
            rhs, guard = rest, "TRUE"
        rhs = rhs.strip()
        m = re.fullmatch(r"Com_(\d+)\((.*)\)", rhs)
        calls = split_top(m.group(2)) if m else [rhs]
        if m and len(calls) != int(m.group(1)):
            raise ValueError(f"Com_{m.group(1)} with {len(calls)} calls")
        src, src_args = call(lhs)
        dsts = []
        for c in calls:
            dst, dst_args = call(c.strip())
            dsts.append((dst, [to_python(a) for a in dst_args]))
        atoms = []
        for atom in re.split(r"&&|/\\", guard):
            atom = atom.strip()
            if atom and atom != "TRUE":
                atoms.append(to_python(atom))
        rules.append(Rule(src, src_args, dsts, atoms))
    return start, rules


def choose_temps(rule, env, rng, spread=20):
    """Values of the temporaries that satisfy the guard in `env`, or None: inside a random box
    around a centre within `spread` of 0 first."""
    zenv = dict(env)
    zvars = {t: z3.Int(t) for t in rule.temps}
    zenv.update(zvars)
    s = z3.Solver()
    s.set("timeout", 2000)
    for g in rule.guard:
        c = eval(g, {}, zenv)
        if isinstance(c, bool):
            if not c:
                return None
        else:
            s.add(c)
    for width in (rng.choice([2, 10, 50]), None):
        s.push()
        if width is not None:
            for v in zvars.values():
                centre = rng.randint(-spread, spread)
                s.add(v >= centre - width, v <= centre + width)
        r = s.check()
        if r == z3.sat:
            model = s.model()
            vals = {t: model.eval(v, model_completion=True).as_long() for t, v in zvars.items()}
            s.pop()
            return vals
        s.pop()
    return None


def step(rules_at, state, rng):
    """One use of a rule at (location, values): the children (one per target of a Com_k), or
    None when no rule is enabled."""
    loc, vals = state
    candidates = list(rules_at.get(loc, []))
    rng.shuffle(candidates)
    for rule in candidates:
        if len(rule.src_args) != len(vals):
            raise ValueError(f"{loc}: arity {len(rule.src_args)} vs {len(vals)}")
        env = dict(zip(rule.src_args, vals))
        if rule.temps:
            t = choose_temps(rule, env, rng)
            if t is None:
                continue
            env.update(t)
        elif not all(eval(g, {}, env) for g in rule.guard):
            continue
        return [(dst, [eval(e, {}, env) for e in args]) for dst, args in rule.dsts]
    return None


# The Termination Competition's first-line grammar: WORST_CASE(L, U) with
# L -> ? | Omega(n^Nat) | NON_POLY and U -> ? | O(1) | O(n^Nat) | POLY.
_NAT = r"(0|[1-9][0-9]*)"
GRAMMAR = re.compile(r"^(YES|NO|MAYBE|WORST_CASE\((\?|Omega\(1\)|Omega\(n\^" + _NAT + r"\)|NON_POLY), "
                     r"(\?|O\(1\)|O\(n\^" + _NAT + r"\)|POLY)\))$")


def bound_value(expr, names, vals):
    py = re.sub(r"\|([^|]+)\|", r"abs(\1)", expr).replace("^", "**")
    return eval(py, {"abs": abs}, dict(zip(names, vals)))


def check_file(path, symex, runs, krange, limit, rng):
    try:
        out = subprocess.run([symex, "its", "--json", "--max-time", str(limit), path],
                             capture_output=True, text=True, timeout=limit + 10)
        answer = json.loads(out.stdout)
    except (subprocess.TimeoutExpired, json.JSONDecodeError):
        return "no bound", ""
    first = answer.get("answer")
    if first is not None and not GRAMMAR.match(first):
        return "VIOLATED", f"first line `{first}` is outside the competition's grammar"
    if answer.get("lower_bound") == "INF":
        return check_unbounded(parse(open(path).read()), answer)
    if answer.get("lower_bound") == "NON_POLY":
        return check_tree_lower(parse(open(path).read()), answer)
    expr = answer.get("expression")
    if not expr:
        return "no bound", ""
    its = parse(open(path).read())
    lower = ""
    if answer.get("lower_bound") == "1":
        given = answer.get("lower_witness", {}).get("start", {})
        verdict, reached = runs_of(its, given, (1,), unnamed_free=False)
        if verdict != "ok":
            return verdict, f"Omega(1) claimed, but from {given}: {reached}"
        lower = "; Omega(1) re-checked"
    if answer.get("lower_bound") == "n^1":
        verdict, detail = check_linear_lower(its, answer)
        if verdict != "ok":
            return verdict, detail
        lower = "; Omega(n^1) re-checked"
    if answer.get("lower_bound") == "n^2":
        verdict, detail = check_quadratic_lower(its, answer)
        if verdict != "ok":
            return verdict, detail
        lower = "; Omega(n^2) re-checked"
    start, rules = its
    rules_at = {}
    for r in rules:
        rules_at.setdefault(r.src, []).append(r)
    starts = rules_at.get(start)
    if not starts:
        return "ok", f"{expr}: no rule leaves the start location"
    names = starts[0].src_args
    worst = (0, 0)
    for _ in range(runs):
        vals = [rng.randint(-krange, krange) for _ in names]
        bound = bound_value(expr, names, vals)
        cap = min(bound + 1, 20000)
        # A run is a tree when a rule has several targets (recursion): its cost counts every use.
        work, cost = [(start, vals)], 0
        while work and cost < cap:
            children = step(rules_at, work.pop(), rng)
            if children is None:
                continue
            cost += 1
            work.extend(children)
        if cost > bound:
            return "VIOLATED", f"{expr} = {bound} at {dict(zip(names, vals))}, a run cost {cost}"
        if bound > 0 and cost * worst[1] >= worst[0] * bound:
            worst = (cost, bound)
    return "ok", f"{expr}; the costliest run used {worst[0]} of {worst[1]}{lower}"


# The run lengths at which an unbounded-runtime claim is re-checked.
UNBOUNDED_LENGTHS = (10, 100)


def check_unbounded(its, answer):
    """Re-checks `WORST_CASE(NON_POLY, ?)` on the original file by bounded model checking.

    symex's witness refers to its preprocessed ITS (chained, sliced, with invariants); this
    check uses only the file and the witness's start values: Z3 decides whether the original
    ITS has a run of N steps (cost N) from that start state, for each N of
    UNBOUNDED_LENGTHS (variables the witness does not name, e.g. sliced ones, are free). A
    wrong claim — a preprocessing step or a witness that invents a cycle — leaves runs that
    stop early. It samples two lengths, so it can refute a claim but not prove one.
    """
    given = answer.get("witness", {}).get("start", {})
    verdict, reached = runs_of(its, given, UNBOUNDED_LENGTHS, unnamed_free=True)
    if verdict != "ok":
        return verdict, f"unbounded claimed ({answer.get('unbounded_by')}): {reached}"
    return "ok", f"unbounded ({answer.get('unbounded_by')}): runs of {reached} steps from {given}"


# The numbers of laps at which a linear lower bound's family is re-checked.
LINEAR_LAPS = (5, 10, 20)


def check_linear_lower(its, answer):
    """Re-checks the `Omega(n^1)` side of a first line on the original file.

    The witness names start values and one variable whose start value is `scale*(L + shift)`;
    for each L of LINEAR_LAPS, Z3 decides whether the original ITS has a run of L steps (cost L)
    from that start state, every variable the witness does not name set to 0, so that the start
    states' size grows linearly in L while the runs reach length L. Like check_unbounded, it can
    refute a claim but not prove one.
    """
    w = answer.get("lower_witness", {})
    par = w.get("parameter", {})
    try:
        scale, shift, var = int(par["scale"]), int(par["shift"]), par["variable"]
    except (KeyError, ValueError):
        return "VIOLATED", f"a lower bound without a readable family: {w}"
    for laps in LINEAR_LAPS:
        given = dict(w.get("start", {}))
        given[var] = str(scale * (laps + shift))
        verdict, reached = runs_of(its, given, (laps,), unnamed_free=False)
        if verdict != "ok":
            return verdict, f"Omega(n^1) claimed, but from {given}: {reached}"
    return "ok", f"Omega(n^1): runs of {list(LINEAR_LAPS)} steps from starts of linear size ({var} = {scale}*(L + {shift}))"


# The numbers of outer laps at which a quadratic lower bound's family is re-checked.
QUADRATIC_LAPS = (2, 3, 4)


def check_quadratic_lower(its, answer):
    """Re-checks the `Omega(n^2)` side of a first line on the original file.

    The witness gives every start value as `scale*L + offset` and twice the claimed least cost of
    the runs from that state as a polynomial `c0 + c1*L + c2*L^2` with c2 > 0: the start states'
    size grows linearly in L and the runs' length quadratically. For each L of QUADRATIC_LAPS,
    Z3 decides whether the original ITS has a run of that many steps from that start state (as
    check_linear_lower does; it can refute a claim, not prove one).
    """
    w = answer.get("lower_witness", {})
    try:
        start = {n: (int(a), int(b)) for n, (a, b) in w["start_affine"].items()}
        c0, c1, c2 = (int(c) for c in w["twice_min_cost"])
    except (KeyError, ValueError, TypeError):
        return "VIOLATED", f"a quadratic lower bound without a readable family: {w}"
    if c2 <= 0:
        return "VIOLATED", f"Omega(n^2) claimed with a cost of degree < 2: {w['twice_min_cost']}"
    for laps in QUADRATIC_LAPS:
        given = {n: str(a * laps + b) for n, (a, b) in start.items()}
        steps = max(1, -(-(c0 + c1 * laps + c2 * laps * laps) // 2))
        verdict, reached = runs_of(its, given, (steps,), unnamed_free=False)
        if verdict != "ok":
            return verdict, f"Omega(n^2) claimed, but from {given} (L = {laps}): {reached}"
    return "ok", f"Omega(n^2): runs of (c0 + c1*L + c2*L^2)/2 steps for L in {list(QUADRATIC_LAPS)} from starts of linear size"


# The depths at which an exponential lower bound's complete trees are built again.
TREE_DEPTHS = (4, 8, 11)


def check_tree_lower(its, answer):
    """Re-checks `WORST_CASE(NON_POLY, ?)` of a recursive file from its complete binary trees.

    The witness names start values with one variable `scale*(L + shift)`, a path of (rule,
    target) pairs of the file, then the recursive rule, the values of its temporaries and two of
    its targets. For each L of TREE_DEPTHS the path is taken, then the tree is built node by
    node: every node at depth < L uses the recursive rule (its guard must hold) and has a child
    per named target. A claim holds when the tree has at least 2^L - 1 nodes: with start values
    of size linear in L, no polynomial bounds the cost.
    """
    start, rules = its
    w = answer.get("tree_witness", {})
    try:
        par = w["parameter"]
        scale, shift, var = int(par["scale"]), int(par["shift"]), par["variable"]
        rule = rules[int(w["transition"])]
        twins = [int(k) for k in w["twins"]]
        temps = {n: int(v) for n, v in w.get("temps", {}).items()}
        path = [(rules[int(i)], int(k)) for i, k in w["path_origin"]]
    except (KeyError, ValueError, IndexError, TypeError):
        return "VIOLATED", f"NON_POLY claimed without a readable tree family: {w}"
    names = [r for r in rules if r.src == start][0].src_args
    for depth in TREE_DEPTHS:
        env = {n: int(w.get("start", {}).get(n, 0)) for n in names}
        env[var] = scale * (depth + shift)
        loc, vals = start, [env[n] for n in names]
        for r, k in path:
            e = dict(zip(r.src_args, vals))
            t = choose_temps(r, e, random.Random(depth))
            if r.src != loc or t is None:
                return "VIOLATED", f"NON_POLY claimed, but the path is blocked at {loc}{vals}"
            e.update(t)
            loc, vals = r.dsts[k][0], [eval(x, {}, e) for x in r.dsts[k][1]]
        nodes, work = 0, [(vals, 0)]
        while work:
            vals, level = work.pop()
            if level == depth:
                continue
            e = dict(zip(rule.src_args, vals))
            e.update(temps)
            if rule.src != loc or not all(eval(g, {}, e) for g in rule.guard):
                return "VIOLATED", f"NON_POLY claimed, but the rule is disabled at depth {level}: {vals}"
            nodes += 1
            work.extend(([eval(x, {}, e) for x in rule.dsts[k][1]], level + 1) for k in twins
                        if rule.dsts[k][0] == loc)
        if nodes < 2 ** depth - 1:
            return "VIOLATED", f"NON_POLY claimed, but the tree of depth {depth} has {nodes} nodes"
    return "ok", f"NON_POLY: complete binary trees of depths {list(TREE_DEPTHS)} from starts of linear size ({var} = {scale}*(L + {shift}))"


def runs_of(its, given, lengths, unnamed_free):
    """Whether the parsed ITS `its` (start, rules) has runs of each length of `lengths` from the
    start state whose variables `given` names (the others free, or 0 when not `unnamed_free`):
    ("ok", lengths reached), ("VIOLATED", why) on a length no run reaches, ("unconfirmed", why)
    when Z3 does not decide."""
    start, rules = its
    locs = sorted({r.src for r in rules} | {d for r in rules for d, _ in r.dsts})
    index = {l: i for i, l in enumerate(locs)}
    width = max(max([len(r.src_args)] + [len(a) for _, a in r.dsts]) for r in rules)
    starts = [r for r in rules if r.src == start]
    if not starts:
        return "VIOLATED", "no rule leaves the start location"
    names = starts[0].src_args
    solver = z3.Solver()
    solver.set("timeout", 30000)
    loc = z3.Int("loc_0")
    xs = [z3.Int(f"x_0_{j}") for j in range(width)]
    solver.add(loc == index[start])
    for j, n in enumerate(names):
        if n in given:
            solver.add(xs[j] == int(given[n]))
        elif not unnamed_free:
            solver.add(xs[j] == 0)
    # Locations a run can be at after i steps (the graph's layers): only their rules count.
    layer = {start}
    reached = []
    for i in range(max(lengths)):
        nloc = z3.Int(f"loc_{i + 1}")
        nxs = [z3.Int(f"x_{i + 1}_{j}") for j in range(width)]
        choices = []
        # A branch of a tree follows one target of each rule it uses.
        for k, r in enumerate(rules):
            if r.src not in layer:
                continue
            env = dict(zip(r.src_args, xs))
            env.update({t: z3.Int(f"t_{i}_{k}_{t}") for t in r.temps})
            for dst, args in r.dsts:
                conj = [loc == index[r.src], nloc == index[dst]]
                conj += [eval(g, {}, env) for g in r.guard]
                conj += [nxs[j] == eval(e, {}, env) for j, e in enumerate(args)]
                if any(c is False for c in conj):
                    continue
                choices.append(z3.And([c for c in conj if c is not True]))
        solver.add(z3.Or(choices))
        layer = {d for r in rules if r.src in layer for d, _ in r.dsts}
        loc, xs = nloc, nxs
        if i + 1 in lengths:
            r = solver.check()
            if r == z3.unsat:
                return "VIOLATED", f"no run takes {i + 1} steps (runs of {reached} steps found)"
            if r != z3.sat:
                rest = [n for n in lengths if n >= i + 1]
                if concrete_run(its, given, max(rest), unnamed_free):
                    return "ok", reached + [f"{n} (a concrete run)" for n in rest]
                return "unconfirmed", f"runs of {reached} steps, then Z3: {r}"
            reached.append(i + 1)
    return "ok", reached


# Nodes a concrete search for a long run may expand (a count, not a time).
WALK_NODES = 20000


def concrete_run(its, given, length, unnamed_free):
    """Whether a run of `length` steps from the start state `given` names is found by running
    the file concretely: a depth-first search over the rules enabled at each state (one target
    of each, as runs_of follows a branch), temporaries chosen by Z3 inside random boxes (a few
    choices per rule), within WALK_NODES expanded states. The fallback when Z3 does not decide
    runs_of's unrolling of a large system; a run it finds is a concrete one, so it confirms."""
    start, rules = its
    rules_at = {}
    for r in rules:
        rules_at.setdefault(r.src, []).append(r)
    starts = rules_at.get(start)
    if not starts or length > 500:
        return False
    names = starts[0].src_args
    rng = random.Random(length)
    budget = [WALK_NODES]
    fills = [lambda: 0]
    if unnamed_free:
        fills += [lambda: rng.randint(-10, 10), lambda: rng.randint(0, 100)]

    def moves(loc, vals):
        candidates = list(rules_at.get(loc, []))
        rng.shuffle(candidates)
        for rule in candidates:
            env = dict(zip(rule.src_args, vals))
            choices = [{}]
            if rule.temps:
                # Small values, and large ones: a counter set on the way in counts the laps.
                picks = (choose_temps(rule, env, rng, spread) for spread in (20, 20, 1000))
                choices = [t for t in picks if t is not None]
            elif not all(eval(g, {}, env) for g in rule.guard):
                continue
            for t in choices:
                e = dict(env)
                e.update(t)
                for dst, args in rule.dsts:
                    yield dst, [eval(x, {}, e) for x in args]

    def deep(loc, vals, depth):
        if depth == length:
            return True
        if budget[0] <= 0:
            return False
        budget[0] -= 1
        return any(deep(d, v, depth + 1) for d, v in moves(loc, vals))

    for fill in fills:
        vals = [int(given[n]) if n in given else fill() for n in names]
        if deep(start, vals, 0):
            return True
    return False


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="+")
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--range", type=int, default=8, dest="krange")
    ap.add_argument("--limit", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    symex = os.environ.get("SYMEX", os.path.join(here, "target/release/symex"))
    rng = random.Random(a.seed)
    tally = {}
    for f in a.files:
        try:
            verdict, detail = check_file(f, symex, a.runs, a.krange, a.limit, rng)
        except (ValueError, SyntaxError, z3.Z3Exception) as e:
            verdict, detail = "skipped", str(e)
        tally[verdict] = tally.get(verdict, 0) + 1
        print(f"{verdict}\t{f}\t{detail}", flush=True)
    print("summary: " + ", ".join(f"{k} {v}" for k, v in sorted(tally.items())))
    sys.exit(1 if tally.get("VIOLATED") else 0)


if __name__ == "__main__":
    main()
