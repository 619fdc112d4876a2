//! List invariants (issue 12, seed 000): the paper's running example and programs that
//! build, walk, search and free singly linked lists. Every YES is re-run on the reference
//! interpreter for list lengths 0..8 (each run must end without undefined behaviour) and on
//! random inputs; every `ERR` and every non-terminating program is confirmed by a concrete
//! run that hits the bug or runs into the instruction limit.

mod common;
use common::*;
use symex_engine::{End, Program};
use symex_its::Poly;
use symex_term::rules::Semantics;
use symex_term::{its_build, seg, validate, Answer, Report};

/// Runs `main` of the plain build with `n` as the first `__VERIFIER_nondet_uint`.
fn run_len(prog: &Program, n: u32) -> End {
    run_inputs(prog, &[n])
}

/// Runs `main` of the plain build with `ins` as the `__VERIFIER_nondet_uint` values.
fn run_inputs(prog: &Program, ins: &[u32]) -> End {
    let inputs: Vec<(String, u32, i128)> = ins
        .iter()
        .map(|v| ("__VERIFIER_nondet_uint".to_string(), 32, *v as i128))
        .collect();
    run_test(prog, &validate::test_file("main", &inputs), 1_000_000)
}

/// The analysis under the counted budgets of `common::options` (its 600 s are a backstop
/// against a hang). A MAYBE goes on to the search for a non-termination witness, whose concrete
/// runs are bounded by counts of steps and of stored memory cells (a run building a list of
/// 2^32 - 1 nodes used to grow past 20 GB).
fn quick(p: &std::path::Path) -> Report {
    symex_term::analyse(&load(p, true), &options(Semantics::default()))
}

/// YES, memory safe, confirmed on lists of length 0..8 and on random inputs.
fn yes(p: &std::path::Path) -> Report {
    let r = term(p, Semantics::default());
    assert_eq!(r.answer, Answer::Yes, "{:?}", r.reason);
    assert!(r.memory_safe);
    let prog = Program::new(load(p, false));
    for n in 0..8 {
        let end = run_len(&prog, n);
        assert!(matches!(end, End::Exit(_)), "length {n}: {end:?}");
    }
    let check = validate::check(&load(p, false), &options(Semantics::default()), &r, 20);
    assert!(check.contradiction.is_none(), "{}", check.summary());
    assert!(check.finished >= 5, "{}", check.summary());
    r
}

/// The paper's running example: YES, memory safe; both loop heads hold a list invariant, and
/// the ITS transition of the traversal decreases the list's length by one under `ℓ ≥ 2`
/// while every other variable of that head is free — the length is the ranking argument.
#[test]
fn running_example_offsetof_traversal() {
    let p = repo().join("examples/term/list_traverse.c");
    let r = yes(&p);
    let seg = r.seg.as_ref().expect("a SEG");
    let text = seg::describe(seg);
    assert_eq!(text.matches("list l0 ->^{x").count(), 2, "{text}");
    assert!(text.contains("(8:ptr:next..null)"), "{text}");
    length_ranks(&r, "while");
}

/// The ITS transition from the head whose name contains `head` to itself decreases the
/// length of the head's first list by one under `ℓ ≥ 2`, and no other head variable
/// decreases: only the length can rank it.
fn length_ranks(r: &Report, head: &str) {
    let seg = r.seg.as_ref().expect("a SEG");
    let h = seg
        .heads
        .iter()
        .position(|h| h.name.contains(head))
        .expect("the traversal head");
    let spec = &seg.heads[h];
    let len = spec.slots.len() + spec.mem.lists[0].len;
    let pos = its_build::head_positions(seg)[h][&len];
    let its = r.its.as_ref().expect("an ITS");
    let lx = Poly::var(pos);
    let walk: Vec<_> = its
        .transitions
        .iter()
        .filter(|t| t.source == h + 1 && t.targets[0].0 == h + 1)
        .collect();
    assert_eq!(walk.len(), 1, "{its:?}");
    let update = &walk[0].targets[0].1;
    assert_eq!(update[pos], lx.sub(&Poly::constant(1)));
    assert!(
        walk[0]
            .guard
            .iter()
            .any(|a| a.poly == lx.sub(&Poly::constant(2))),
        "the guard has ℓ ≥ 2: {:?}",
        walk[0].guard
    );
    for (i, u) in update.iter().enumerate() {
        if i != pos {
            assert!(
                u.as_constant().is_some()
                    || u.vars().iter().all(|v| *v >= its.vars.len())
                    || *u == Poly::var(i)
            );
        }
    }
}

const BUILD: &str = r#"
#include <stdlib.h>
extern unsigned int __VERIFIER_nondet_uint(void);
struct node { int payload; struct node *link; };
static struct node *build(unsigned int count) {
  struct node *front = NULL;
  for (unsigned int i = 0; i < count; i++) {
    struct node *fresh = malloc(sizeof(struct node));
    fresh->payload = (int)i;
    fresh->link = front;
    front = fresh;
  }
  return front;
}
"#;

/// Walking with `p->link` (a struct-field `getelementptr`) and freeing every element on the
/// way: YES and memory safe.
#[test]
fn field_traversal_and_free_all() {
    let src = format!(
        "{BUILD}
int main(void) {{
  struct node *front = build(__VERIFIER_nondet_uint());
  int found = 0;
  for (struct node *p = front; p != NULL; p = p->link)
    if (p->payload == 5) found = 1;
  while (front != NULL) {{
    struct node *next = front->link;
    free(front);
    front = next;
  }}
  return found;
}}"
    );
    let (_dir, p) = source(&src);
    yes(&p);
}

/// A search by value that ends only because the value is in the list: the values are the
/// loop counter, so the list is sorted with step −1 (the field annotation), and `m < n` is
/// among them. YES; every pair `m < n ≤ 8` ends concretely.
#[test]
fn search_for_a_present_value() {
    let src = format!(
        "{BUILD}
int main(void) {{
  unsigned int n = __VERIFIER_nondet_uint();
  unsigned int m = __VERIFIER_nondet_uint();
  if (n > 1000000 || m >= n) return 0;
  struct node *p = build(n);
  while (p->payload != (int)m) p = p->link;
  return 0;
}}"
    );
    let (_dir, p) = source(&src);
    let r = term(&p, Semantics::default());
    assert_eq!(r.answer, Answer::Yes, "{:?}", r.reason);
    let text = seg::describe(r.seg.as_ref().expect("a SEG"));
    assert!(text.contains("step -1"), "{text}");
    let prog = Program::new(load(&p, false));
    for n in 0..8 {
        for m in 0..n + 2 {
            let end = run_inputs(&prog, &[n, m]);
            assert!(matches!(end, End::Exit(_)), "n = {n}, m = {m}: {end:?}");
        }
    }
    let check = validate::check(&load(&p, false), &options(Semantics::default()), &r, 20);
    assert!(check.contradiction.is_none(), "{}", check.summary());
}

/// Unlinking every element with a given value while walking with a trailing pointer: the
/// head keeps "not moved yet" (`keep == head`) and "moved" (a walked-over segment, then
/// the rest) apart, and the unlinked elements are dropped. YES and memory safe.
#[test]
fn unlink_matching_elements() {
    let src = format!(
        "{BUILD}
int main(void) {{
  struct node *head = build(__VERIFIER_nondet_uint());
  int unwanted = 3;
  if (head == NULL) return 0;
  struct node *keep = head;
  while (keep->link != NULL) {{
    if (keep->link->payload == unwanted) keep->link = keep->link->link;
    else keep = keep->link;
  }}
  return head->payload;
}}"
    );
    let (_dir, p) = source(&src);
    yes(&p);
}

/// A use of an element after its `free`: `ERR` at the load, which a concrete run with a
/// non-empty list hits too.
#[test]
fn use_after_free_of_an_element_is_err() {
    let src = format!(
        "{BUILD}
int main(void) {{
  struct node *front = build(__VERIFIER_nondet_uint());
  if (front != NULL) {{
    free(front);
    return front->payload;
  }}
  return 0;
}}"
    );
    let (_dir, p) = source(&src);
    let r = quick(&p);
    assert_eq!(r.answer, Answer::Maybe);
    assert!(!r.memory_safe);
    let reason = r.reason.unwrap_or_default();
    assert!(
        reason.contains("freed") && reason.contains("p.c:20:"),
        "{reason}"
    );
    let prog = Program::new(load(&p, false));
    assert!(matches!(run_len(&prog, 3), End::Bug(_)));
}

/// A cyclic list searched for NULL never ends: never YES, and the concrete run loops.
#[test]
fn cyclic_list_searched_for_null_is_not_yes() {
    let src = format!(
        "{BUILD}
int main(void) {{
  struct node *front = build(__VERIFIER_nondet_uint());
  if (front == NULL) return 0;
  struct node *last = front;
  while (last->link != NULL) last = last->link;
  last->link = front;
  struct node *p = front;
  while (p != NULL) p = p->link;
  return 0;
}}"
    );
    let (_dir, p) = source(&src);
    let r = quick(&p);
    assert_ne!(r.answer, Answer::Yes, "{:?}", r.reason);
    let prog = Program::new(load(&p, false));
    assert!(loops(&run_len(&prog, 3)));
}

/// The link's offset as a pointer difference (`&front->link - front`, the `-ptrdiff` programs'
/// idiom) and the walk by it: YES, memory safe; the walk head holds the offset as the literal
/// 8, which no instruction of the program contains (the difference of the two offsets).
#[test]
fn walk_by_a_pointer_difference() {
    let p = repo().join("examples/term/list_ptrdiff.c");
    let r = yes(&p);
    let seg = r.seg.as_ref().expect("a SEG");
    let spec = seg
        .heads
        .iter()
        .find(|h| h.name.contains("while"))
        .expect("the walk head");
    let x = spec
        .slots
        .iter()
        .position(|s| s.2 == 64)
        .map(Poly::var)
        .expect("the 64-bit offset register");
    let eight = Poly::constant(8);
    for bound in [x.sub(&eight), eight.sub(&x)] {
        assert!(
            spec.facts
                .iter()
                .any(|a| a.poly == bound && a.rel == symex_its::Rel::Ge),
            "{}",
            seg::describe(seg)
        );
    }
}

/// `p - q` of two `int` pointers into one array is the index difference (`sdiv exact` of the
/// offsets' difference): the loop `i != p - q` ends and its stores stay in bounds.
#[test]
fn difference_within_one_array() {
    let src = r#"
int main(void) {
  int a[10];
  int *p = &a[7], *q = &a[2];
  long d = p - q;
  for (long i = 0; i != d; i++) a[i] = 0;
  return a[0];
}"#;
    let (_dir, p) = source(src);
    let r = term(&p, Semantics::default());
    assert_eq!(r.answer, Answer::Yes, "{:?}", r.reason);
    assert!(r.memory_safe);
    let check = validate::check(&load(&p, false), &options(Semantics::default()), &r, 5);
    assert!(check.contradiction.is_none(), "{}", check.summary());
    assert_eq!(check.finished, check.runs, "{}", check.summary());
}

/// The difference of pointers into two allocations depends on the layout (undefined in C):
/// no value is guessed for it, the answer is MAYBE and says why.
#[test]
fn difference_of_two_objects_is_not_guessed() {
    let src = r#"
#include <stdlib.h>
int main(void) {
  char *a = malloc(16), *b = malloc(16);
  long d = b - a;
  for (long i = 0; i != d; i++) {}
  return 0;
}"#;
    let (_dir, p) = source(src);
    let r = quick(&p);
    assert_eq!(r.answer, Answer::Maybe);
    let reason = r.reason.unwrap_or_default();
    assert!(reason.contains("different objects"), "{reason}");
}

/// A list built by a recursive function and walked by one (`examples/term/list_rec.c`): YES,
/// memory safe; the walk's call head holds the builder's list, and its call transition
/// decreases the length by one under `ℓ ≥ 2`.
#[test]
fn recursive_build_and_walk() {
    let p = repo().join("examples/term/list_rec.c");
    let r = yes(&p);
    let text = seg::describe(r.seg.as_ref().expect("a SEG"));
    assert!(
        text.contains("(8:ptr:next..null)"),
        "the walk head holds a NULL-terminated list: {text}"
    );
    length_ranks(&r, "walk_entry");
}

/// A recursive function that writes into the caller's list is neither a reader nor a builder
/// of new memory: no summary, MAYBE with the reason.
#[test]
fn recursive_write_into_callers_list_is_not_summarised() {
    let src = format!(
        "{BUILD}
void zero(struct node *p) {{
  if (p != NULL) {{
    p->payload = 0;
    zero(p->link);
  }}
}}
int main(void) {{
  struct node *front = build(__VERIFIER_nondet_uint());
  zero(front);
  return 0;
}}"
    );
    let (_dir, p) = source(&src);
    let r = quick(&p);
    assert_eq!(r.answer, Answer::Maybe);
    let reason = r.reason.unwrap_or_default();
    assert!(
        reason.contains("may change memory its caller can reach"),
        "{reason}"
    );
}

/// A recursive walk of a cyclic list that stops only at NULL never ends: never YES, and the
/// concrete run does not exit.
#[test]
fn recursive_walk_of_a_cyclic_list_is_not_yes() {
    let src = format!(
        "{BUILD}
void walk(struct node *p) {{
  if (p != NULL) walk(p->link);
}}
int main(void) {{
  struct node *front = build(__VERIFIER_nondet_uint());
  if (front == NULL) return 0;
  struct node *last = front;
  while (last->link != NULL) last = last->link;
  last->link = front;
  walk(front);
  return 0;
}}"
    );
    let (_dir, p) = source(&src);
    let r = quick(&p);
    assert_ne!(r.answer, Answer::Yes, "{:?}", r.reason);
    let prog = Program::new(load(&p, false));
    assert!(!matches!(run_len(&prog, 3), End::Exit(_)));
}

const TAGGED: &str = r#"
#include <stdlib.h>
extern unsigned int __VERIFIER_nondet_uint(void);
struct cell { struct cell *next; int *tag; };
static struct cell *build(unsigned int count) {
  int *tag = malloc(sizeof(int));
  struct cell *front = NULL;
  for (unsigned int i = 0; i < count; i++) {
    struct cell *fresh = malloc(sizeof(struct cell));
    fresh->next = front;
    fresh->tag = front ? front->tag : tag;
    front = fresh;
  }
  return front;
}
"#;

/// An element struct with a second pointer field that every element shares: the list
/// invariant keeps that one pointer (`ptr:all a…`), and the walk is YES.
#[test]
fn second_pointer_field_shared_by_all_elements() {
    let src = format!(
        "{TAGGED}
int main(void) {{
  struct cell *p = build(__VERIFIER_nondet_uint());
  while (p != NULL) p = p->next;
  return 0;
}}"
    );
    let (_dir, p) = source(&src);
    let r = yes(&p);
    let text = seg::describe(r.seg.as_ref().expect("a SEG"));
    assert!(text.contains("(8:ptr:all a"), "{text}");
}

/// The shared block freed through the first element, then every element: YES and memory
/// safe (the field holds the block's start in every element).
#[test]
fn shared_pointer_field_freed_once() {
    let src = format!(
        "{TAGGED}
int main(void) {{
  struct cell *p = build(__VERIFIER_nondet_uint());
  if (p != NULL) free(p->tag);
  while (p != NULL) {{ struct cell *n = p->next; free(p); p = n; }}
  return 0;
}}"
    );
    let (_dir, p) = source(&src);
    yes(&p);
}

/// Elements whose second pointers differ (each its own block): the field is any pointer, and
/// a dereference through it is not excluded from being invalid — never YES with memory
/// safety claimed.
#[test]
fn dereference_of_a_forgotten_pointer_field_is_not_safe() {
    let src = r#"
#include <stdlib.h>
extern unsigned int __VERIFIER_nondet_uint(void);
struct cell { struct cell *next; int *tag; };
int main(void) {
  unsigned int count = __VERIFIER_nondet_uint();
  struct cell *front = NULL;
  for (unsigned int i = 0; i < count; i++) {
    struct cell *fresh = malloc(sizeof(struct cell));
    fresh->next = front;
    fresh->tag = malloc(sizeof(int));
    front = fresh;
  }
  int sum = 0;
  for (struct cell *p = front; p != NULL; p = p->next) sum += *p->tag;
  return sum;
}"#;
    let (_dir, p) = source(src);
    let r = quick(&p);
    assert_ne!(r.answer, Answer::Yes, "{:?}", r.reason);
    assert!(!r.memory_safe);
}

/// The shared block freed through the first element and read through the second: `ERR`
/// (use after free), which a concrete run with three elements hits too.
#[test]
fn shared_block_used_after_free_is_err() {
    let src = format!(
        "{TAGGED}
int main(void) {{
  struct cell *p = build(__VERIFIER_nondet_uint());
  if (p == NULL || p->next == NULL) return 0;
  free(p->tag);
  return *p->next->tag;
}}"
    );
    let (_dir, p) = source(&src);
    let r = quick(&p);
    assert_eq!(r.answer, Answer::Maybe);
    assert!(!r.memory_safe);
    let reason = r.reason.unwrap_or_default();
    assert!(reason.contains("freed"), "{reason}");
    let prog = Program::new(load(&p, false));
    assert!(matches!(run_len(&prog, 3), End::Bug(_)));
}

/// A recursive function that frees its pointer parameter's list without a memory instruction
/// of its own (only `free` calls) changes the caller's memory: no summary, so the use after
/// the call is not claimed safe.
#[test]
fn recursive_free_of_callers_list_is_not_summarised() {
    let src = format!(
        "{BUILD}
void drop_first(struct node *p, unsigned int k) {{
  if (k > 0) {{ free(p); drop_first(NULL, k - 1); }}
}}
int main(void) {{
  struct node *front = build(__VERIFIER_nondet_uint());
  if (front == NULL) return 0;
  drop_first(front, 1);
  return front->payload;
}}"
    );
    let (_dir, p) = source(&src);
    let r = quick(&p);
    assert_eq!(r.answer, Answer::Maybe);
    assert!(!r.memory_safe);
    let prog = Program::new(load(&p, false));
    assert!(matches!(run_len(&prog, 2), End::Bug(_)));
}
