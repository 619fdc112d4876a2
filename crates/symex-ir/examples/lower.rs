//! Lowers C / LLVM files and prints, per file, `ok` with instruction counts or the error.
//!
//! `cargo run --release -p symex-ir --example lower -- [--dump] [--passes P] [--cflag F]... [-I DIR]... FILES...`

use std::path::PathBuf;
use symex_ir::{load, FrontendOptions, Module};

fn counts(m: &Module) -> (usize, usize, usize) {
    let (mut blocks, mut insts, mut phis) = (0, 0, 0);
    for f in &m.functions {
        if let Some(body) = &f.body {
            blocks += body.blocks.len();
            for b in &body.blocks {
                insts += b.insts.len() + 1;
                phis += b.phis.len();
            }
        }
    }
    (blocks, insts, phis)
}

fn main() {
    let mut opts = FrontendOptions::default();
    let mut files = Vec::new();
    let mut dump = false;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--passes" => opts.passes = args.next(),
            "--cflag" => opts.cflags.extend(args.next()),
            "-I" => opts.include_dirs.extend(args.next().map(PathBuf::from)),
            "--dump" => dump = true,
            _ => files.push(PathBuf::from(a)),
        }
    }
    let (mut ok, mut failed, mut total_insts) = (0, 0, 0);
    for file in &files {
        match load(file, &opts) {
            Ok(m) => {
                let (blocks, insts, phis) = counts(&m);
                total_insts += insts;
                ok += 1;
                if dump {
                    print!("{m}");
                }
                println!(
                    "ok {} blocks={blocks} insts={insts} phis={phis}",
                    file.display()
                );
            }
            Err(e) => {
                failed += 1;
                println!(
                    "err {}: {}",
                    file.display(),
                    e.to_string().lines().next().unwrap_or("")
                );
            }
        }
    }
    println!("total ok={ok} failed={failed} insts={total_insts}");
}
