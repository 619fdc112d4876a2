//! Guards and polynomials as `symex-expr` integer terms, and the solver questions the
//! provers ask (through `symex-solver`, i.e. Z3).

use crate::its::{Atom, Rel};
use crate::poly::Poly;
use std::cell::Cell;
use std::time::{Duration, Instant};
use symex_expr::{Sort, Term};
use symex_solver::{LayerStats, SatResult, Solver, SolverConfig, Unknown};

/// The term of `p`, with `var(v)` for variable `v`.
pub fn poly_term(p: &Poly, var: &dyn Fn(usize) -> Term) -> Term {
    let mut sum = Term::int(0);
    for (m, c) in p.terms() {
        let mut prod = Term::int(c);
        for (v, e) in m {
            for _ in 0..*e {
                prod = prod.imul(&var(*v));
            }
        }
        sum = sum.iadd(&prod);
    }
    sum
}

/// The term of an atom.
pub fn atom_term(a: &Atom, var: &dyn Fn(usize) -> Term) -> Term {
    let p = poly_term(&a.poly, var);
    let zero = Term::int(0);
    match a.rel {
        Rel::Ge => zero.ile(&p),
        Rel::Eq => p.eq(&zero),
        Rel::Ne => p.eq(&zero).not(),
    }
}

/// The terms of a transition's guard atoms over the variables `var`.
pub fn guard_terms(guard: &[Atom], var: &dyn Fn(usize) -> Term) -> Vec<Term> {
    guard.iter().map(|a| atom_term(a, var)).collect()
}

/// `|x|` as an `ite` term (Z3's linear integer arithmetic has no `abs` of its own here).
pub fn abs(x: &Term) -> Term {
    Term::int(0).ile(x).ite(x, &x.ineg())
}

/// An integer variable named `prefix` + `v`.
pub fn int_var(prefix: &str, v: usize) -> Term {
    Term::var(&format!("{prefix}{v}"), Sort::Int)
}

thread_local! {
    /// The time limit of the whole analysis on this thread ([`set_deadline`]).
    static DEADLINE: Cell<Option<Instant>> = const { Cell::new(None) };
}

/// Sets (or with `None` clears) the time limit of every solver query of this thread:
/// from then on a query gets at most the time left, and none once it has passed (it
/// answers unknown at once). The provers check their own deadlines between steps; this
/// one also bounds the queries inside a step (preprocessing, a retry's synthesis), so an
/// analysis ends close to its deadline instead of one query timeout after it.
pub fn set_deadline(deadline: Option<Instant>) {
    DEADLINE.with(|d| d.set(deadline));
}

/// The deadline [`set_deadline`] set on this thread.
pub fn deadline() -> Option<Instant> {
    DEADLINE.with(Cell::get)
}

thread_local! {
    /// Z3's resource limit per query on this thread ([`set_rlimit`]).
    static RLIMIT: Cell<Option<u32>> = const { Cell::new(None) };
}

/// Sets (or with `None` clears) Z3's deterministic resource limit of every solver query this
/// thread makes from then on. With one, the analysis depends on counts, not on time: a query
/// has no time limit of its own (only the thread's deadline), and the provers' retries get no
/// time budget of their own ([`crate::termination::Limits::for_retry`]). So the answer is the
/// same on an idle and on a loaded machine, as long as the deadline is not reached.
pub fn set_rlimit(rlimit: Option<u32>) {
    RLIMIT.with(|r| r.set(rlimit));
}

/// The resource limit of this thread's queries: [`set_rlimit`]'s, else the process-wide one
/// of `symex-solver` (`--solver-rlimit`).
pub fn rlimit() -> Option<u32> {
    RLIMIT.with(Cell::get).or(SolverConfig::default().rlimit)
}

/// Whether the deadline of this thread has passed.
pub fn out_of_time() -> bool {
    deadline().is_some_and(|d| Instant::now() >= d)
}

thread_local! {
    /// The solver queries this thread has asked through [`solver`].
    static QUERIES: Cell<u64> = const { Cell::new(0) };
    /// Of those, the ones the solver answered unknown (its limit, the deadline or the budget).
    static UNKNOWNS: Cell<u64> = const { Cell::new(0) };
    /// The count of [`QUERIES`] at which the innermost [`query_budget`] ends.
    static QUERY_CAP: Cell<Option<u64>> = const { Cell::new(None) };
}

/// The solver queries this thread has asked so far (a deterministic measure of work).
pub fn queries() -> u64 {
    QUERIES.with(Cell::get)
}

/// The queries of this thread answered unknown so far: a search that met one did not look
/// everywhere, even when it ended within its count.
pub fn unknowns() -> u64 {
    UNKNOWNS.with(Cell::get)
}

/// At most `budget` more solver queries on this thread while the returned guard lives (inside
/// an enclosing budget, the smaller one holds): past it every query answers unknown and
/// [`out_of_budget`] holds. The count-based counterpart of a retry's time budget, so a retry
/// under a resource limit ends after the same work on an idle and a loaded machine.
pub fn query_budget(budget: u64) -> QueryBudget {
    let outer = QUERY_CAP.with(Cell::get);
    let cap = queries().saturating_add(budget);
    QUERY_CAP.with(|c| c.set(Some(outer.map_or(cap, |o| o.min(cap)))));
    QueryBudget { outer }
}

/// A query budget ([`query_budget`]); dropping it restores the enclosing one.
#[must_use = "the budget ends when this guard is dropped"]
pub struct QueryBudget {
    outer: Option<u64>,
}

impl Drop for QueryBudget {
    fn drop(&mut self) {
        QUERY_CAP.with(|c| c.set(self.outer));
    }
}

/// What [`stall_after`] calls instead of a query: it never returns.
type Stall = fn() -> !;

thread_local! {
    /// [`stall_after`]'s count and what then happens instead of the next query.
    static STALL: Cell<Option<(u64, Stall)>> = const { Cell::new(None) };
}

/// For tests of a caller's deadline (`symex its`' watchdog), with a count instead of a
/// clock: once this thread has asked `queries` solver queries, the next one calls `stall`
/// instead, which never returns — a prover busy past its deadline, at the same point of
/// its work on an idle and on a loaded machine.
pub fn stall_after(queries: u64, stall: Stall) {
    STALL.with(|s| s.set(Some((queries, stall))));
}

/// A pause ([`pause_at`]): the query count and the instant at which it comes, and what it does.
struct Pause {
    queries: u64,
    at: Instant,
    then: Box<dyn FnOnce()>,
}

thread_local! {
    /// [`pause_at`]'s pause, until it has come.
    static PAUSE: std::cell::RefCell<Option<Pause>> = const { std::cell::RefCell::new(None) };
}

/// Once this thread has asked `queries` solver queries, or `at` has passed, the next query
/// first calls `then` (once) and is then asked as usual: a search can hand its caller what
/// it has found so far at a count and go on where it is, instead of being cut there (its
/// queries answering unknown past a [`query_budget`]) and started again from scratch.
/// `then` may change this thread's deadline ([`set_deadline`]) for the rest of the search.
pub fn pause_at(queries: u64, at: Instant, then: Box<dyn FnOnce()>) {
    PAUSE.with(|p| {
        *p.borrow_mut() = Some(Pause { queries, at, then });
    });
}

/// Clears a [`pause_at`] that has not come; whether one had.
pub fn clear_pause() -> bool {
    PAUSE.with(|p| p.borrow_mut().take()).is_some()
}

/// Calls the pending [`pause_at`] hook when its count or instant has come.
fn pause_if_due() {
    let due = PAUSE.with(|p| {
        let mut p = p.borrow_mut();
        let come = p
            .as_ref()
            .is_some_and(|p| queries() >= p.queries || Instant::now() >= p.at);
        if come {
            p.take()
        } else {
            None
        }
    });
    if let Some(p) = due {
        (p.then)();
    }
}

thread_local! {
    /// [`delay_queries`]' wait before each query.
    static DELAY: Cell<Duration> = const { Cell::new(Duration::ZERO) };
}

/// For tests that an answer does not depend on the machine's load: from then on each solver
/// query of this thread first waits `delay` (other work holding the cores), outside Z3's own
/// time limit; [`Duration::ZERO`] ends it.
pub fn delay_queries(delay: Duration) {
    DELAY.with(|d| d.set(delay));
}

/// Whether the innermost [`query_budget`] is spent.
fn queries_spent() -> bool {
    QUERY_CAP
        .with(Cell::get)
        .is_some_and(|cap| queries() >= cap)
}

/// Whether this thread's work should stop: its deadline has passed or its query budget is
/// spent.
pub fn out_of_budget() -> bool {
    out_of_time() || queries_spent()
}

/// A solver for the provers: Z3 with a per-call time limit clipped to the thread's
/// deadline ([`set_deadline`]), no caches (every query of a proof is new). Under a resource
/// limit ([`rlimit`]) `timeout` is not used: only the limit and the deadline end a query.
pub fn solver(timeout: Duration) -> Box<dyn Solver> {
    let rlimit = rlimit();
    let timeout = if rlimit.is_some() {
        NO_TIMEOUT
    } else {
        timeout
    };
    Box::new(Clipped {
        inner: SolverConfig::bare()
            .timeout(Some(timeout))
            .rlimit(rlimit)
            .nlsat_fallback(true)
            .build(),
        timeout,
        applied: timeout,
        stats: LayerStats::new("deadline"),
    })
}

/// A solver whose queries end by Z3's step count alone, for unit tests: their answers must not
/// depend on the machine's load.
#[cfg(test)]
pub(crate) fn counted_solver() -> Box<dyn Solver> {
    set_rlimit(Some(5_000_000));
    solver(NO_TIMEOUT)
}

/// The time limit that stands for none (the deadline still clips it).
const NO_TIMEOUT: Duration = Duration::from_secs(24 * 3600);

/// The layer that clips each query's time limit to the time left before the deadline.
struct Clipped {
    inner: Box<dyn Solver>,
    timeout: Duration,
    /// The limit last passed to `inner` (set again only when it changes).
    applied: Duration,
    stats: LayerStats,
}

impl Solver for Clipped {
    fn check(&mut self, constraints: &[Term]) -> SatResult {
        if let Some((after, stall)) = STALL.with(Cell::get) {
            if queries() >= after {
                stall();
            }
        }
        pause_if_due();
        let delay = DELAY.with(Cell::get);
        if !delay.is_zero() {
            std::thread::sleep(delay);
        }
        let started = Instant::now();
        let left = deadline().map(|d| d.saturating_duration_since(started));
        let spent = queries_spent();
        QUERIES.with(|q| q.set(q.get() + 1));
        let result = match left {
            Some(left) if left.is_zero() => {
                SatResult::Unknown(Unknown("time limit reached".into()))
            }
            _ if spent => SatResult::Unknown(Unknown("query budget spent".into())),
            _ => {
                let limit = left.map_or(self.timeout, |l| l.min(self.timeout));
                if limit != self.applied {
                    self.inner.set_timeout(Some(limit));
                    self.applied = limit;
                }
                self.inner.check(constraints)
            }
        };
        self.stats.record(started.elapsed(), &result);
        if matches!(result, SatResult::Unknown(_)) {
            UNKNOWNS.with(|u| u.set(u.get() + 1));
        }
        result
    }

    fn collect_stats(&self, out: &mut Vec<LayerStats>) {
        out.push(self.stats.clone());
        self.inner.collect_stats(out);
    }

    fn set_timeout(&mut self, timeout: Option<Duration>) {
        // `None` (no limit) is kept as a long limit: the deadline still clips it.
        self.timeout = timeout.unwrap_or(NO_TIMEOUT);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn queries_end_at_the_thread_deadline() {
        let x = Term::var("x", Sort::Int);
        let pc = [Term::int(3).ile(&x)];
        let mut s = counted_solver();
        set_deadline(Some(Instant::now()));
        assert!(out_of_time());
        assert!(matches!(s.check(&pc), SatResult::Unknown(_)));
        // A deadline far off (only a backstop): the query ends by its count.
        set_deadline(Some(Instant::now() + Duration::from_secs(600)));
        assert!(matches!(s.check(&pc), SatResult::Sat(_)));
        set_deadline(None);
        assert_eq!(s.is_sat(&[x.ile(&Term::int(2)), pc[0].clone()]), Ok(false));
    }

    #[test]
    fn queries_end_at_the_query_budget_and_the_enclosing_budget_returns() {
        let x = Term::var("x", Sort::Int);
        let pc = [Term::int(3).ile(&x)];
        let mut s = counted_solver();
        let before = queries();
        let outer = query_budget(3);
        let inner = query_budget(10);
        let mut answers: Vec<_> = (0..2).map(|_| s.check(&pc)).collect();
        drop(inner);
        assert!(!out_of_budget());
        answers.extend((0..2).map(|_| s.check(&pc)));
        assert!(out_of_budget());
        drop(outer);
        let sat = |r: &SatResult| matches!(r, SatResult::Sat(_));
        assert_eq!(
            answers.iter().map(sat).collect::<Vec<_>>(),
            [true, true, true, false]
        );
        assert_eq!(queries() - before, 4);
        assert!(!out_of_budget());
        assert!(sat(&s.check(&pc)));
    }
}
