//! Order implied between terms by the path condition: its comparisons of two terms (`x <s y`,
//! `¬(y <=u z)`, `x = y`) are the edges of a graph whose nodes are terms, and a condition that would close
//! a cycle through a strict edge contradicts it (x < y ∧ y < z ∧ z <= x is unsatisfiable in any total
//! order, and the signed and unsigned orders of bit-vectors are total). A branch on two inputs already
//! ordered by earlier comparisons (a sort compares each element with the ones before it) is then decided
//! infeasible without the solver. Only unsatisfiability is claimed, and only from a subset of the
//! conjuncts, so the answer is the solver's whenever one is given; constants are nodes too, ordered among
//! themselves by value.
//!
//! The graph is built from the path condition at each query (a few dozen comparisons): a graph per state
//! kept up to date would cost every waiting state its memory.

use rustc_hash::FxHashMap;
use symex_expr::{Op, Sort, Term};

use super::bounds::encode;

/// One of the two total orders of bit-vectors.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Order {
    Unsigned,
    Signed,
}

const ORDERS: [Order; 2] = [Order::Unsigned, Order::Signed];

/// `lo < hi` (strict) or `lo <= hi`, in one order or (an equality's halves) in both.
#[derive(Clone, Debug)]
struct Atom {
    order: Option<Order>,
    lo: Term,
    hi: Term,
    strict: bool,
}

impl Atom {
    fn holds_in(&self, o: Order) -> bool {
        self.order.is_none_or(|a| a == o)
    }
}

/// The order atoms `c` states (a conjunction's, one by one); none for any other constraint, which is
/// then left out (dropping conjuncts only weakens the path condition).
fn atoms(c: &Term, out: &mut Vec<Atom>) {
    let (cmp, negated) = match c.op() {
        Op::Not => (c.arg(0), true),
        _ => (c, false),
    };
    let (order, strict) = match cmp.op() {
        Op::And if !negated => {
            for a in c.args() {
                atoms(a, out);
            }
            return;
        }
        Op::Eq if !negated && matches!(cmp.arg(0).sort(), Sort::BitVec(_)) => {
            let (a, b) = (cmp.arg(0), cmp.arg(1));
            out.push(Atom {
                order: None,
                lo: a.clone(),
                hi: b.clone(),
                strict: false,
            });
            out.push(Atom {
                order: None,
                lo: b.clone(),
                hi: a.clone(),
                strict: false,
            });
            return;
        }
        Op::BvUlt => (Order::Unsigned, true),
        Op::BvUle => (Order::Unsigned, false),
        Op::BvSlt => (Order::Signed, true),
        Op::BvSle => (Order::Signed, false),
        _ => return,
    };
    // ¬(a < b) is b <= a; ¬(a <= b) is b < a.
    let (lo, hi, strict) = if negated {
        (cmp.arg(1), cmp.arg(0), !strict)
    } else {
        (cmp.arg(0), cmp.arg(1), strict)
    };
    out.push(Atom {
        order: Some(order),
        lo: lo.clone(),
        hi: hi.clone(),
        strict,
    });
}

/// An edge `from → to`: `from < to` (strict) or `from <= to`, in `order` or in both.
#[derive(Clone, Copy)]
struct Edge {
    to: usize,
    strict: bool,
    order: Option<Order>,
}

/// The terms compared and the comparisons between them.
#[derive(Default)]
struct Graph {
    node: FxHashMap<u64, usize>,
    terms: Vec<Term>,
    edges: Vec<Vec<Edge>>,
}

impl Graph {
    fn node(&mut self, t: &Term) -> usize {
        if let Some(&n) = self.node.get(&t.id()) {
            return n;
        }
        let n = self.terms.len();
        self.node.insert(t.id(), n);
        self.terms.push(t.clone());
        self.edges.push(Vec::new());
        n
    }

    fn add(&mut self, a: &Atom) {
        let (lo, hi) = (self.node(&a.lo), self.node(&a.hi));
        self.edges[lo].push(Edge {
            to: hi,
            strict: a.strict,
            order: a.order,
        });
    }

    /// Edges between the constants of each width, in each order: consecutive values, strictly.
    fn order_constants(&mut self) {
        let consts: Vec<(usize, u32, u128)> = self
            .terms
            .iter()
            .enumerate()
            .filter_map(|(n, t)| Some((n, t.width(), t.as_bv()?)))
            .collect();
        if consts.len() < 2 {
            return;
        }
        for o in ORDERS {
            let mut sorted: Vec<(u32, u128, usize)> = consts
                .iter()
                .map(|&(n, w, v)| (w, encode(v, w, o == Order::Signed), n))
                .collect();
            sorted.sort_unstable();
            for pair in sorted.windows(2) {
                let ((w1, _, a), (w2, _, b)) = (pair[0], pair[1]);
                if w1 == w2 {
                    // Equal terms are one node, so two constants of one width differ.
                    self.edges[a].push(Edge {
                        to: b,
                        strict: true,
                        order: Some(o),
                    });
                }
            }
        }
    }

    /// Whether a path `from ⇝ to` in order `o` exists, and one with a strict edge when `strict`.
    fn path(&self, from: usize, to: usize, o: Order, strict: bool) -> bool {
        // States (node, whether a strict edge was passed), each visited once.
        let mut seen = vec![[false; 2]; self.terms.len()];
        let mut stack = vec![(from, false)];
        seen[from][0] = true;
        while let Some((n, s)) = stack.pop() {
            if n == to && (s || !strict) {
                return true;
            }
            for e in &self.edges[n] {
                if !e.order.is_none_or(|x| x == o) {
                    continue;
                }
                let s2 = s || e.strict;
                if !seen[e.to][s2 as usize] {
                    seen[e.to][s2 as usize] = true;
                    stack.push((e.to, s2));
                }
            }
        }
        false
    }
}

/// Whether the comparisons among `pc` make `c` false: `pc ∧ c` is then unsatisfiable. `false` says
/// nothing (ask the solver).
pub(super) fn contradicts<'a>(pc: impl Iterator<Item = &'a Term>, c: &Term) -> bool {
    let mut wanted = Vec::new();
    atoms(c, &mut wanted);
    // A disequality contradicts `a <= b ∧ b <= a`.
    let distinct = match c.op() {
        Op::Not
            if c.arg(0).op() == &Op::Eq && matches!(c.arg(0).arg(0).sort(), Sort::BitVec(_)) =>
        {
            Some((c.arg(0).arg(0), c.arg(0).arg(1)))
        }
        _ => None,
    };
    if wanted.is_empty() && distinct.is_none() {
        return false;
    }
    let mut g = Graph::default();
    let mut held = Vec::new();
    for k in pc {
        atoms(k, &mut held);
    }
    if held.is_empty() {
        return false;
    }
    for a in held.iter().chain(&wanted) {
        g.add(a);
    }
    if let Some((a, b)) = distinct {
        g.node(a);
        g.node(b);
    }
    g.order_constants();
    // A cycle through a strict edge must pass one of `c`'s atoms (the path condition alone has a model).
    let closes_cycle = |a: &Atom| {
        let (lo, hi) = (g.node[&a.lo.id()], g.node[&a.hi.id()]);
        ORDERS
            .iter()
            .any(|&o| a.holds_in(o) && g.path(hi, lo, o, !a.strict))
    };
    if wanted.iter().any(closes_cycle) {
        return true;
    }
    distinct.is_some_and(|(a, b)| {
        let (a, b) = (g.node[&a.id()], g.node[&b.id()]);
        ORDERS
            .iter()
            .any(|&o| g.path(a, b, o, false) && g.path(b, a, o, false))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use symex_expr::{Model, Value};

    fn v(name: &str) -> Term {
        Term::var(name, Sort::bv(3))
    }

    #[test]
    fn a_chain_of_strict_comparisons_excludes_its_reverse() {
        let (x, y, z) = (v("x"), v("y"), v("z"));
        let pc = [x.bvslt(&y), y.bvslt(&z)];
        assert!(contradicts(pc.iter(), &z.bvsle(&x)));
        assert!(contradicts(pc.iter(), &x.eq(&z)));
        assert!(!contradicts(pc.iter(), &x.bvslt(&z)));
        // The unsigned order is another one.
        assert!(!contradicts(pc.iter(), &z.bvule(&x)));
    }

    #[test]
    fn non_strict_chains_contradict_only_strict_reverses_and_disequalities() {
        let (x, y) = (v("x"), v("y"));
        // x <=u y ∧ y <=u x.
        let pc = [x.bvule(&y), x.bvult(&y).not()];
        assert!(contradicts(pc.iter(), &y.bvult(&x)));
        assert!(contradicts(pc.iter(), &x.ne(&y)));
        assert!(!contradicts(pc.iter(), &x.bvule(&y)));
    }

    #[test]
    fn constants_are_ordered_by_value() {
        let (x, y) = (v("x"), v("y"));
        let (two, five) = (Term::bv(2, 3), Term::bv(5, 3));
        // x <u 2 ∧ 5 <u y: y <u x is false; in the signed order 5 is -3, below 2.
        let pc = [x.bvult(&two), five.bvult(&y)];
        assert!(contradicts(pc.iter(), &y.bvult(&x)));
        let pc = [x.bvslt(&two), five.bvslt(&y)];
        assert!(!contradicts(pc.iter(), &y.bvslt(&x)));
    }

    /// xorshift64: a number below `n`.
    fn below(seed: &mut u64, n: usize) -> usize {
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        (*seed % n as u64) as usize
    }

    /// A random comparison of two of `terms`, or its negation.
    fn comparison(seed: &mut u64, terms: &[Term]) -> Term {
        let (a, b) = (&terms[below(seed, 5)], &terms[below(seed, 5)]);
        let c = match below(seed, 5) {
            0 => a.bvult(b),
            1 => a.bvule(b),
            2 => a.bvslt(b),
            3 => a.bvsle(b),
            _ => a.eq(b),
        };
        if below(seed, 2) == 0 {
            c.not()
        } else {
            c
        }
    }

    /// Every constraint set of up to four random comparisons among three 3-bit variables and two constants,
    /// checked against enumeration of all 512 assignments: a contradiction found is a real one.
    #[test]
    fn every_contradiction_found_is_one_by_enumeration() {
        let terms = [v("x"), v("y"), v("z"), Term::bv(1, 3), Term::bv(6, 3)];
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut found = 0;
        for _ in 0..3000 {
            let pc: Vec<Term> = (0..1 + below(&mut seed, 4))
                .map(|_| comparison(&mut seed, &terms))
                .collect();
            let c = comparison(&mut seed, &terms);
            if !contradicts(pc.iter(), &c) {
                continue;
            }
            found += 1;
            let all: Vec<Term> = pc.iter().chain([&c]).cloned().collect();
            for bits in 0..512u128 {
                let mut m = Model::new();
                for (i, t) in terms[..3].iter().enumerate() {
                    let value = (bits >> (3 * i)) & 7;
                    m.insert(t, Value::Bv { value, width: 3 });
                }
                assert_ne!(
                    m.satisfies(&all),
                    Ok(true),
                    "{all:?} has a model: {bits:#o}"
                );
            }
        }
        // The check is not vacuous: some sets are contradictions.
        assert!(found > 100, "only {found} contradictions found");
    }
}
