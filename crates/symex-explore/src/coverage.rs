//! Line coverage of an exploration in lcov's tracefile format (`coverage.info`, for `genhtml`): a source
//! line is hit when a block holding one of its instructions was entered on some explored path.

use rustc_hash::FxHashSet;
use std::collections::BTreeMap;
use std::fmt::Write;
use symex_engine::Program;

/// Per file: line → hit, and the functions as (first line, name, entered).
type FileCov = (BTreeMap<u32, bool>, Vec<(u32, String, bool)>);

/// The lcov text for the blocks in `covered` ((function, block) pairs).
pub fn lcov(prog: &Program, covered: &FxHashSet<(u32, u32)>) -> String {
    let m = prog.module();
    let mut files: BTreeMap<String, FileCov> = BTreeMap::new();
    for (fi, f) in m.functions.iter().enumerate() {
        let Some(body) = &f.body else { continue };
        let mut entered = false;
        for (bi, b) in body.blocks.iter().enumerate() {
            let hit = covered.contains(&(fi as u32, bi as u32));
            entered |= hit;
            for loc in b.locs.iter().chain(std::iter::once(&b.term_loc)) {
                if !loc.is_known() {
                    continue;
                }
                let file = files.entry(m.file_name(*loc).to_string()).or_default();
                *file.0.entry(loc.line).or_insert(false) |= hit;
            }
        }
        if f.loc.is_known() {
            let file = files.entry(m.file_name(f.loc).to_string()).or_default();
            file.1.push((f.loc.line, f.name.clone(), entered));
        }
    }
    let mut out = String::new();
    for (file, (lines, funcs)) in files {
        let _ = writeln!(out, "TN:\nSF:{file}");
        for (line, name, _) in &funcs {
            let _ = writeln!(out, "FN:{line},{name}");
        }
        for (_, name, hit) in &funcs {
            let _ = writeln!(out, "FNDA:{},{name}", *hit as u32);
        }
        let fh = funcs.iter().filter(|f| f.2).count();
        let _ = writeln!(out, "FNF:{}\nFNH:{fh}", funcs.len());
        for (line, hit) in &lines {
            let _ = writeln!(out, "DA:{line},{}", *hit as u32);
        }
        let lh = lines.values().filter(|h| **h).count();
        let _ = writeln!(out, "LF:{}\nLH:{lh}\nend_of_record", lines.len());
    }
    out
}
