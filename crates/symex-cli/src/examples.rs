//! The examples that end each subcommand's `--help` (clap's `after_long_help`). They use the programs under
//! `examples/`, run from the repository's root; the manual's chapters show the same commands with output.

pub const RUN: &str = "\
Examples:
  symex run examples/run/top.c                    # 16 paths, 5 of them abort; one test per path
  symex run examples/run/foo.c --json --out out   # the report as JSON; tests in out/
  symex run prog.c --search dfs --max-time 60 --check-overflow --ktest

Manual: docs/src/run.md";

pub const CAMPAIGN: &str = "\
Examples:
  symex run examples/run/top.c --redis redis://127.0.0.1:6379/ --campaign top --out w1   # one worker
  symex campaign status --redis redis://127.0.0.1:6379/ --campaign top     # items, workers, paths
  symex campaign collect --redis redis://127.0.0.1:6379/ --campaign top --paths-out top.paths

Manual: docs/src/campaign.md";

pub const STATS: &str = "\
Examples:
  symex run examples/run/top.c --out top-out
  symex stats top-out                  # klee-stats' table: instructions, time, coverage, solver time
  symex stats top-out foo-out          # a row per directory and their total

Manual: docs/src/run.md";

pub const REPLAY: &str = "\
Examples:
  symex replay examples/demo.c examples/demo.test.json            # the program's output, then `outcome: ...`
  symex replay examples/demo.c examples/demo.test.json --json     # one JSON object
  symex replay --native examples/demo.c examples/demo.test.json   # the same test on a clang-14 ASan/UBSan build

Manual: docs/src/replay.md, docs/src/replay-native.md";

pub const CHECK: &str = "\
Examples:
  symex check --property unreach-call examples/check/unreach_false.c   # FALSE, exit status 1
  symex check --property valid-memsafety examples/check/leak_false.c   # FALSE(valid-memtrack)
  symex check --property no-overflow --data-model ILP32 --max-time 60 prog.c

Manual: docs/src/check.md";

pub const VALIDATE: &str = "\
Examples:
  symex check --property unreach-call --witness w.graphml examples/check/unreach_false.c
  symex validate --witness w.graphml examples/check/unreach_false.c      # confirmed: FALSE, exit status 1
  symex validate --witness other-tool.yml task.yml                       # a YAML 2.0 violation_sequence

Manual: docs/src/validate.md";

pub const BMC: &str = "\
Examples:
  symex bmc examples/bmc/lecture_uchar.c --unwind 3         # FALSE: two bytes whose sum wraps
  symex bmc examples/bmc/paths30.c --unwind 30              # TRUE with one query: 2^30 paths merged
  symex bmc examples/bmc/kind_count.c --unwind 1 --k-induction

Manual: docs/src/bmc.md";

pub const FUZZ: &str = "\
Examples:
  symex fuzz examples/fuzz/magic.c --stdin --seed examples/fuzz/magic.seed   # the crash behind a checksum
  symex fuzz examples/fuzz/filemagic.c --file input.bin --seed examples/fuzz/filemagic.seed
  symex fuzz prog.c --input-size 16 --max-runs 1000 --out fuzz-out

Manual: docs/src/fuzz.md";

pub const ITS: &str = "\
Examples:
  symex its examples/its/count_down.koat                    # WORST_CASE(Omega(n^1), O(n^1)) with the bound
  symex its --goal termination examples/its/count_down.koat # YES
  symex its --print-koat --json FILE.koat

Manual: docs/src/its.md";

pub const TERM: &str = "\
Examples:
  symex term examples/term/g.c              # YES, with the graph, the ITS and the ranking functions
  symex term --quiet examples/term/f.c      # only the answer
  symex term --signed-wrap --dot seg.dot prog.c

Manual: docs/src/term.md";

pub const COST: &str = "\
Examples:
  symex cost examples/cost/h.c              # WORST_CASE(?, O(n)), bound: 4*|j| + 8
  symex cost --quiet examples/cost/nested.c
  symex cost --signed-wrap --json prog.c

Manual: docs/src/cost.md";

pub const VERIFY: &str = "\
Examples:
  symex verify examples/idf/cell_fig3.idf                        # per-member verdicts, VERIFIED
  symex verify --trace --no-infer examples/idf/cell_fig9_no_close.idf   # the states on the failing path
  symex verify --run examples/idf/cell_fig3.idf                  # run main concretely with run-time checks

Manual: docs/src/verify.md; the language: docs/src/concepts/idf-language.md";

pub const COMPLETIONS: &str = "\
Examples:
  symex completions bash > ~/.local/share/bash-completion/completions/symex
  symex completions zsh > ~/.zfunc/_symex
  symex completions fish > ~/.config/fish/completions/symex.fish

Manual: docs/src/completions.md";

pub const MAN: &str = "\
Examples:
  symex man target/man && man target/man/symex-run.1
  symex man /usr/local/share/man/man1

Manual: docs/src/completions.md";
