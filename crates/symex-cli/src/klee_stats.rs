//! KLEE's statistics: `run.stats` (an SQLite database with KLEE's `stats` table, which `klee-stats` reads)
//! and `symex stats DIR…`, which prints `klee-stats`' table from it.

use clap::Args;
use std::path::{Path, PathBuf};
use symex_explore::Summary;
use symex_ir::Terminator;

/// One row of KLEE's `stats` table: the columns symex measures (times in microseconds, as KLEE stores
/// them). Columns symex does not measure are absent, so `klee-stats` shows no number for them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Record {
    pub instructions: u64,
    pub full_branches: u64,
    pub partial_branches: u64,
    pub num_branches: u64,
    pub user_time_us: u64,
    pub wall_time_us: u64,
    pub queries: u64,
    pub solver_time_us: u64,
    pub covered_instructions: u64,
    pub uncovered_instructions: u64,
    pub states: u64,
    pub termination_exit: u64,
    pub termination_early: u64,
    pub termination_program_error: u64,
}

/// The columns of [`Record`], as KLEE names them.
const COLUMNS: [&str; 14] = [
    "Instructions",
    "FullBranches",
    "PartialBranches",
    "NumBranches",
    "UserTime",
    "WallTime",
    "Queries",
    "SolverTime",
    "CoveredInstructions",
    "UncoveredInstructions",
    "States",
    "TerminationExit",
    "TerminationEarly",
    "TerminationProgramError",
];

impl Record {
    fn values(&self) -> [u64; 14] {
        [
            self.instructions,
            self.full_branches,
            self.partial_branches,
            self.num_branches,
            self.user_time_us,
            self.wall_time_us,
            self.queries,
            self.solver_time_us,
            self.covered_instructions,
            self.uncovered_instructions,
            self.states,
            self.termination_exit,
            self.termination_early,
            self.termination_program_error,
        ]
    }

    /// The record of a finished exploration of `prog`. Coverage counts IR instructions (a terminator is
    /// one) of covered blocks; a conditional branch is fully covered when both its successors were
    /// covered, partially when one was (KLEE counts the directions taken from the branch itself: a
    /// successor also reached from elsewhere counts here).
    pub fn of(prog: &symex_engine::Program, s: &Summary) -> Record {
        let mut r = Record {
            instructions: s.instructions,
            user_time_us: user_time_us(),
            wall_time_us: s.time.as_micros() as u64,
            queries: s.queries,
            solver_time_us: s.solver_time.as_micros() as u64,
            states: s.completed + s.errors + s.cut,
            termination_exit: s.completed,
            termination_early: s.cut,
            termination_program_error: s.errors,
            ..Record::default()
        };
        for (fi, f) in prog.module().functions.iter().enumerate() {
            let Some(body) = &f.body else { continue };
            let hit = |b: u32| s.covered.contains(&(fi as u32, b));
            for (bi, b) in body.blocks.iter().enumerate() {
                let n = b.insts.len() as u64 + 1;
                if hit(bi as u32) {
                    r.covered_instructions += n;
                } else {
                    r.uncovered_instructions += n;
                }
                if let Terminator::CondBr {
                    if_true, if_false, ..
                } = &b.term
                {
                    r.num_branches += 1;
                    if hit(bi as u32) {
                        match (hit(if_true.to.0), hit(if_false.to.0)) {
                            (true, true) => r.full_branches += 1,
                            (true, false) | (false, true) => r.partial_branches += 1,
                            (false, false) => {}
                        }
                    }
                }
            }
        }
        r
    }
}

/// The processor time this process spent in user mode, in microseconds.
fn user_time_us() -> u64 {
    // SAFETY: getrusage fills the zeroed struct we own.
    unsafe {
        let mut ru: libc::rusage = std::mem::zeroed();
        if libc::getrusage(libc::RUSAGE_SELF, &mut ru) != 0 {
            return 0;
        }
        ru.ru_utime.tv_sec as u64 * 1_000_000 + ru.ru_utime.tv_usec as u64
    }
}

/// Writes `run.stats`: KLEE's `stats` table with one row.
pub fn write(path: &Path, r: &Record) -> Result<(), String> {
    let _ = std::fs::remove_file(path);
    let db = rusqlite::Connection::open(path).map_err(|e| e.to_string())?;
    let cols: Vec<String> = COLUMNS.iter().map(|c| format!("{c} INTEGER")).collect();
    db.execute(&format!("CREATE TABLE stats ({})", cols.join(",")), [])
        .map_err(|e| e.to_string())?;
    let marks = vec!["?"; COLUMNS.len()].join(",");
    let values = r.values().map(|v| v as i64);
    db.execute(
        &format!("INSERT INTO stats ({}) VALUES ({marks})", COLUMNS.join(",")),
        rusqlite::params_from_iter(values),
    )
    .map_err(|e| e.to_string())?;
    Ok(())
}

/// Reads the last row of a `run.stats` (KLEE's or symex's), by column name.
fn read(path: &Path) -> Result<std::collections::HashMap<String, f64>, String> {
    let db =
        rusqlite::Connection::open_with_flags(path, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
            .map_err(|e| format!("{}: {e}", path.display()))?;
    let mut stmt = db
        .prepare("SELECT * FROM stats ORDER BY rowid DESC LIMIT 1")
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let names: Vec<String> = stmt.column_names().iter().map(|s| s.to_string()).collect();
    let mut rows = stmt.query([]).map_err(|e| e.to_string())?;
    let mut out = std::collections::HashMap::new();
    if let Some(row) = rows.next().map_err(|e| e.to_string())? {
        for (i, n) in names.iter().enumerate() {
            let v: Option<f64> = row.get::<_, Option<f64>>(i).ok().flatten();
            if let Some(v) = v {
                out.insert(n.clone(), v);
            }
        }
    }
    Ok(out)
}

#[derive(Args, Debug)]
pub struct StatsArgs {
    /// Output directories of `symex run` (or KLEE), or directories holding them.
    #[arg(required = true)]
    pub dirs: Vec<PathBuf>,
}

/// The output directories among `dirs` and below them: those with `info` and `run.stats`, as
/// `klee-stats` finds them.
fn out_dirs(dirs: &[PathBuf]) -> Vec<PathBuf> {
    fn valid(d: &Path) -> bool {
        d.join("info").is_file() && d.join("run.stats").is_file()
    }
    fn walk(d: &Path, out: &mut Vec<PathBuf>) {
        let Ok(rd) = std::fs::read_dir(d) else { return };
        let mut subs: Vec<PathBuf> = rd
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.is_dir() && !p.is_symlink())
            .collect();
        subs.sort();
        for s in subs {
            if valid(&s) {
                out.push(s.clone());
            }
            walk(&s, out);
        }
    }
    let mut out = Vec::new();
    for d in dirs {
        if valid(d) {
            out.push(d.clone());
        } else {
            walk(d, &mut out);
        }
    }
    out
}

/// `klee-stats`' default columns of one directory: Instrs, Time(s), ICov(%), BCov(%), ICount, TSolver(%).
fn row(stats: &std::collections::HashMap<String, f64>) -> [Option<f64>; 6] {
    let get = |k: &str| stats.get(k).copied();
    let wall = get("WallTime").map(|t| t / 1e6);
    let icount = match (get("CoveredInstructions"), get("UncoveredInstructions")) {
        (Some(c), Some(u)) => Some(c + u),
        _ => None,
    };
    let icov = match (get("CoveredInstructions"), icount) {
        (Some(c), Some(n)) if n > 0.0 => Some(100.0 * c / n),
        _ => None,
    };
    let bcov = match (
        get("FullBranches"),
        get("PartialBranches"),
        get("NumBranches"),
    ) {
        (Some(f), Some(p), Some(n)) if n > 0.0 => Some(100.0 * (2.0 * f + p) / (2.0 * n)),
        (Some(_), Some(_), Some(_)) => Some(100.0),
        _ => None,
    };
    let tsolver = match (get("SolverTime"), wall) {
        (Some(s), Some(w)) if w > 0.0 => Some(100.0 * s / 1e6 / w),
        _ => None,
    };
    [get("Instructions"), wall, icov, bcov, icount, tsolver]
}

const HEADERS: [&str; 7] = [
    "Path",
    "Instrs",
    "Time(s)",
    "ICov(%)",
    "BCov(%)",
    "ICount",
    "TSolver(%)",
];

/// Whether column `c` (after Path) holds integers (klee-stats prints those without decimals).
fn integral(c: usize) -> bool {
    matches!(c, 0 | 4)
}

fn cell(c: usize, v: Option<f64>) -> String {
    match v {
        None => String::new(),
        Some(v) if integral(c) => format!("{}", v.round() as i64),
        Some(v) => format!("{v:.2}"),
    }
}

/// The table as `klee-stats` prints it (tabulate with KLEE's format: dashes above, below the header and
/// at the end; `|` between cells; numbers right-aligned, paths centred; a column is as wide as its
/// widest cell, at least its header plus 2).
pub fn table(rows: &[(String, [Option<f64>; 6])]) -> String {
    let mut cells: Vec<Vec<String>> = rows
        .iter()
        .map(|(p, r)| {
            std::iter::once(p.clone())
                .chain(r.iter().enumerate().map(|(c, v)| cell(c, *v)))
                .collect()
        })
        .collect();
    if rows.len() > 1 {
        let mut total = vec![format!("Total ({})", rows.len())];
        for c in 0..6 {
            let vals: Vec<f64> = rows.iter().filter_map(|(_, r)| r[c]).collect();
            let sum: f64 = vals.iter().sum();
            // Percentages are averaged over the directories, as klee-stats does; the rest summed.
            let v = if HEADERS[c + 1].ends_with("(%)") {
                sum / rows.len() as f64
            } else {
                sum
            };
            total.push(cell(c, Some(v)));
        }
        cells.push(total);
    }
    let widths: Vec<usize> = (0..7)
        .map(|c| {
            cells
                .iter()
                .map(|r| r[c].chars().count())
                .max()
                .unwrap_or(0)
                .max(HEADERS[c].len() + 2)
        })
        .collect();
    let centre = |s: &str, w: usize| {
        let fill = w.saturating_sub(s.chars().count());
        format!("{}{s}{}", " ".repeat(fill / 2), " ".repeat(fill - fill / 2))
    };
    let line = |r: &[String]| {
        let parts: Vec<String> = r
            .iter()
            .enumerate()
            .map(|(c, s)| match c {
                0 => centre(s, widths[0]),
                _ => format!("{s:>w$}", w = widths[c]),
            })
            .collect();
        format!("|{}|", parts.join("|"))
    };
    let header: Vec<String> = HEADERS.iter().map(|h| h.to_string()).collect();
    let rule = "-".repeat(widths.iter().sum::<usize>() + 8);
    let mut out = vec![rule.clone(), line(&header), rule.clone()];
    let n = cells.len();
    for (i, r) in cells.iter().enumerate() {
        if rows.len() > 1 && i + 1 == n {
            out.push(rule.clone());
        }
        out.push(line(r));
    }
    out.push(rule);
    out.join("\n") + "\n"
}

/// The paths without the leading components they all share, as klee-stats shows several directories
/// (it stops at the first component that differs, or at the last one of the shortest path).
fn strip_common_prefix(dirs: &[PathBuf]) -> Vec<String> {
    let parts: Vec<Vec<String>> = dirs
        .iter()
        .map(|d| {
            d.display()
                .to_string()
                .split('/')
                .map(String::from)
                .collect()
        })
        .collect();
    let shortest = parts.iter().map(Vec::len).min().unwrap_or(0);
    let mut i = 0;
    while i + 1 < shortest && parts.iter().all(|p| p[i] == parts[0][i]) {
        i += 1;
    }
    parts.iter().map(|p| p[i..].join("/")).collect()
}

/// Runs `symex stats`; returns the exit status.
pub fn main(args: StatsArgs) -> i32 {
    let dirs = out_dirs(&args.dirs);
    if dirs.is_empty() {
        eprintln!(
            "symex: error: no output directory (with info and run.stats) among the given paths"
        );
        return 2;
    }
    let names = if dirs.len() > 1 {
        strip_common_prefix(&dirs)
    } else {
        vec![dirs[0].display().to_string()]
    };
    let mut rows = Vec::new();
    for (d, name) in dirs.iter().zip(names) {
        match read(&d.join("run.stats")) {
            Ok(s) => rows.push((name, row(&s))),
            Err(e) => {
                eprintln!("symex: error: {e}");
                return 2;
            }
        }
    }
    print!("{}", table(&rows));
    0
}
