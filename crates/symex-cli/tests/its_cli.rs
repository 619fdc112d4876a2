//! `symex its`: answers, exit statuses and output formats of `spec/cli.md`.
mod common;

use common::symex;
use std::io::Write;
use std::process::Command;

/// `symex its` whose solver queries end by Z3's step count, not by a time limit: the answers
/// these tests expect then do not depend on the machine's load.
fn its() -> Command {
    let mut c = symex();
    c.args(["its", "--solver-rlimit", "5000000"]);
    c
}

fn koat(dir: &tempfile::TempDir, name: &str, text: &str) -> std::path::PathBuf {
    let p = dir.path().join(name);
    std::fs::File::create(&p)
        .unwrap()
        .write_all(text.as_bytes())
        .unwrap();
    p
}

const COUNT: &str = "(GOAL COMPLEXITY)\n(STARTTERM (FUNCTIONSYMBOLS l0))\n(VAR X N)\n(RULES\n  l0(X,N) -> l1(X,N)\n  l1(X,N) -> l1(X + 1,N) :|: X < N\n)\n";

#[test]
fn bound_termination_and_json() {
    let dir = tempfile::tempdir().unwrap();
    let f = koat(&dir, "count.koat", COUNT);
    let out = its().args(["--quiet"]).arg(&f).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        "WORST_CASE(Omega(n^1), O(n^1))"
    );

    let out = its()
        .args(["--goal", "termination", "--json"])
        .arg(&f)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["answer"], "YES");
    assert!(v["proof"][0]["ranking_functions"][0]["function"]["l1"].is_string());

    let out = its().args(["--json"]).arg(&f).output().unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["bound"], "O(n)");
    assert!(v["expression"].as_str().unwrap().contains("|N|"));
    // The linear lower bound's family, checked by hand: from X = x and N = n the loop
    // `X < N: X + 1` runs max(n - x, 0) times after the first rule, one unit each; with the
    // parameter's variable at scale*(L + shift) the cost must reach L while the start state's size
    // |x| + |n| grows linearly in L.
    assert_eq!(v["lower_bound"], "n^1", "{v}");
    let w = &v["lower_witness"];
    let int = |x: &serde_json::Value| x.as_str().unwrap().parse::<i128>().unwrap();
    let (scale, shift) = (int(&w["parameter"]["scale"]), int(&w["parameter"]["shift"]));
    let var = w["parameter"]["variable"].as_str().unwrap();
    for laps in [1, 2, 10, 1000] {
        let value = |name: &str| {
            if name == var {
                scale * (laps + shift)
            } else {
                int(&w["start"][name])
            }
        };
        let (x, n) = (value("X"), value("N"));
        assert!(1 + (n - x).max(0) >= laps, "{v}");
        let fixed = if var == "X" {
            int(&w["start"]["N"])
        } else {
            int(&w["start"]["X"])
        };
        assert!(
            x.abs() + n.abs() <= scale.abs() * (laps + shift.abs()) + fixed.abs(),
            "{v}"
        );
    }
}

#[test]
fn syntax_error_names_line_and_column() {
    let dir = tempfile::tempdir().unwrap();
    let f = koat(&dir, "bad.koat", &COUNT.replace("X + 1,N)", "X + ,N)"));
    let out = its().arg(&f).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("bad.koat:6:21"), "{err}");
}

#[test]
fn print_and_dot() {
    let dir = tempfile::tempdir().unwrap();
    let f = koat(&dir, "count.koat", COUNT);
    let out = its().args(["--print-koat"]).arg(&f).output().unwrap();
    let printed = String::from_utf8_lossy(&out.stdout);
    assert!(
        printed.contains("l1(X,N) -> l1(X + 1,N) :|: N >= X + 1"),
        "{printed}"
    );
    let out = its().args(["--dot"]).arg(&f).output().unwrap();
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("digraph"));
}

#[test]
fn out_of_time_is_maybe_with_reason_timeout() {
    let dir = tempfile::tempdir().unwrap();
    let f = koat(&dir, "count.koat", COUNT);
    // A budget of a microsecond has passed before the first solver query.
    for goal in ["complexity", "termination"] {
        let out = its()
            .args(["--goal", goal, "--max-time", "0.000001"])
            .arg(&f)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(3), "{goal}");
        let text = String::from_utf8_lossy(&out.stdout);
        let mut lines = text.lines();
        assert_eq!(lines.next(), Some("MAYBE"));
        assert!(
            lines.next().unwrap().starts_with("reason: timeout"),
            "{text}"
        );
    }
    // `--timeout` is the same budget; a sufficient one changes nothing.
    let out = its()
        .args(["--quiet", "--timeout", "600"])
        .arg(&f)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        "WORST_CASE(Omega(n^1), O(n^1))"
    );
}

const MC91: &str = "(GOAL COMPLEXITY)\n(STARTTERM (FUNCTIONSYMBOLS f0))\n(VAR A B C)\n(RULES\n  f0(A,B) -> Com_1(f1(C,1))\n  f1(A,B) -> Com_1(f1(A - 10,B - 1)) :|: B >= 1 && A >= 101\n  f1(A,B) -> Com_1(f1(A + 11,B + 1)) :|: B >= 1 && 100 >= A\n)\n";

const LOOP: &str = "(GOAL COMPLEXITY)\n(STARTTERM (FUNCTIONSYMBOLS l0))\n(VAR X Y)\n(RULES\n  l0(X,Y) -> l1(X,Y)\n  l1(X,Y) -> l1(X + 1,Y) :|: X >= Y\n)\n";

#[test]
fn unbounded_runtime_is_non_poly_with_exit_1() {
    let dir = tempfile::tempdir().unwrap();
    // A temporary sets the counter (T2's mc91), and a loop that never stops.
    for (file, text, kind) in [
        ("mc91.koat", MC91, "runs of every length"),
        ("loop.koat", LOOP, "non-terminating"),
    ] {
        let f = koat(&dir, file, text);
        let out = its().arg(&f).output().unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(1), "{stdout}");
        let mut lines = stdout.lines();
        assert_eq!(lines.next(), Some("WORST_CASE(NON_POLY, ?)"));
        let second = lines.next().unwrap();
        assert!(
            second.starts_with("lower bound: unbounded") && second.contains(kind),
            "{stdout}"
        );
        assert!(
            stdout.contains("replayed: the run reaches cost >= n"),
            "{stdout}"
        );

        let out = its().args(["--json"]).arg(&f).output().unwrap();
        assert_eq!(out.status.code(), Some(1));
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert!(v["bound"].is_null(), "{v}");
        assert_eq!(v["lower_bound"], "INF");
        assert!(v["witness"]["start"].is_object(), "{v}");
    }
    // mc91's witness names the temporary and the loop counting up from it.
    let f = koat(&dir, "mc91.koat", MC91);
    let out = its().args(["--json"]).arg(&f).output().unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(
        v["witness"]["parameter"]
            .as_str()
            .unwrap()
            .starts_with("C of t0 := -"),
        "{v}"
    );
}

/// The competition's grammar has no word for an exponential bound: the first line says `?`
/// on the upper side, and the bound follows as a class and an expression.
#[test]
fn an_exponential_bound_is_a_question_mark_in_the_first_line() {
    let dir = tempfile::tempdir().unwrap();
    let f = koat(
        &dir,
        "double.koat",
        "(GOAL COMPLEXITY)\n(STARTTERM (FUNCTIONSYMBOLS l0))\n(VAR X I N)\n(RULES\n  l0(X,I,N) -> l1(X,0,N)\n  l1(X,I,N) -> l1(2 * X,I + 1,N) :|: I < N\n  l1(X,I,N) -> l2(X,I,N) :|: I >= N\n  l2(X,I,N) -> l2(X - 1,I,N) :|: X > 0\n)\n",
    );
    let out = its().arg(&f).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    let mut lines = text.lines();
    // The lower side: from `N = L` the loop over `I` runs `L` times.
    assert_eq!(lines.next(), Some("WORST_CASE(Omega(n^1), ?)"));
    assert_eq!(lines.next(), Some("class: O(EXP)"));
    let out = its().args(["--json"]).arg(&f).output().unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["answer"], "WORST_CASE(Omega(n^1), ?)");
    assert_eq!(v["bound"], "O(EXP)");
}

/// Every first line `its`, `term` and `cost` print on the repository's examples is in the
/// Termination Competition's grammar, read by a parser written apart from the printer.
#[test]
fn first_lines_follow_the_competitions_grammar() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut checked = 0;
    for (cmd, dir, ext) in [
        ("its", "examples/its", "koat"),
        ("term", "examples/term", "c"),
        ("cost", "examples/cost", "c"),
    ] {
        let Ok(entries) = std::fs::read_dir(root.join(dir)) else {
            continue;
        };
        let mut files: Vec<_> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|e| e == ext))
            .collect();
        files.sort();
        for f in files.iter().take(6) {
            let out = symex()
                .args([cmd, "--quiet", "--max-time", "20"])
                .arg(f)
                .output()
                .unwrap();
            let text = String::from_utf8_lossy(&out.stdout);
            let first = text.lines().next().unwrap_or("");
            assert!(
                grammatical(first),
                "{cmd} {}: first line `{first}` is outside the grammar",
                f.display()
            );
            checked += 1;
        }
    }
    assert!(checked >= 6, "only {checked} examples checked");
}

/// `YES | NO | MAYBE | WORST_CASE(L, U)`, `L -> ? | Omega(n^Nat) | NON_POLY`,
/// `U -> ? | O(1) | O(n^Nat) | POLY` (Nat without leading zeros).
fn grammatical(line: &str) -> bool {
    fn nat(s: &str) -> bool {
        !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) && (s == "0" || !s.starts_with('0'))
    }
    fn power(s: &str, head: &str) -> bool {
        s.strip_prefix(head)
            .and_then(|r| r.strip_suffix(')'))
            .is_some_and(nat)
    }
    if matches!(line, "YES" | "NO" | "MAYBE") {
        return true;
    }
    let Some((l, u)) = line
        .strip_prefix("WORST_CASE(")
        .and_then(|r| r.strip_suffix(')'))
        .and_then(|r| r.split_once(", "))
    else {
        return false;
    };
    let lower = matches!(l, "?" | "NON_POLY" | "Omega(1)") || power(l, "Omega(n^");
    let upper = matches!(u, "?" | "POLY" | "O(1)") || power(u, "O(n^");
    lower && upper
}

/// `O(1)` with its tight lower side: `constant.koat` runs `start` once (when `X >= 0`) and `loop`
/// three times; the witness is a start state that enables the first step.
#[test]
fn a_constant_bound_gets_omega_1_from_a_first_step() {
    let f = common::example("its", "constant.koat");
    let out = its().args(["--json"]).arg(&f).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["answer"], "WORST_CASE(Omega(1), O(1))");
    assert_eq!(v["expression"], "4");
    assert_eq!(v["lower_bound"], "1");
    let x: i64 = v["lower_witness"]["start"]["X"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!(x >= 0, "the first step needs X >= 0: {v}");
}

/// Recursion (`Com_k`, k ≥ 2): runs are trees, and the expected answers are counted by hand.
/// `recursion_linear.koat` from `X = n ≥ 0` uses `start` once, `f` n times and `g` n + (n − 1) + … + 1
/// times: `1 + n + n(n + 1)/2` uses. A bound that counted one branch (a path) would be linear.
#[test]
fn recursive_runs_are_trees() {
    let linear = common::example("its", "recursion_linear.koat");
    let out = its().args(["--json"]).arg(&linear).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["answer"], "WORST_CASE(Omega(n^1), O(n^2))");
    assert_eq!(v["recursion"], "linear");
    let bound = v["expression"].as_str().unwrap();
    for n in 0..=30i128 {
        let uses = 1 + n + n * (n + 1) / 2;
        assert!(
            eval_bound(bound, n) >= uses,
            "{bound} at X = {n} is below {uses}"
        );
    }
    let out = its()
        .args(["--goal", "termination", "--quiet"])
        .arg(&linear)
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "YES");

    // f(X) -> Com_2(f(X - 1), f(X - 1)): 2^n − 1 uses from X = n.
    let twice = common::example("its", "recursion_twice.koat");
    let out = its().args(["--json"]).arg(&twice).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["answer"], "WORST_CASE(NON_POLY, ?)");
    assert_eq!(v["recursion"], "branching");
    assert_eq!(v["tree_witness"]["twins"], serde_json::json!([0, 1]));
    let out = its()
        .args(["--goal", "termination", "--quiet"])
        .arg(&twice)
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "YES");

    // One branch of the tree runs g(X) -> g(X + 1) from X = 5 forever.
    let diverges = common::example("its", "recursion_diverges.koat");
    let out = its().args(["--quiet"]).arg(&diverges).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "NO");
}

/// The value of a printed bound in the one variable `X` (`|X| + |X|^2 + 1`), with `Y = 0`.
fn eval_bound(bound: &str, x: i128) -> i128 {
    bound
        .split(" + ")
        .map(|term| {
            let (coeff, rest) = match term.split_once('*') {
                Some((c, r)) if c.parse::<i128>().is_ok() => (c.parse().unwrap(), r),
                _ => (1, term),
            };
            let power = match rest {
                "|X|" => x.abs(),
                "|X|^2" => x * x,
                "|Y|" => 0,
                c => c
                    .parse::<i128>()
                    .unwrap_or_else(|_| panic!("term {term} of {bound}")),
            };
            coeff * power
        })
        .sum()
}

/// Nested loops get the tight `Omega(n^2)`. The runs are counted by hand from the files, not by
/// symex: from `N = n ≥ 0` (the other start values do not matter, `I` and `J` are set before they
/// are read) `nested.koat` takes `l0` once and, for each of the n values of `I`, one step into the
/// inner loop, n inner steps and one step out: `1 + n(n + 2)` steps; `triangle.koat` starts the
/// inner loop at `J = I`: `1 + Σ_{i<n} (2 + n − i) = 1 + 2n + n(n + 1)/2`. The witness's start
/// states must be of linear size in `L` and its claimed least cost (half of `twice_min_cost`,
/// quadratic in `L`) at most the counted length.
#[test]
fn nested_loops_get_a_quadratic_lower_bound() {
    type Counted = fn(i128) -> i128;
    let steps: [(&str, Counted); 2] = [
        ("nested.koat", |n| 1 + n * (n + 2)),
        ("triangle.koat", |n| 1 + 2 * n + n * (n + 1) / 2),
    ];
    for (file, counted) in steps {
        let f = common::example("its", file);
        let out = its().args(["--json"]).arg(&f).output().unwrap();
        assert_eq!(out.status.code(), Some(0));
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(v["answer"], "WORST_CASE(Omega(n^2), O(n^2))", "{file}: {v}");
        assert_eq!(v["lower_bound"], "n^2");
        let w = &v["lower_witness"];
        let int = |x: &serde_json::Value| x.as_str().unwrap().parse::<i128>().unwrap();
        let affine = |name: &str| {
            let pair = w["start_affine"][name].as_array().unwrap();
            (int(&pair[0]), int(&pair[1]))
        };
        let twice: Vec<i128> = w["twice_min_cost"]
            .as_array()
            .unwrap()
            .iter()
            .map(int)
            .collect();
        assert!(twice[2] > 0, "{file}: {v}");
        let (a, b) = affine("N");
        assert!(a != 0, "N must grow with L: {v}");
        for l in [1, 2, 5, 30, 200] {
            let n = a * l + b;
            let claimed = (twice[0] + twice[1] * l + twice[2] * l * l + 1) / 2;
            assert!(n >= 0 && claimed <= counted(n), "{file} at L = {l}: {v}");
        }
    }
}

/// pasta's `a.03` (FGPSF09): `O(n^2)`, which the first attempt's SCC-wide ranking functions
/// give at once (a first bound `O(n^3)` and a refinement before them).
const PASTA_A03: &str = "(GOAL COMPLEXITY)\n(STARTTERM (FUNCTIONSYMBOLS eval1))\n(VAR A B C D)\n(RULES\n  eval1(A,B,C,D) -> Com_1(eval2(A - 1,B,C,D)) :|: A >= 2\n  eval1(A,B,C,D) -> Com_1(eval2(A,B - 1,C,D)) :|: 1 >= A\n  eval2(A,B,C,D) -> Com_1(eval3(A,B,A,2*A)) :|: B >= 2\n  eval3(A,B,C,D) -> Com_1(eval4(A,B,C,D)) :|: B >= D && B >= 1 + D\n  eval3(A,B,C,D) -> Com_1(eval4(A,B,C,D + 1)) :|: B >= D && B >= 1 + D\n  eval3(A,B,C,D) -> Com_1(eval3(A,B,D,2*D)) :|: B >= D && B >= 1 + D && D >= 1\n  eval3(A,B,C,D) -> Com_1(eval3(A,B,D + 1,2*D + 2)) :|: B >= D && B >= 1 + D && D >= 1\n  eval3(A,B,C,D) -> Com_1(eval4(A,B,C,D)) :|: B = D\n  eval3(A,B,C,D) -> Com_1(eval3(A,B,D,2*D)) :|: D >= 1 && B = D\n  eval4(A,B,C,D) -> Com_1(eval2(A - 1,B,C,D)) :|: A >= 2 && A >= 1 && B >= 2\n  eval4(A,B,C,D) -> Com_1(eval2(A,B - 1,C,D)) :|: B >= 2 && A = 1\n)\n";

/// The degree of the upper side of a first line: `O(1)` 0, `O(n^k)` k, else `None`.
fn upper_degree(first: &str) -> Option<u32> {
    let upper = first.strip_suffix(')')?.rsplit_once(", ")?.1;
    match upper {
        "O(1)" => Some(0),
        _ => upper.strip_prefix("O(n^")?.strip_suffix(')')?.parse().ok(),
    }
}

/// When the deadline passes while the search for a lower degree is at work, the answer is the
/// best bound found by then (exit 0), not `MAYBE`. The deadline is put at a count of the
/// prover's solver queries (`SYMEX_ITS_STALL_QUERIES`: the prover then stops as if busy between
/// queries and the watchdog answers), so where the search stands does not depend on the load.
/// Over growing counts the answers go from `MAYBE` to bounds that never get worse, up to the
/// `O(n^2)` that the run without a deadline prints.
#[test]
fn the_deadline_prints_the_best_bound_found() {
    let dir = tempfile::tempdir().unwrap();
    let f = koat(&dir, "a03.koat", PASTA_A03);
    let whole = its().arg(&f).output().unwrap();
    assert_eq!(whole.status.code(), Some(0));
    let whole = String::from_utf8_lossy(&whole.stdout).to_string();
    let whole_first = whole.lines().next().unwrap().to_string();
    assert_eq!(upper_degree(&whole_first), Some(2), "{whole}");
    let mut answers: Vec<(u64, String)> = Vec::new();
    let mut n = 1u64;
    loop {
        let out = its()
            .env("SYMEX_ITS_STALL_QUERIES", n.to_string())
            .arg(&f)
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout).to_string();
        let mut lines = text.lines();
        let first = lines.next().unwrap_or("").to_string();
        let reason = lines.next().unwrap_or("");
        if !reason.starts_with("reason: timeout") {
            // The count was not reached: the run ended on its own.
            assert_eq!(text, whole, "at {n} queries");
            break;
        }
        assert!(grammatical(&first), "at {n} queries: {text}");
        match upper_degree(&first) {
            None => assert_eq!((first.as_str(), out.status.code()), ("MAYBE", Some(3))),
            Some(_) => assert_eq!(out.status.code(), Some(0), "at {n} queries: {text}"),
        }
        answers.push((n, first));
        n *= 2;
        assert!(n < 1_000_000, "the search asks too many queries");
    }
    let degrees: Vec<Option<u32>> = answers.iter().map(|(_, f)| upper_degree(f)).collect();
    // Better with more queries: MAYBE (None) first, then degrees that never grow.
    let never_worse = degrees.windows(2).all(|w| match (w[0], w[1]) {
        (None, _) => true,
        (Some(_), None) => false,
        (Some(a), Some(b)) => b <= a,
    });
    assert!(never_worse, "{answers:?}");
    assert!(degrees.contains(&None), "{answers:?}");
    // The best bound found by then, not MAYBE, once one is found (the first attempt's SCC-wide
    // ranking functions give the whole run's degree 2 here at once).
    assert!(
        degrees.iter().any(Option::is_some),
        "no bound was printed at the deadline: {answers:?}"
    );
}

/// An inner loop entered once per outer lap: the termination proof ranks it alone (a bound of
/// outer laps × value per entry, `O(n²)`), and the linear bound comes from a function found
/// after it, non-increasing on the whole SCC, which the output must name (the proof's own
/// functions would not justify the bound). The function itself is checked state by state in
/// symex-its' `tests/scc_wide_step.rs`; `scripts/test.sh` replays the bound with
/// `bench/its_check.py`.
#[test]
fn a_bound_from_a_function_found_after_the_proof_names_it() {
    let f = common::example("its", "laps.koat");
    let out = its().args(["--json"]).arg(&f).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["answer"], "WORST_CASE(Omega(n^1), O(n^1))", "{v}");
    let used = v["bound_functions"].as_array().unwrap();
    let wide = used
        .iter()
        .find(|u| u["rule"] == "SCC-wide")
        .unwrap_or_else(|| panic!("no SCC-wide function: {v}"));
    let function = wide["function"].as_object().unwrap();
    assert!(
        function.contains_key("outer") && function.contains_key("inner"),
        "{v}"
    );
    assert_eq!(
        wide["non_increasing_on"].as_array().unwrap().len(),
        4,
        "{v}"
    );
    let text = its().arg(&f).output().unwrap();
    let text = String::from_utf8(text.stdout).unwrap();
    assert!(
        text.contains("(SCC-wide; non-increasing on t1, t2, t3, t4)"),
        "{text}"
    );
}
