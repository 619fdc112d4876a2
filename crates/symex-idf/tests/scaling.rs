//! What keeps `symex verify` linear, checked by counts (never by time): the path condition's
//! shared lists and indexes answer as a plain list of facts would, the heap's indexes (with
//! the newest changes waiting outside them) answer as indexes updated at every change would,
//! and a list built with explicit `close`s asks the solver the same number of questions
//! whatever its length.
use proptest::prelude::*;
use std::sync::Arc;
use symex_expr::{Op, Sort, Term};
use symex_idf::verify::state::{Chunk, Heap, Map, PathCondition};
use symex_idf::verify::Config;

/// The facts a test draws from: comparisons of a few integer variables, conjunctions of them
/// (assumed part by part), and `false` (a fact without variables).
fn fact(choice: (u8, u8, u8, i8)) -> Term {
    let (kind, a, b, c) = choice;
    let var = |i: u8| Term::var(&format!("x{}", i % 6), Sort::Int);
    let (x, y) = (var(a), var(b));
    match kind % 6 {
        0 => x.ilt(&y),
        1 => x.eq(&Term::int(c as i128)),
        2 => x.ile(&Term::int(c as i128)).and(&y.ige(&Term::int(0))),
        3 => x.iadd(&y).eq(&Term::int(c as i128)),
        4 => Term::ff(),
        _ => x.eq(&y).not(),
    }
}

/// The plain model: the facts in order, each once, conjunctions split.
fn model_assume(model: &mut Vec<Term>, f: Term) {
    if f.is_true() || model.contains(&f) {
        return;
    }
    if let Op::And = f.op() {
        for part in f.args().to_vec() {
            model_assume(model, part);
        }
        return;
    }
    model.push(f);
}

fn vars(t: &Term) -> Vec<Term> {
    let mut out = Vec::new();
    symex_expr::visit::postorder(std::slice::from_ref(t), |x| {
        if let Op::Var(_) = x.op() {
            out.push(x.clone());
        }
    });
    out
}

/// The facts that share a variable with `goal`, directly or through other facts, and the
/// facts without variables, in order: computed to a fixpoint over the whole list.
fn model_slice(model: &[Term], goal: &Term) -> Vec<Term> {
    let mut reached = vars(goal);
    let mut taken = vec![false; model.len()];
    loop {
        let mut changed = false;
        for (i, f) in model.iter().enumerate() {
            let fv = vars(f);
            if !taken[i] && (fv.is_empty() || fv.iter().any(|x| reached.contains(x))) {
                taken[i] = true;
                reached.extend(fv);
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    model
        .iter()
        .zip(taken)
        .filter(|(_, t)| *t)
        .map(|(f, _)| f.clone())
        .collect()
}

proptest! {
    /// Path conditions copied and extended in any order (as a rule's kept state and its
    /// continuation's are) answer `facts`, `contains`, `since` and `slice` as the plain list
    /// of their own facts does.
    #[test]
    fn path_conditions_answer_as_their_list_of_facts(
        steps in prop::collection::vec((0u8..4, 0u8..8, (0u8..6, 0u8..6, 0u8..6, -2i8..3)), 1..120),
    ) {
        let mut pcs = vec![(PathCondition::default(), Vec::new())];
        for (op, which, choice) in steps {
            let i = which as usize % pcs.len();
            if op == 0 {
                let copy = pcs[i].clone();
                pcs.push(copy);
            } else {
                let f = fact(choice);
                pcs[i].0.assume(f.clone());
                model_assume(&mut pcs[i].1, f);
            }
        }
        for (pc, model) in &pcs {
            prop_assert_eq!(&pc.facts(), model);
            prop_assert_eq!(pc.len(), model.len());
            for from in 0..=model.len() {
                prop_assert_eq!(pc.since(from), model[from..].to_vec());
            }
            for a in 0..6u8 {
                for kind in 0..6u8 {
                    let f = fact((kind, a, a + 1, 1));
                    prop_assert_eq!(pc.contains(&f), model.contains(&f), "{:?}", f);
                    prop_assert_eq!(pc.slice(&f), model_slice(model, &f), "{:?}", f);
                }
            }
        }
    }
}

/// A chunk of one of two fields, the array elements or a predicate, for one of four receivers
/// (the first two objects allocated on the path).
fn chunk(kind: u8, r: u8) -> (Chunk, bool) {
    let recv = Term::var(&format!("r{}", r % 4), Sort::uninterpreted("Ref"));
    let value = Term::var("v", Sort::Int);
    let c = match kind % 4 {
        0 => Chunk::Field {
            recv,
            field: Arc::from("C.f"),
            value,
        },
        1 => Chunk::Field {
            recv,
            field: Arc::from("C.g"),
            value,
        },
        2 => Chunk::Elems {
            recv,
            value: Term::var("e", Sort::map(Sort::Int, Sort::Int)),
        },
        _ => Chunk::Pred {
            recv,
            pred: Arc::from("C.p"),
            args: vec![value],
            snap: Term::var("s", Sort::uninterpreted("Snap")),
        },
    };
    (c, r % 4 < 2)
}

fn family(c: &Chunk) -> Option<String> {
    match c {
        Chunk::Field { field, .. } => Some(field.to_string()),
        Chunk::Elems { value, .. } => Some(format!("[elems {:?}]", value.sort())),
        Chunk::Pred { .. } => None,
    }
}

/// The model of a heap: its chunks in order, and the unallocated receivers of each family
/// counted at every change, in a map of the heap's own kind (whose order of iteration the
/// heap's answers keep).
#[derive(Clone, Default)]
struct HeapModel {
    chunks: Vec<Chunk>,
    unallocated: Map<String, Map<u64, (Term, usize)>>,
}

impl HeapModel {
    fn add(&mut self, c: Chunk, allocated: bool) {
        if let (Some(f), false) = (family(&c), allocated) {
            let e = self.unallocated.entry(f).or_default();
            let n = e.get(&c.recv().id()).map_or(0, |x| x.1);
            e.insert(c.recv().id(), (c.recv().clone(), n + 1));
        }
        self.chunks.push(c);
    }

    fn remove(&mut self, i: usize) -> Chunk {
        let c = self.chunks.remove(i);
        if let Some(f) = family(&c) {
            let e = self.unallocated.entry(f).or_default();
            match e.get(&c.recv().id()).map(|x| x.1) {
                Some(n) if n > 1 => {
                    e.insert(c.recv().id(), (c.recv().clone(), n - 1));
                }
                Some(_) => {
                    e.remove(&c.recv().id());
                }
                None => {}
            }
        }
        c
    }

    fn count(&self, c: &Chunk) -> usize {
        self.chunks
            .iter()
            .filter(|d| family(d) == family(c) && d.recv() == c.recv())
            .count()
    }
}

proptest! {
    /// Heaps copied and changed in any order answer whether a receiver has a chunk of a family,
    /// which receivers do, whether a field has chunks and how many predicate chunks a receiver
    /// has as a scan of their chunks does.
    #[test]
    fn heaps_answer_as_their_chunks(
        steps in prop::collection::vec((0u8..5, 0u8..8, 0u8..4, 0u8..4), 1..150),
    ) {
        let mut heaps = vec![(Heap::default(), HeapModel::default())];
        for (op, which, kind, r) in steps {
            let i = which as usize % heaps.len();
            match op {
                0 => {
                    let copy = heaps[i].clone();
                    heaps.push(copy);
                }
                1 | 2 => {
                    let (c, allocated) = chunk(kind, r);
                    heaps[i].0.add(c.clone(), allocated);
                    heaps[i].1.add(c, allocated);
                }
                _ => {
                    let n = heaps[i].1.chunks.len();
                    if n > 0 {
                        let at = (kind as usize * 4 + r as usize) % n;
                        let taken = heaps[i].0.remove(at);
                        prop_assert_eq!(taken, heaps[i].1.remove(at));
                    }
                }
            }
        }
        for (heap, model) in &heaps {
            prop_assert_eq!(heap.iter().cloned().collect::<Vec<_>>(), model.chunks.clone());
            prop_assert_eq!(heap.len(), model.chunks.len());
            for kind in 0..4u8 {
                for r in 0..4u8 {
                    let (c, _) = chunk(kind, r);
                    let n = model.count(&c);
                    if family(&c).is_some() {
                        prop_assert_eq!(heap.has_receiver_like(&c), n > 0);
                        let f = family(&c).unwrap_or_default();
                        let unallocated: Vec<Term> = model
                            .unallocated
                            .get(&f)
                            .map(|m| m.values().map(|(t, _)| t.clone()).collect())
                            .unwrap_or_default();
                        prop_assert_eq!(heap.receivers_like(&c, true), unallocated);
                        let mut all: Vec<Term> = Vec::new();
                        for d in &model.chunks {
                            if family(d) == family(&c) && !all.contains(d.recv()) {
                                all.push(d.recv().clone());
                            }
                        }
                        prop_assert_eq!(heap.receivers_like(&c, false), all);
                    } else {
                        prop_assert_eq!(heap.preds_with_receiver(c.recv()), n);
                    }
                }
            }
            for field in ["C.f", "C.g"] {
                let any = model.chunks.iter().any(|d| family(d).as_deref() == Some(field));
                prop_assert_eq!(heap.has_field(field), any);
            }
        }
    }
}

/// `n` nodes, each closed explicitly: `bench/idf-list.sh`'s program.
fn list(n: usize) -> String {
    let mut s = String::from(
        "class Node {\n  int v; Node next;\n  predicate valid() { return acc(v) * acc(next) * (next != null ? next.valid() : true); }\n}\nmain {\n  Node n0 := new Node; n0.v := 0; close n0.valid();\n",
    );
    for i in 1..n {
        s += &format!(
            "  Node n{i} := new Node; n{i}.v := {i}; n{i}.next := n{}; close n{i}.valid();\n",
            i - 1
        );
    }
    s += &format!(
        "  open n{}.valid();\n  assert n{}.v = {};\n}}\n",
        n - 1,
        n - 1,
        n - 1
    );
    s
}

/// Whether `next != null` can fail at a fresh node's `next` is settled without the solver (Σ
/// holds `next ≠ null`): the queries do not grow with the list (they did, one per node).
#[test]
fn a_list_of_explicit_closes_asks_the_solver_the_same_whatever_its_length() {
    let queries = |n| {
        let report = symex_idf::verify_source(&list(n), Config::default()).expect("checks");
        assert!(report.verified(), "n = {n}: {:?}", report.members);
        report.solver_queries
    };
    let (short, long) = (queries(20), queries(200));
    assert_eq!(short, long, "20 nodes: {short} queries, 200 nodes: {long}");
}
