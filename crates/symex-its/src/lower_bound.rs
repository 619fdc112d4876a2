//! Unbounded runtime (the lower bound `INF` of the competition's `BOUNDS(INF, INF)`):
//! proofs that *no* function of the start values bounds the cost of the runs, so that
//! `symex its` can say why a complexity file has no bound.
//!
//! Two kinds of witness, both replayed by plain evaluation ([`replay`]) before they are
//! reported:
//!
//! * **a non-terminating run** ([`crate::nontermination`]): a path and a cycle whose guard
//!   holds forever; its cost grows without bound when every lap costs something.
//! * **runs of every length from one start state** ([`Family`]): a temporary `T`, chosen on
//!   the way to a cycle, sets a counter the cycle then counts for about `|T|` laps (T2's
//!   `mc91`: `f0 → f1(C, 1)`, `C` free; WTC's `cousot9`: `A := D`). For `L` laps `T` is
//!   `scale·(L + shift)`; every other value (start values, the other temporaries) is a
//!   constant. When the composed cycle moves each variable its guard depends on by a
//!   constant step (`v' = v + δ_v`) or resets it to a constant, the state before lap `k`
//!   has the closed form `x_k = x_0(L) + k·δ` — affine in `L` and `k` — and Z3 proves
//!   `∀L ≥ 1: path guards hold ∧ ∀k < L: cycle guard holds at x_k ∧ the lap costs ≥ 1`.
//!   So from one start state there are runs of every cost: the worst-case runtime is
//!   infinite for every size of start values from that state's size on.

use crate::graph;
use crate::interp::{Interpreter, Rng, RunConfig};
use crate::its::{Atom, Its, Transition};
use crate::nontermination::{self, Witness};
use crate::poly::Poly;
use crate::smt;
use std::collections::{BTreeSet, HashMap, HashSet};
use std::time::{Duration, Instant};
use symex_expr::Term;
use symex_solver::Solver;

/// Why the runtime is unbounded.
#[derive(Clone, Debug)]
pub enum Unbounded {
    /// A run that never stops (its cycle costs at least 1 per lap).
    NonTerminating(Witness),
    /// Runs of every length from one start state, `L` chosen by a temporary.
    Family(Family),
}

/// Runs of every length from one start state: the path (with the temporary `param`
/// chosen as `scale·(L + shift)`), then the cycle `L` times.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Family {
    /// Start values of the program variables.
    pub start: Vec<i128>,
    /// The transitions from the start location to the cycle's location.
    pub path: Vec<usize>,
    /// The temporaries of each step of the path (the parameter's entry is replaced).
    pub path_temps: Vec<Vec<i128>>,
    /// The step of the path and the index of its temporary that is the parameter.
    pub param: (usize, usize),
    /// Other temporaries of the parameter's step that take the parameter's value (T2's
    /// `n_firewire`: `C := H, G := I` at the start, both counted down by one cycle).
    pub tied: Vec<usize>,
    /// The parameter's value for `L` laps is `scale·(L + shift)`.
    pub scale: i128,
    /// See [`Family::scale`].
    pub shift: i128,
    /// The transitions of the cycle, in order.
    pub cycle: Vec<usize>,
    /// The temporaries of each transition of the cycle (the same on every lap).
    pub cycle_temps: Vec<Vec<i128>>,
    /// The change of each variable the cycle's guard depends on per lap: `(v, Some(δ))`
    /// for `v' = v + δ`, `(v, None)` for a reset to a constant.
    pub steps: Vec<(usize, Option<i128>)>,
}

impl Family {
    /// The parameter's value for `laps` laps.
    pub fn param_value(&self, laps: i128) -> Option<i128> {
        laps.checked_add(self.shift)?.checked_mul(self.scale)
    }
}

/// The lengths [`replay`] checks: each run must reach at least this cost.
pub const REPLAY_LENGTHS: [i128; 4] = [10, 100, 1000, 10_000];

/// Looks for a witness of unbounded runtime: a non-terminating run first (by
/// [`nontermination::prove`]), then a family of runs of every length. Only witnesses that
/// [`replay`] confirms are returned.
pub fn prove(its: &Its, timeout: Duration, deadline: Instant) -> Option<Unbounded> {
    if its.has_multi_targets() {
        return None;
    }
    let nt = nontermination::prove(its, timeout)
        .filter(|w| nontermination::replay(its, w, 10_000))
        .map(Unbounded::NonTerminating)
        .filter(|u| replay(its, u));
    if nt.is_some() {
        return nt;
    }
    let mut solver = smt::solver(timeout.min(QUERY_TIMEOUT));
    family(its, solver.as_mut(), deadline)
        .map(Unbounded::Family)
        .filter(|u| replay(its, u))
}

/// [`prove`] within `queries` solver queries (and the deadline): a count, so that whether it
/// answers does not depend on the machine's load. `symex its` asks it before the search for
/// an upper bound, which on large systems without one (T2's `brp`, `slayer-3`) would use up
/// the whole time first. Returns the witness, and whether the search ended before its count
/// and the deadline did (then asking [`prove`] again would find nothing more).
///
/// It runs on a thread of its own, with the caller's deadline and resource limit: Z3's
/// context is per thread, and queries asked in it earlier change the models later queries
/// get (a ranking function `−Y + 4` where `−Y + 3` was found before), so the caller's
/// analysis after a failed search is the same as without one.
///
/// It is a first look, ended by `deadline` (`symex its` gives it a quarter of its time), and
/// a search that met an unknown answer did not end, so the caller asks [`prove`] again when
/// no bound is found. The caller waits for it until [`FIRST_LOOK_GRACE`] past `deadline`
/// and then goes on without it: Z3 4.8.12 does not always heed an interrupt (Lommen's
/// `non_linear06`, one self-loop with a guard of degree 5: a check ran on for 90 s past its
/// limit, while the file's `O(n^5)` bound takes 2.5 s). The abandoned thread ends with its
/// check, or with the process.
pub fn prove_counted(
    its: &Its,
    timeout: Duration,
    deadline: Instant,
    queries: u64,
) -> (Option<Unbounded>, bool) {
    let look = look_first(its, timeout, deadline, queries, None);
    (look.found, look.ended)
}

/// What [`look_first`] saw: the first look's witness, and whether its search ended.
pub struct FirstLook {
    pub found: Option<Unbounded>,
    pub ended: bool,
}

/// How a first look its count cut goes on: until `until`, at the lowest thread priority,
/// so that it only takes time the upper-bound search leaves (a core it does not use, the
/// waits of its last seconds), and with a witness it calls `found` at once.
pub struct GoOn {
    pub until: Instant,
    pub found: Box<dyn FnOnce(&Unbounded) + Send>,
}

/// [`prove_counted`]; with `go_on`, a search its count (or its deadline) would cut is not
/// cut: at the count it hands the caller what it has (nothing, not ended) and goes on where
/// it is, at the lowest thread priority and until `go_on.until`, calling `go_on.found` with
/// a witness ([`smt::pause_at`]). A restart after the upper-bound search, in the seconds that
/// one leaves, would not get past where the first look stopped: T2's `brp`,
/// `brp_withassume` and `sudoku` need 313, 425 and 709 queries (3–7 s at load 14), where the
/// count is [`FIRST_QUERIES`] and the seconds left are 3. A cut search also kept its caller
/// waiting: past its count every query answered unknown, but its loops ran to their end
/// (`brp`: 506 of 706 queries). Going on is an extra chance, not a replacement for that
/// restart: at the lowest priority a query's time limit may pass with little of it spent,
/// and a step's own time budget too (T2's `hqr`).
pub fn look_first(
    its: &Its,
    timeout: Duration,
    deadline: Instant,
    queries: u64,
    go_on: Option<GoOn>,
) -> FirstLook {
    let (thread_deadline, rlimit) = (smt::deadline(), smt::rlimit());
    let clip = move |d: Instant| thread_deadline.map_or(d, |t| t.min(d));
    let (send, receive) = std::sync::mpsc::channel();
    let its = its.clone();
    let spawned = std::thread::Builder::new().spawn(move || {
        smt::set_rlimit(rlimit);
        match go_on.filter(|g| Instant::now() < g.until) {
            None => {
                // The search's own deadline ends its queries too, not only its loops.
                smt::set_deadline(Some(clip(deadline)));
                let _budget = smt::query_budget(queries);
                let _phase = crate::trace::phase("witness search (own thread)");
                let found = prove(&its, timeout, deadline);
                let ended = smt::queries() < queries && searched_everywhere(deadline);
                // The caller may have stopped waiting.
                let _ = send.send((found, ended));
            }
            Some(go_on) => look_and_go_on(&its, timeout, (deadline, queries), go_on, clip, send),
        }
    });
    if spawned.is_err() {
        return FirstLook {
            found: None,
            ended: false,
        };
    }
    let wait = (deadline + FIRST_LOOK_GRACE).saturating_duration_since(Instant::now());
    let (found, ended) = receive.recv_timeout(wait).unwrap_or((None, false));
    FirstLook { found, ended }
}

/// Whether a search that returned (on this thread) looked everywhere: no unknown answer, and
/// no deadline passed.
fn searched_everywhere(deadline: Instant) -> bool {
    smt::unknowns() == 0 && Instant::now() < deadline && !smt::out_of_time()
}

/// [`look_first`]'s search with a [`GoOn`]: one search to `go_on.until`, which at the first
/// look's count or deadline (`cut`) sends the caller that it found nothing yet, and goes on.
fn look_and_go_on(
    its: &Its,
    timeout: Duration,
    (deadline, queries): (Instant, u64),
    go_on: GoOn,
    clip: impl Fn(Instant) -> Instant,
    send: std::sync::mpsc::Sender<(Option<Unbounded>, bool)>,
) {
    let until = clip(go_on.until);
    smt::set_deadline(Some(until));
    let phase = std::rc::Rc::new(std::cell::RefCell::new(crate::trace::phase(
        "witness search (own thread)",
    )));
    let paused = {
        let (phase, send) = (phase.clone(), send.clone());
        move || {
            let _ = send.send((None, false));
            go_on_quietly(&phase);
        }
    };
    let start = smt::queries();
    smt::pause_at(
        start.saturating_add(queries),
        clip(deadline),
        Box::new(paused),
    );
    let found = prove(its, timeout, until);
    if !smt::clear_pause() {
        // The pause came: the caller has heard, and this is the search that went on.
        if let Some(u) = found {
            (go_on.found)(&u);
        }
        return;
    }
    let ended = searched_everywhere(deadline);
    let cut = found.is_none() && !ended;
    if let Err(std::sync::mpsc::SendError((Some(u), _))) = send.send((found, ended)) {
        // The caller stopped waiting: a witness found late still answers.
        (go_on.found)(&u);
        return;
    }
    // Ended before its count with an unknown answer: looked at again, from the start.
    if cut && Instant::now() < until {
        go_on_quietly(&phase);
        if let Some(u) = prove(its, timeout, until) {
            (go_on.found)(&u);
        }
    }
}

/// The first look's search goes on beside the caller: at the lowest thread priority, and on
/// the trace as a phase of its own (the first look's phase ends first, so its line comes first).
fn go_on_quietly(phase: &std::cell::RefCell<Option<crate::trace::Phase>>) {
    lowest_thread_priority();
    *phase.borrow_mut() = None;
    *phase.borrow_mut() = crate::trace::phase("witness search, going on (own thread)");
}

/// Puts the calling thread at nice 19 (Linux schedules threads apart), so that a search
/// beside the main one takes only time the main one leaves.
fn lowest_thread_priority() {
    #[cfg(target_os = "linux")]
    // SAFETY: setpriority on the calling thread's own id has no memory effects.
    unsafe {
        let tid = libc::gettid();
        libc::setpriority(libc::PRIO_PROCESS, tid as libc::id_t, 19);
    }
}

/// How long past its deadline [`prove_counted`]'s caller waits for it: the replay of a witness
/// found at the deadline, and a check that heeds its interrupt late.
pub const FIRST_LOOK_GRACE: Duration = Duration::from_secs(1);

/// The solver queries `symex its` gives [`prove_counted`] before the upper-bound search.
/// Counted on a debug build: the witnesses of T2's `brp`, `hqr…fixed`, `magic`, `slayer-3`,
/// `slayer-4-filtered` take 9–158 queries (`slayer-3-new` 378), while a search that finds
/// nothing asks up to 624 (`spctrm`) and takes seconds a bounded file then lacks.
pub const FIRST_QUERIES: u64 = 200;

/// A non-terminating run in an SCC no transition leaves and in which every state can go
/// on ([`crate::inescapable`]), replayed: cheap enough to ask before the search for an
/// upper bound, which on such an SCC (T2's `bio`) would only use up the time.
pub fn inescapable(its: &Its, timeout: Duration, deadline: Instant) -> Option<Unbounded> {
    let mut solver = smt::solver(timeout.min(QUERY_TIMEOUT));
    crate::inescapable::prove(its, solver.as_mut(), deadline)
        .filter(|w| nontermination::replay(its, w, 10_000))
        .map(Unbounded::NonTerminating)
        .filter(|u| replay(its, u))
}

/// The time limit of each query of the family search (they are small and many).
pub(crate) const QUERY_TIMEOUT: Duration = Duration::from_secs(2);

/// The longest cycle tried.
const MAX_CYCLE: usize = 4;

/// Cycles tried at most.
const MAX_CYCLES: usize = 60;

/// Candidate (cycle, parameter) pairs tried at most.
pub(crate) const MAX_TRIES: usize = 200;

/// The parameter's value in the search for the other values (large, so that a counter
/// it sets runs long).
pub(crate) const PROBE: i128 = 10_000;

/// Bound on the start values and temporaries of the search's models (readable witnesses).
pub(crate) const MODEL_BOUND: i128 = 1_000_000;

/// Shifts tried for `scale·(L + shift)`: guards like `T ≥ 100` need a start offset.
pub(crate) const SHIFTS: [i128; 5] = [0, 1, 10, 100, 1000];

/// Replays the witness by plain evaluation (no solver): for each length `L` of
/// [`REPLAY_LENGTHS`] the run reaches cost at least `L` — a non-terminating witness by
/// following its cycle (or, when its values leave the `i128` range first, at least
/// [`nontermination::MIN_LAPS_BEFORE_OVERFLOW`] laps of a constant cost `≥ 1`), a family
/// with its parameter chosen for `L` laps.
pub fn replay(its: &Its, u: &Unbounded) -> bool {
    REPLAY_LENGTHS.iter().all(|&l| match u {
        Unbounded::NonTerminating(w) => replay_lasso(its, w, l),
        Unbounded::Family(f) => replay_family(its, f, l) == Some(true),
    })
}

/// One step of `t` from `x` with `temps`: the next state and the step's cost, or `None`
/// when the guard does not hold (or on overflow).
pub(crate) fn step(t: &Transition, x: &[i128], temps: &[i128]) -> Option<(Vec<i128>, i128)> {
    match checked_step(t, x, temps) {
        Stepped::Next(next, cost) => Some((next, cost)),
        Stepped::Blocked | Stepped::Overflow => None,
    }
}

/// The outcome of [`checked_step`].
enum Stepped {
    Next(Vec<i128>, i128),
    /// A guard is false (or the temporaries do not fit the transition).
    Blocked,
    /// A value left the `i128` range.
    Overflow,
}

/// [`step`], telling a false guard from an overflow.
fn checked_step(t: &Transition, x: &[i128], temps: &[i128]) -> Stepped {
    if temps.len() != t.temps.len() {
        return Stepped::Blocked;
    }
    let mut values = x.to_vec();
    values.extend_from_slice(temps);
    for a in &t.guard {
        match a.holds(&values) {
            Some(true) => {}
            Some(false) => return Stepped::Blocked,
            None => return Stepped::Overflow,
        }
    }
    let next: Option<Vec<i128>> = t.update().iter().map(|u| u.eval(&values)).collect();
    match (next, t.cost.eval(&values)) {
        (Some(next), Some(cost)) => Stepped::Next(next, cost),
        _ => Stepped::Overflow,
    }
}

/// The cost of one lap of `cycle` when every transition's cost is a constant.
fn constant_lap_cost(its: &Its, cycle: &[usize]) -> Option<i128> {
    cycle.iter().try_fold(0i128, |acc, &i| {
        acc.checked_add(its.transitions[i].cost.as_constant()?)
    })
}

/// Follows a non-terminating witness until its cost reaches `goal` (at most `4·goal`
/// laps: a cycle of cost 0 does not count).
fn replay_lasso(its: &Its, w: &Witness, goal: i128) -> bool {
    let mut x = w.start.clone();
    let mut cost: i128 = 0;
    for (k, &i) in w.path.iter().enumerate() {
        let Some((next, c)) = step(&its.transitions[i], &x, &w.path_temps[k]) else {
            return false;
        };
        x = next;
        cost = cost.saturating_add(c);
    }
    if w.cycle.is_empty() || w.cycle.len() != w.cycle_temps.len() {
        return false;
    }
    if w.first_enabled {
        return replay_strategy(its, w, x, cost, goal);
    }
    // A cycle whose values leave the `i128` range before the cost reaches `goal` (T2's
    // `p-46`: `A' = 3·A + 1`) passes after [`nontermination::MIN_LAPS_BEFORE_OVERFLOW`]
    // laps when every lap costs the same constant `≥ 1`: its recurrent set was proved
    // closed over the unbounded integers, so every further lap adds that cost too.
    let overflow_ok = |laps: usize| {
        laps >= nontermination::MIN_LAPS_BEFORE_OVERFLOW
            && constant_lap_cost(its, &w.cycle).is_some_and(|c| c >= 1)
    };
    for lap in 0..4 * goal {
        if cost >= goal {
            return true;
        }
        let lap = usize::try_from(lap).unwrap_or(usize::MAX);
        for (&i, temps) in w.cycle.iter().zip(&w.cycle_temps) {
            let temps: Option<Vec<i128>> = temps.iter().map(|p| p.eval(&x)).collect();
            let Some(temps) = temps else {
                return overflow_ok(lap);
            };
            match checked_step(&its.transitions[i], &x, &temps) {
                Stepped::Next(next, c) => {
                    x = next;
                    cost = cost.saturating_add(c);
                }
                Stepped::Overflow => return overflow_ok(lap),
                Stepped::Blocked => return false,
            }
        }
    }
    cost >= goal
}

/// [`replay_lasso`] for a strategy ([`Witness::first_enabled`]): from `x` at the end of the
/// path, each step takes the first transition of the cycle that leaves the current
/// location and is enabled with its temporaries, until the cost reaches `goal` (at most
/// `4·goal` laps' worth of steps).
fn replay_strategy(its: &Its, w: &Witness, mut x: Vec<i128>, mut cost: i128, goal: i128) -> bool {
    let mut at = w
        .path
        .last()
        .map_or(its.start, |&i| its.transitions[i].target());
    let steps = 4 * goal * w.cycle.len() as i128;
    for _ in 0..steps {
        if cost >= goal {
            return true;
        }
        let next = w.cycle.iter().zip(&w.cycle_temps).find_map(|(&i, temps)| {
            let t = &its.transitions[i];
            if t.source != at {
                return None;
            }
            let temps: Vec<i128> = temps.iter().map(|p| p.eval(&x)).collect::<Option<_>>()?;
            step(t, &x, &temps).map(|(y, c)| (y, c, t.target()))
        });
        let Some((y, c, l)) = next else {
            return false;
        };
        x = y;
        cost = cost.saturating_add(c);
        at = l;
    }
    cost >= goal
}

/// Runs the family for `laps` laps: whether every guard holds and the cost reaches
/// `laps` (`None` on overflow or a malformed witness).
pub fn replay_family(its: &Its, f: &Family, laps: i128) -> Option<bool> {
    let mut x = f.start.clone();
    let mut cost: i128 = 0;
    for (k, &i) in f.path.iter().enumerate() {
        let mut temps = f.path_temps.get(k)?.clone();
        if k == f.param.0 {
            *temps.get_mut(f.param.1)? = f.param_value(laps)?;
            for &j in &f.tied {
                *temps.get_mut(j)? = f.param_value(laps)?;
            }
        }
        let Some((next, c)) = step(&its.transitions[i], &x, &temps) else {
            return Some(false);
        };
        x = next;
        cost = cost.checked_add(c)?;
    }
    for _ in 0..laps {
        for (&i, temps) in f.cycle.iter().zip(&f.cycle_temps) {
            let Some((next, c)) = step(&its.transitions[i], &x, temps) else {
                return Some(false);
            };
            x = next;
            cost = cost.checked_add(c)?;
        }
    }
    Some(cost >= laps)
}

/// The search for a [`Family`]: for each short cycle, each temporary written into a
/// variable the cycle counts, both signs; see the module comment.
fn family(its: &Its, solver: &mut dyn Solver, deadline: Instant) -> Option<Family> {
    let params = parameters(its);
    if params.is_empty() {
        return None;
    }
    let runs = sample_runs(its);
    let mut tried = HashSet::new();
    let mut laps_possible = HashMap::new();
    let mut tries = 0;
    // Cycles that cannot run a lap and one more step from any state are left out before
    // the list is cut to its first [`MAX_CYCLES`] (T2's n_firewire: 60 impossible cycles
    // of three transitions came before the one that counts).
    let mut possible = |c: &[usize]| laps_possible_from_any_state(its, solver, c, c.len() + 1);
    let cycles = simple_cycles(its, &mut possible);
    for found in cycles {
        let relevant = relevant_vars(its, &found);
        for &(t, j) in &params {
            let tr = &its.transitions[t];
            // A temporary chosen on every lap is a constant of the lap, not a length.
            if found.contains(&t) {
                continue;
            }
            let cycle = rotate_towards(its, &found, tr.target());
            let lc = its.transitions[cycle[0]].source;
            // What the cycle counts, as variables after `t`: the way from `t` to the cycle
            // may compute it from others (T2's `new_ex`: `A := E`, then `C := A − 1`).
            let counted = pull_back(its, &relevant, tr.target(), lc);
            let writes = |j: usize| {
                tr.update()
                    .iter()
                    .enumerate()
                    .any(|(v, u)| counted.contains(&v) && u.vars().contains(&(its.arity() + j)))
            };
            if !writes(j) || !tried.insert((cycle.clone(), t, j)) {
                continue;
            }
            // Cycles that cannot run two laps from any state are skipped before they use
            // up the tries (T2's firewire: 54 cycles of three transitions, most of them
            // impossible twice; the one that counts came after 200 tries).
            let repeatable = *laps_possible
                .entry(cycle.clone())
                .or_insert_with(|| twice_possible(its, solver, &cycle));
            if !repeatable {
                continue;
            }
            // The parameter alone, then with the step's other temporaries the cycle counts
            // (each set to the parameter's value).
            let others: Vec<usize> = (0..tr.temps.len())
                .filter(|&o| o != j && writes(o))
                .collect();
            let variants = if others.is_empty() {
                vec![Vec::new()]
            } else {
                vec![Vec::new(), others]
            };
            for (path, k) in paths_through(its, t, lc, &runs) {
                tries += 1;
                if tries > MAX_TRIES || Instant::now() >= deadline || smt::out_of_budget() {
                    return None;
                }
                for tied in &variants {
                    for sign in [1, -1] {
                        let param = (k, j, tied.as_slice());
                        if let Some(f) = try_family(its, solver, &path, param, &cycle, sign) {
                            return Some(f);
                        }
                    }
                }
            }
        }
    }
    None
}

/// Whether some state (with the same temporaries on both laps, as a [`Family`] has) takes
/// `cycle` twice in a row: the part of [`probe`] without the path, so when it is
/// unsatisfiable no parameter or path can give the cycle a family. An unknown answer
/// keeps the cycle.
pub(crate) fn twice_possible(its: &Its, solver: &mut dyn Solver, cycle: &[usize]) -> bool {
    laps_possible_from_any_state(its, solver, cycle, 2 * cycle.len())
}

/// Whether some state takes the first `steps` transitions of `cycle` repeated (the same
/// temporaries on every lap). Two laps of any rotation of a cycle contain one lap of it
/// and its first transition again: `steps = len + 1` is the test before rotating.
pub(crate) fn laps_possible_from_any_state(
    its: &Its,
    solver: &mut dyn Solver,
    cycle: &[usize],
    steps: usize,
) -> bool {
    let n = its.arity();
    let mut x: Vec<Term> = (0..n).map(|v| smt::int_var("lb_r", v)).collect();
    let temps: Vec<Vec<Term>> = cycle
        .iter()
        .enumerate()
        .map(|(k, &i)| {
            (0..its.transitions[i].temps.len())
                .map(|j| smt::int_var(&format!("lb_rc{k}_"), j))
                .collect()
        })
        .collect();
    let mut constraints = Vec::new();
    for (&i, temps) in cycle.iter().zip(&temps).cycle().take(steps) {
        let (guard, next) = step_terms(its, &its.transitions[i], &x, temps);
        constraints.extend(guard);
        x = next;
    }
    !matches!(solver.model(&constraints), Ok(None))
}

/// The temporaries (transition, index) that some update of their transition reads.
fn parameters(its: &Its) -> Vec<(usize, usize)> {
    let n = its.arity();
    let mut out = Vec::new();
    for (i, t) in its.transitions.iter().enumerate() {
        for j in 0..t.temps.len() {
            if t.update().iter().any(|u| u.vars().contains(&(n + j))) {
                out.push((i, j));
            }
        }
    }
    out
}

/// The program variables the cycle's guards and costs depend on, closed under its
/// updates (what the number of laps can depend on).
pub(crate) fn relevant_vars(its: &Its, cycle: &[usize]) -> BTreeSet<usize> {
    let n = its.arity();
    let mut out: BTreeSet<usize> = BTreeSet::new();
    for &i in cycle {
        let t = &its.transitions[i];
        for a in &t.guard {
            out.extend(a.poly.vars().into_iter().filter(|&v| v < n));
        }
        out.extend(t.cost.vars().into_iter().filter(|&v| v < n));
    }
    loop {
        let before = out.len();
        for &i in cycle {
            let u = its.transitions[i].update();
            let more: Vec<usize> = out
                .iter()
                .flat_map(|&v| u[v].vars())
                .filter(|&w| w < n)
                .collect();
            out.extend(more);
        }
        if out.len() == before {
            return out;
        }
    }
}

/// The program variables whose values at `from` the variables `vars` at `to` depend on,
/// along the shortest path from `from` to `to` (`vars` itself when there is none or it
/// is empty).
pub(crate) fn pull_back(
    its: &Its,
    vars: &BTreeSet<usize>,
    from: usize,
    to: usize,
) -> BTreeSet<usize> {
    let n = its.arity();
    let path = graph::shortest_path(its, from, to).unwrap_or_default();
    let mut out = vars.clone();
    for &i in path.iter().rev() {
        let u = its.transitions[i].update();
        out = out
            .iter()
            .flat_map(|&v| u[v].vars())
            .filter(|&w| w < n)
            .collect();
    }
    out
}

/// Elementary cycles of at most [`MAX_CYCLE`] transitions (each found once, from its
/// smallest location), and two different ones from the same location one after the other
/// (T2's `randomwalk_withassume`: `F` goes up on one, down on the other, `C` down on both),
/// shortest first, at most [`MAX_CYCLES`].
pub(crate) fn simple_cycles(
    its: &Its,
    possible: &mut dyn FnMut(&[usize]) -> bool,
) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    for l in 0..its.locations.len() {
        let mut path = Vec::new();
        extend_cycles(its, l, l, &mut path, &mut out);
    }
    let root = |c: &[usize]| its.transitions[c[0]].source;
    let mut pairs = Vec::new();
    for (i, a) in out.iter().enumerate() {
        for b in &out[i + 1..] {
            if root(a) == root(b) && a.len() + b.len() <= MAX_CYCLE {
                pairs.push([a.as_slice(), b].concat());
                pairs.push([b.as_slice(), a].concat());
            }
        }
    }
    out.extend(pairs);
    out.sort_by_key(Vec::len);
    out.into_iter()
        .filter(|c| possible(c))
        .take(MAX_CYCLES)
        .collect()
}

fn extend_cycles(
    its: &Its,
    root: usize,
    at: usize,
    path: &mut Vec<usize>,
    out: &mut Vec<Vec<usize>>,
) {
    if path.len() >= MAX_CYCLE || out.len() >= 4 * MAX_CYCLES {
        return;
    }
    for (i, t) in its.transitions.iter().enumerate() {
        if t.source != at || t.target() < root {
            continue;
        }
        let visited = path
            .iter()
            .any(|&p: &usize| its.transitions[p].source == t.target());
        path.push(i);
        if t.target() == root {
            out.push(path.clone());
        } else if !visited {
            extend_cycles(its, root, t.target(), path, out);
        }
        path.pop();
    }
}

/// The rotation of `cycle` that starts at the location nearest to `from` (the parameter
/// then reaches the cycle by the shortest way, not through an exit of the cycle).
pub(crate) fn rotate_towards(its: &Its, cycle: &[usize], from: usize) -> Vec<usize> {
    let distance = |k: &usize| {
        graph::shortest_path(its, from, its.transitions[cycle[*k]].source)
            .map_or(usize::MAX, |p| p.len())
    };
    let k = (0..cycle.len()).min_by_key(distance).unwrap_or(0);
    [&cycle[k..], &cycle[..k]].concat()
}

/// Paths from the start location through transition `t` (at the returned step) to
/// location `to`: the shortest, then the prefixes of sampled runs up to their first `t`
/// (a loop that must run a few times first: T2's `huh` counts `B` up to 17 before the
/// parameter is chosen), each followed by a shortest path on to `to`.
fn paths_through(its: &Its, t: usize, to: usize, runs: &[Vec<usize>]) -> Vec<(Vec<usize>, usize)> {
    let tr = &its.transitions[t];
    let Some(onward) = graph::shortest_path(its, tr.target(), to) else {
        return Vec::new();
    };
    let mut prefixes: Vec<Vec<usize>> = graph::shortest_path(its, its.start, tr.source)
        .into_iter()
        .collect();
    for run in runs {
        if let Some(k) = run.iter().position(|&i| i == t) {
            if !prefixes.iter().any(|p| p[..] == run[..k]) && prefixes.len() < MAX_PATHS {
                prefixes.push(run[..k].to_vec());
            }
        }
    }
    prefixes
        .into_iter()
        .map(|mut p| {
            let k = p.len();
            p.push(t);
            p.extend_from_slice(&onward);
            (p, k)
        })
        .collect()
}

/// Paths tried per (cycle, parameter): the shortest and those of runs.
pub(crate) const MAX_PATHS: usize = 3;

/// The transitions taken by a few short interpreter runs from small random start values.
pub(crate) fn sample_runs(its: &Its) -> Vec<Vec<usize>> {
    let mut interp = Interpreter::new(its);
    let mut rng = Rng::new(11);
    (1..=RUNS)
        .map(|seed| {
            let hi = [3, 20, 100][seed as usize % 3];
            let start: Vec<i128> = (0..its.arity()).map(|_| rng.range(-hi, hi)).collect();
            let cfg = RunConfig {
                max_steps: RUN_STEPS,
                seed,
                use_solver: false,
                record: true,
                ..RunConfig::default()
            };
            interp.run(&start, &cfg).taken
        })
        .collect()
}

/// Runs sampled for [`paths_through`], and their length.
const RUNS: u64 = 12;
const RUN_STEPS: usize = 300;

/// The symbolic values the search's first query works with.
struct Probe {
    start: Vec<Term>,
    path_temps: Vec<Vec<Term>>,
    cycle_temps: Vec<Vec<Term>>,
    constraints: Vec<Term>,
}

/// Steps `t` symbolically from `x` with `temps`: its guard terms and the new state.
pub(crate) fn step_terms(
    its: &Its,
    t: &Transition,
    x: &[Term],
    temps: &[Term],
) -> (Vec<Term>, Vec<Term>) {
    let n = its.arity();
    let var = |v: usize| {
        if v < n {
            x[v].clone()
        } else {
            temps[v - n].clone()
        }
    };
    let guard = smt::guard_terms(&t.guard, &var);
    let next = t.update().iter().map(|u| smt::poly_term(u, &var)).collect();
    (guard, next)
}

/// What a family's length is chosen by: a temporary of the path (the step, its index, and the step's
/// temporaries tied to it), or a start value.
#[derive(Clone, Copy)]
pub(crate) enum Param<'a> {
    Temp(usize, usize, &'a [usize]),
    Start(usize),
}

/// The first query: start values and temporaries (bounded) such that the path can be
/// taken with the parameter at `sign·PROBE` and the cycle twice after it.
fn probe(its: &Its, path: &[usize], param: Param<'_>, cycle: &[usize], sign: i128) -> Probe {
    let is_param = |k: usize, j: usize| match param {
        Param::Temp(step, index, tied) => k == step && (j == index || tied.contains(&j)),
        Param::Start(_) => false,
    };
    let n = its.arity();
    let big = Term::int(MODEL_BOUND);
    let bounded = |v: &Term| [big.ineg().ile(v), v.ile(&big)];
    let start: Vec<Term> = (0..n)
        .map(|v| match param {
            Param::Start(p) if p == v => Term::int(sign * PROBE),
            _ => smt::int_var("lb_s", v),
        })
        .collect();
    let mut constraints: Vec<Term> = start
        .iter()
        .enumerate()
        .filter(|(v, _)| !matches!(param, Param::Start(p) if p == *v))
        .flat_map(|(_, t)| bounded(t))
        .collect();
    let mut x = start.clone();
    let mut path_temps = Vec::new();
    for (k, &i) in path.iter().enumerate() {
        let t = &its.transitions[i];
        let temps: Vec<Term> = (0..t.temps.len())
            .map(|j| {
                if is_param(k, j) {
                    Term::int(sign * PROBE)
                } else {
                    smt::int_var(&format!("lb_p{k}_"), j)
                }
            })
            .collect();
        for (j, v) in temps.iter().enumerate() {
            if !is_param(k, j) {
                constraints.extend(bounded(v));
            }
        }
        let (guard, next) = step_terms(its, t, &x, &temps);
        constraints.extend(guard);
        x = next;
        path_temps.push(temps);
    }
    let cycle_temps: Vec<Vec<Term>> = cycle
        .iter()
        .enumerate()
        .map(|(k, &i)| {
            (0..its.transitions[i].temps.len())
                .map(|j| smt::int_var(&format!("lb_c{k}_"), j))
                .collect()
        })
        .collect();
    constraints.extend(cycle_temps.iter().flatten().flat_map(bounded));
    for _ in 0..2 {
        for (&i, temps) in cycle.iter().zip(&cycle_temps) {
            let (guard, next) = step_terms(its, &its.transitions[i], &x, temps);
            constraints.extend(guard);
            x = next;
        }
    }
    Probe {
        start,
        path_temps,
        cycle_temps,
        constraints,
    }
}

/// A family through `path` (parameter `param`: the step, its temporary, and the step's
/// temporaries [`Family::tied`] to it; of sign `sign`) and `cycle`, proved by Z3 for every
/// number of laps, or `None`.
fn try_family(
    its: &Its,
    solver: &mut dyn Solver,
    path: &[usize],
    param: (usize, usize, &[usize]),
    cycle: &[usize],
    sign: i128,
) -> Option<Family> {
    let probed = probe_values(
        its,
        solver,
        path,
        Param::Temp(param.0, param.1, param.2),
        cycle,
        sign,
    )?;
    let Probed {
        start,
        path_temps,
        cycle_temps,
        lap,
        steps,
        scale,
    } = probed;
    for shift in SHIFTS {
        let f = Family {
            start: start.clone(),
            path: path.to_vec(),
            path_temps: path_temps.clone(),
            param: (param.0, param.1),
            tied: param.2.to_vec(),
            scale,
            shift,
            cycle: cycle.to_vec(),
            cycle_temps: cycle_temps.clone(),
            steps: steps.clone(),
        };
        if proved(its, solver, &f, &lap) {
            return Some(f);
        }
    }
    None
}

/// The values of a satisfied [`probe`], the cycle as one lap, its per-lap steps, and the scale of
/// the parameter: it moves a counter `|δ|` per lap at most, so `|δ|·L` gives at least `L` laps.
pub(crate) struct Probed {
    pub(crate) start: Vec<i128>,
    pub(crate) path_temps: Vec<Vec<i128>>,
    pub(crate) cycle_temps: Vec<Vec<i128>>,
    pub(crate) lap: Lap,
    pub(crate) steps: Vec<(usize, Option<i128>)>,
    pub(crate) scale: i128,
}

/// Asks the [`probe`] and reads its model: `None` when it is unsatisfiable or the lap has no
/// closed form.
pub(crate) fn probe_values(
    its: &Its,
    solver: &mut dyn Solver,
    path: &[usize],
    param: Param<'_>,
    cycle: &[usize],
    sign: i128,
) -> Option<Probed> {
    let p = probe(its, path, param, cycle, sign);
    let model = solver.model(&p.constraints).ok()??;
    let value = |t: &Term| model.eval(t).ok().and_then(|v| v.as_int());
    let start: Vec<i128> = p.start.iter().map(value).collect::<Option<_>>()?;
    let path_temps: Vec<Vec<i128>> = p
        .path_temps
        .iter()
        .map(|ts| ts.iter().map(value).collect::<Option<Vec<_>>>())
        .collect::<Option<_>>()?;
    let cycle_temps: Vec<Vec<i128>> = p
        .cycle_temps
        .iter()
        .map(|ts| ts.iter().map(value).collect::<Option<Vec<_>>>())
        .collect::<Option<_>>()?;
    let lap = compose(its, cycle, &cycle_temps)?;
    let steps = lap.closed_form(&relevant_vars(its, cycle))?;
    let scale = sign
        * steps
            .iter()
            .filter_map(|(_, d)| *d)
            .map(i128::abs)
            .max()?
            .max(1);
    Some(Probed {
        start,
        path_temps,
        cycle_temps,
        lap,
        steps,
        scale,
    })
}

/// One lap of the cycle as one transition over the program variables: guard, update and
/// cost (the temporaries constants).
pub(crate) struct Lap {
    pub(crate) guard: Vec<Atom>,
    pub(crate) update: Vec<Poly>,
    pub(crate) cost: Poly,
}

pub(crate) fn compose(its: &Its, cycle: &[usize], temps: &[Vec<i128>]) -> Option<Lap> {
    let n = its.arity();
    let mut x: Vec<Poly> = (0..n).map(Poly::var).collect();
    let mut lap = Lap {
        guard: Vec::new(),
        update: Vec::new(),
        cost: Poly::default(),
    };
    for (&i, temps) in cycle.iter().zip(temps) {
        let t = &its.transitions[i];
        let at = |v: usize| {
            if v < n {
                x[v].clone()
            } else {
                Poly::constant(temps.get(v - n).copied().unwrap_or(0))
            }
        };
        for a in &t.guard {
            lap.guard.push(Atom {
                poly: a.poly.substitute(&at),
                rel: a.rel,
            });
        }
        lap.cost = lap.cost.add(&t.cost.substitute(&at));
        x = t.update().iter().map(|u| u.substitute(&at)).collect();
    }
    lap.update = x;
    Some(lap)
}

impl Lap {
    /// The per-lap change of each relevant variable: a constant step or a reset to a
    /// constant; `None` when some relevant variable changes otherwise.
    pub(crate) fn closed_form(
        &self,
        relevant: &BTreeSet<usize>,
    ) -> Option<Vec<(usize, Option<i128>)>> {
        relevant
            .iter()
            .map(|&v| {
                let u = &self.update[v];
                if let Some(d) = u.sub(&Poly::var(v)).as_constant() {
                    Some((v, Some(d)))
                } else {
                    u.as_constant().map(|_| (v, None))
                }
            })
            .collect()
    }
}

/// Whether Z3 proves the family for every `L ≥ 1`: the path's guards hold and its costs
/// are non-negative with the parameter at `scale·(L + shift)`, and for each `k < L` the
/// lap's guard holds at the closed-form state `x_k` and the lap costs at least 1.
fn proved(its: &Its, solver: &mut dyn Solver, f: &Family, lap: &Lap) -> bool {
    let l = Poly::var(0);
    let start: Vec<Poly> = f.start.iter().map(|&c| Poly::constant(c)).collect();
    let temp = |k: usize, j: usize| -> Poly {
        if k == f.param.0 && (j == f.param.1 || f.tied.contains(&j)) {
            l.add(&Poly::constant(f.shift)).scale(f.scale)
        } else {
            Poly::constant(f.path_temps[k][j])
        }
    };
    proved_from(its, solver, start, &f.path, &temp, &f.steps, lap)
}

/// [`proved`] for a run from `start` (polynomials over `L`, variable 0) along `path`, whose step `k`
/// takes the temporaries `temp(k, j)`, then the lap `L` times, moving as `steps` say.
pub(crate) fn proved_from(
    its: &Its,
    solver: &mut dyn Solver,
    start: Vec<Poly>,
    path: &[usize],
    temp: &dyn Fn(usize, usize) -> Poly,
    steps: &[(usize, Option<i128>)],
    lap: &Lap,
) -> bool {
    let n = its.arity();
    let mut x = start;
    let mut must: Vec<Atom> = Vec::new();
    for (k, &i) in path.iter().enumerate() {
        let t = &its.transitions[i];
        let at = |v: usize| if v < n { x[v].clone() } else { temp(k, v - n) };
        for a in &t.guard {
            must.push(Atom {
                poly: a.poly.substitute(&at),
                rel: a.rel,
            });
        }
        must.push(Atom::ge0(t.cost.substitute(&at)));
        x = t.update().iter().map(|u| u.substitute(&at)).collect();
    }
    let at_lap = |state: &[Poly]| -> Vec<Atom> {
        let at = |v: usize| state[v].clone();
        let mut atoms: Vec<Atom> = lap
            .guard
            .iter()
            .map(|a| Atom {
                poly: a.poly.substitute(&at),
                rel: a.rel,
            })
            .collect();
        atoms.push(Atom::ge0(lap.cost.substitute(&at).sub(&Poly::constant(1))));
        atoms
    };
    must.extend(at_lap(&x));
    // The state before lap `k ≥ 1`: steps from `x_0`, resets at their constant.
    let mut xk = x.clone();
    for &(v, d) in steps {
        xk[v] = match d {
            Some(d) => x[v].add(&Poly::var(1).scale(d)),
            None => lap.update[v].clone(),
        };
    }
    let later = at_lap(&xk);
    let var = |v: usize| smt::int_var(if v == 0 { "lb_L" } else { "lb_k" }, 0);
    let terms = |atoms: &[Atom]| Term::and_all(&smt::guard_terms(atoms, &var));
    let one = Term::int(1);
    let (lt, kt) = (var(0), var(1));
    let first = solver.must_be_true(&[one.ile(&lt)], &terms(&must));
    let rest = solver.must_be_true(&[one.ile(&kt), kt.iadd(&one).ile(&lt)], &terms(&later));
    matches!((first, rest), (Ok(true), Ok(true)))
}
