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
//! kept up to date would cost every waiting state its memory. Its storage is one per thread, emptied
//! and refilled by each query: the graph holds term ids and the constants' values, not terms, and a
//! query allocates nothing once the buffers have grown (a graph of maps and vectors per query was
//! millions of allocations in an exploration).

use rustc_hash::FxHashMap;
use std::cell::RefCell;
use symex_expr::{Op, Sort, Term};

use super::bounds::encode;

/// One of the two total orders of bit-vectors.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Order {
    Unsigned,
    Signed,
}

const ORDERS: [Order; 2] = [Order::Unsigned, Order::Signed];

/// `lo < hi` (strict) or `lo <= hi` between two nodes of the graph, in one order or (an equality's
/// halves) in both.
#[derive(Clone, Copy, Debug)]
struct Atom {
    order: Option<Order>,
    lo: usize,
    hi: usize,
    strict: bool,
}

impl Atom {
    fn holds_in(&self, o: Order) -> bool {
        self.order.is_none_or(|a| a == o)
    }
}

/// An edge `from → to`: `from < to` (strict) or `from <= to`, in `order` or in both.
#[derive(Clone, Copy)]
struct Edge {
    from: usize,
    to: usize,
    strict: bool,
    order: Option<Order>,
}

/// The terms compared (by id, with the width and value of the constants among them) and the
/// comparisons between them, with the buffers of the searches; emptied by [`Graph::clear`], keeping
/// its storage for the next query.
#[derive(Default)]
struct Graph {
    node: FxHashMap<u64, usize>,
    /// Each node's width and, for a constant, its value.
    nodes: Vec<(u32, Option<u128>)>,
    /// The atoms of the path condition, then those of the condition asked about from `wanted_from` on.
    atoms: Vec<Atom>,
    /// Edges sorted by their origin once built; a node's are `edges[first[n]..first[n + 1]]`.
    edges: Vec<Edge>,
    first: Vec<usize>,
    consts: Vec<(u32, u128, usize)>,
    seen: Vec<[bool; 2]>,
    stack: Vec<(usize, bool)>,
}

thread_local! {
    static GRAPH: RefCell<Graph> = RefCell::default();
}

impl Graph {
    fn clear(&mut self) {
        self.node.clear();
        self.nodes.clear();
        self.atoms.clear();
        self.edges.clear();
    }

    fn node(&mut self, t: &Term) -> usize {
        if let Some(&n) = self.node.get(&t.id()) {
            return n;
        }
        let n = self.nodes.len();
        self.node.insert(t.id(), n);
        self.nodes.push((t.width(), t.as_bv()));
        n
    }

    fn atom(&mut self, order: Option<Order>, lo: &Term, hi: &Term, strict: bool) {
        let (lo, hi) = (self.node(lo), self.node(hi));
        self.atoms.push(Atom {
            order,
            lo,
            hi,
            strict,
        });
    }

    /// Adds the order atoms `c` states (a conjunction's, one by one); none for any other constraint,
    /// which is then left out (dropping conjuncts only weakens the path condition).
    fn atoms(&mut self, c: &Term) {
        let (cmp, negated) = match c.op() {
            Op::Not => (c.arg(0), true),
            _ => (c, false),
        };
        let (order, strict) = match cmp.op() {
            Op::And if !negated => {
                for a in c.args() {
                    self.atoms(a);
                }
                return;
            }
            Op::Eq if !negated && matches!(cmp.arg(0).sort(), Sort::BitVec(_)) => {
                let (a, b) = (cmp.arg(0), cmp.arg(1));
                self.atom(None, a, b, false);
                self.atom(None, b, a, false);
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
        self.atom(Some(order), lo, hi, strict);
    }

    /// The edges of the atoms and between the constants, grouped by origin.
    fn build(&mut self) {
        let Graph { atoms, edges, .. } = self;
        edges.extend(atoms.iter().map(|a| Edge {
            from: a.lo,
            to: a.hi,
            strict: a.strict,
            order: a.order,
        }));
        self.order_constants();
        self.edges.sort_unstable_by_key(|e| e.from);
        self.first.clear();
        let mut e = 0;
        for n in 0..=self.nodes.len() {
            while e < self.edges.len() && self.edges[e].from < n {
                e += 1;
            }
            self.first.push(e);
        }
    }

    /// Edges between the constants of each width, in each order: consecutive values, strictly.
    fn order_constants(&mut self) {
        for o in ORDERS {
            self.consts.clear();
            self.consts.extend(
                self.nodes
                    .iter()
                    .enumerate()
                    .filter_map(|(n, &(w, v))| Some((w, encode(v?, w, o == Order::Signed), n))),
            );
            if self.consts.len() < 2 {
                return;
            }
            self.consts.sort_unstable();
            for pair in self.consts.windows(2) {
                let ((w1, _, a), (w2, _, b)) = (pair[0], pair[1]);
                if w1 == w2 {
                    // Equal terms are one node, so two constants of one width differ.
                    self.edges.push(Edge {
                        from: a,
                        to: b,
                        strict: true,
                        order: Some(o),
                    });
                }
            }
        }
    }

    /// Whether a path `from ⇝ to` in order `o` exists, and one with a strict edge when `strict`.
    fn path(&mut self, from: usize, to: usize, o: Order, strict: bool) -> bool {
        // States (node, whether a strict edge was passed), each visited once.
        self.seen.clear();
        self.seen.resize(self.nodes.len(), [false; 2]);
        self.stack.clear();
        self.stack.push((from, false));
        self.seen[from][0] = true;
        while let Some((n, s)) = self.stack.pop() {
            if n == to && (s || !strict) {
                return true;
            }
            for e in &self.edges[self.first[n]..self.first[n + 1]] {
                if !e.order.is_none_or(|x| x == o) {
                    continue;
                }
                let s2 = s || e.strict;
                if !self.seen[e.to][s2 as usize] {
                    self.seen[e.to][s2 as usize] = true;
                    self.stack.push((e.to, s2));
                }
            }
        }
        false
    }

    /// Whether atom `a` closes a cycle through a strict edge, in an order it holds in.
    fn closes_cycle(&mut self, a: Atom) -> bool {
        ORDERS
            .iter()
            .any(|&o| a.holds_in(o) && self.path(a.hi, a.lo, o, !a.strict))
    }
}

/// Whether the comparisons among `pc` make `c` false: `pc ∧ c` is then unsatisfiable. `false` says
/// nothing (ask the solver).
pub(super) fn contradicts<'a>(pc: impl Iterator<Item = &'a Term>, c: &Term) -> bool {
    GRAPH.with(|g| {
        let mut g = g.borrow_mut();
        g.clear();
        contradicts_in(&mut g, pc, c)
    })
}

fn contradicts_in<'a>(g: &mut Graph, pc: impl Iterator<Item = &'a Term>, c: &Term) -> bool {
    g.atoms(c);
    let wanted = g.atoms.len();
    // A disequality contradicts `a <= b ∧ b <= a`.
    let distinct = match c.op() {
        Op::Not
            if c.arg(0).op() == &Op::Eq && matches!(c.arg(0).arg(0).sort(), Sort::BitVec(_)) =>
        {
            Some((g.node(c.arg(0).arg(0)), g.node(c.arg(0).arg(1))))
        }
        _ => None,
    };
    if wanted == 0 && distinct.is_none() {
        return false;
    }
    for k in pc {
        g.atoms(k);
    }
    if g.atoms.len() == wanted {
        return false;
    }
    g.build();
    // A cycle through a strict edge must pass one of `c`'s atoms (the path condition alone has a model).
    if (0..wanted).any(|i| {
        let a = g.atoms[i];
        g.closes_cycle(a)
    }) {
        return true;
    }
    distinct.is_some_and(|(a, b)| {
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
