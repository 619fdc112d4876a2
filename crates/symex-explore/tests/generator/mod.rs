//! The generator of random C programs shared by the property tests of `symex-explore` (`properties.rs`)
//! and `symex-bmc` (`agrees_with_run.rs`, which includes this file by path): one generator, so the two
//! crates' tests check their analyses on the same programs.

use symex_explore::searcher::Rng;

/// A small random C program over three symbolic ints: nested conditionals, arithmetic, divisions,
/// a table indexed by an input, a local array written and read at input-dependent indices, a loop with
/// an input-dependent bound, and aborts.
pub fn generate(seed: u64) -> String {
    let mut g = Gen {
        rng: Rng::new(seed),
        out: String::new(),
    };
    g.out.push_str(
        "#include <stdlib.h>\nint __VERIFIER_nondet_int(void);\n\
         static const int table[4] = {5, -3, 8, 0};\n\
         int main(void) {\n  int a = __VERIFIER_nondet_int(), b = __VERIFIER_nondet_int(), \
         c = __VERIFIER_nondet_int();\n  int arr[4] = {1, -2, 3, 0};\n",
    );
    g.block(2, 4);
    g.out.push_str("  return 0;\n}\n");
    g.out
}

pub struct Gen {
    pub rng: Rng,
    pub out: String,
}

const VARS: [&str; 3] = ["a", "b", "c"];

impl Gen {
    pub fn var(&mut self) -> &'static str {
        VARS[self.rng.below(3)]
    }

    pub fn expr(&mut self, depth: u32) -> String {
        if depth == 0 || self.rng.below(3) == 0 {
            return match self.rng.below(3) {
                0 => (self.rng.below(21) as i64 - 10).to_string(),
                _ => self.var().to_string(),
            };
        }
        let (l, r) = (self.expr(depth - 1), self.expr(depth - 1));
        match self.rng.below(8) {
            0 => format!("({l} + {r})"),
            1 => format!("({l} - {r})"),
            // Products of two inputs are left out: nonlinear bit-vector multiplication can keep Z3 busy
            // for minutes on an unlucky query order, which would make the suite's time unpredictable.
            2 => format!("({l} * {})", self.rng.below(7) as i64 - 3),
            3 => format!("({l} & {r})"),
            4 => format!("({l} ^ {r})"),
            5 => format!("({l} / ((({r}) & 7) + 1))"),
            6 => format!("table[({l}) & 3]"),
            _ => format!("arr[({l}) & 3]"),
        }
    }

    pub fn cond(&mut self) -> String {
        let ops = ["<", "<=", "==", "!=", ">", ">="];
        let op = ops[self.rng.below(ops.len())];
        format!("{} {op} {}", self.expr(2), self.expr(1))
    }

    pub fn block(&mut self, depth: u32, len: usize) {
        let n = 1 + self.rng.below(len);
        for _ in 0..n {
            self.stmt(depth);
        }
    }

    pub fn stmt(&mut self, depth: u32) {
        let pad = "  ".repeat(4 - depth as usize);
        match if depth == 0 { 0 } else { self.rng.below(6) } {
            0 | 1 => {
                let v = self.var();
                let e = self.expr(2);
                self.out.push_str(&format!("{pad}{v} = {e};\n"));
            }
            2 | 3 => {
                let c = self.cond();
                self.out.push_str(&format!("{pad}if ({c}) {{\n"));
                self.block(depth - 1, 3);
                self.out.push_str(&format!("{pad}}} else {{\n"));
                self.block(depth - 1, 3);
                self.out.push_str(&format!("{pad}}}\n"));
            }
            4 if self.rng.below(2) == 0 => {
                let (i, e) = (self.expr(1), self.expr(2));
                self.out.push_str(&format!("{pad}arr[({i}) & 3] = {e};\n"));
            }
            4 => {
                let (v, w) = (self.var(), self.var());
                self.out.push_str(&format!(
                    "{pad}for (int i = 0; i < ({w} & 3); i++) {{ {v} = {v} + i; }}\n"
                ));
            }
            _ => {
                let c = self.cond();
                self.out.push_str(&format!("{pad}if ({c}) abort();\n"));
            }
        }
    }
}
