//! Mutational fuzzing inside the search, for when the solver stalls (a query times out or spends its
//! rlimit): AFL's havoc stage (stacked bit flips, interesting values, small arithmetic, random bytes, block
//! copies), splicing with another input of the corpus, and a dictionary of the constants the program
//! compares against (AFL++'s auto-dictionary, taken here from the IR). Hybrid fuzzers (Driller, QSYM)
//! pair a mutator and a concolic executor the same way; here both live in one process and share the
//! coverage. A dictionary word goes where a parser reads words: at a token boundary (the start of a
//! run of letters and digits, or of other bytes), overwriting the bytes there, inserting it, or
//! replacing the token whole, so that a keyword of another length than the seed's word fits; blocks
//! are deleted and inserted too (AFL's length-changing havoc operations). A mutant is at most
//! [`MAX_GROWTH`] bytes longer than its parent.
//!
//! The random choices come from a seeded generator, so a search with a run limit is the same search on
//! every machine.

use symex_ir::{Const, Inst, Module, Operand, Terminator};

/// SplitMix64 (Steele, Lea, Flood 2014): small, seeded, and good enough to pick mutations.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

/// AFL's interesting 8-bit values.
const INTERESTING: [u8; 9] = [0, 1, 16, 32, 64, 100, 127, 128, 255];

/// The byte strings the program compares its values against: integer constants of `icmp` and `switch`
/// (little- and big-endian, in the operand's width) and the strings of its constant globals (what
/// `strcmp`/`memcmp` compare against). Sorted, without duplicates.
pub fn dictionary(m: &Module) -> Vec<Vec<u8>> {
    let mut d: Vec<Vec<u8>> = Vec::new();
    let int = |value: u128, width: u32, d: &mut Vec<Vec<u8>>| {
        let n = (width as usize).div_ceil(8).min(16);
        // 0 and 1 are among the interesting values already; a 1-bit compare has no byte to match.
        if width < 8 || value <= 1 {
            return;
        }
        let le = value.to_le_bytes()[..n].to_vec();
        let mut be = le.clone();
        be.reverse();
        d.push(le);
        if n > 1 {
            d.push(be);
        }
    };
    for f in &m.functions {
        let Some(body) = &f.body else { continue };
        for b in &body.blocks {
            for i in &b.insts {
                if let Inst::ICmp {
                    width, lhs, rhs, ..
                } = i
                {
                    for o in [lhs, rhs] {
                        if let Operand::Const(c) = o {
                            if let Const::Int { value, .. } = m.konst(*c) {
                                int(*value, *width, &mut d);
                            }
                        }
                    }
                }
            }
            if let Terminator::Switch(sw) = &b.term {
                for (v, _) in &sw.cases {
                    int(*v, sw.width, &mut d);
                }
            }
        }
    }
    for g in &m.globals {
        let Some(init) = &g.init else { continue };
        if !g.is_constant || !init.relocs.is_empty() {
            continue;
        }
        for s in init.bytes.split(|&b| b == 0) {
            if (2..=64).contains(&s.len()) && s.iter().all(|&b| (0x20..0x7f).contains(&b)) {
                d.push(s.to_vec());
            }
        }
    }
    d.sort();
    d.dedup();
    d
}

/// How much longer than its parent a mutant may grow.
pub const MAX_GROWTH: usize = 64;

/// One mutant of `parent`: 1 to 16 stacked havoc operations (as AFL's havoc stage stacks them), each a
/// bit flip, an interesting value, a small addition, a random byte, a block copy, a dictionary word
/// (anywhere, or at a token boundary, possibly changing the length), a block deleted or duplicated, or
/// a splice with `other`. An empty parent stays empty.
pub fn havoc(rng: &mut Rng, parent: &[u8], other: &[u8], dict: &[Vec<u8>]) -> Vec<u8> {
    let mut b = parent.to_vec();
    if b.is_empty() {
        return b;
    }
    let max_len = parent.len() + MAX_GROWTH;
    let ops = 1 << rng.below(5);
    for _ in 0..ops {
        let n = b.len();
        if n == 0 {
            break;
        }
        match rng.below(12) {
            0 => {
                let p = rng.below(n * 8);
                b[p / 8] ^= 1 << (p % 8);
            }
            1 => b[rng.below(n)] = INTERESTING[rng.below(INTERESTING.len())],
            2 => {
                let p = rng.below(n);
                let d = 1 + rng.below(35) as u8;
                b[p] = if rng.below(2) == 0 {
                    b[p].wrapping_add(d)
                } else {
                    b[p].wrapping_sub(d)
                };
            }
            3 => b[rng.below(n)] = rng.next_u64() as u8,
            4 => {
                let len = 1 + rng.below(n.min(32));
                let (from, to) = (rng.below(n - len + 1), rng.below(n - len + 1));
                b.copy_within(from..from + len, to);
            }
            5 | 6 if !dict.is_empty() => {
                let w = &dict[rng.below(dict.len())];
                if w.len() <= n {
                    let p = rng.below(n - w.len() + 1);
                    b[p..p + w.len()].copy_from_slice(w);
                }
            }
            7 | 8 if !dict.is_empty() => {
                let w = &dict[rng.below(dict.len())];
                word_at_boundary(rng, &mut b, w, max_len);
            }
            9 if n > 1 => {
                let len = 1 + rng.below((n - 1).min(32));
                let at = rng.below(n - len + 1);
                b.drain(at..at + len);
            }
            10 => {
                let len = (1 + rng.below(n.min(32))).min(max_len.saturating_sub(n));
                let (from, to) = (rng.below(n - len + 1), rng.below(n + 1));
                let block = b[from..from + len].to_vec();
                b.splice(to..to, block);
            }
            _ => splice(rng, &mut b, other),
        }
    }
    b
}

/// Whether `x` is a word byte (a letter, a digit or `_`): a token is a run of bytes of one kind.
fn wordish(x: u8) -> bool {
    x.is_ascii_alphanumeric() || x == b'_'
}

/// Puts `w` at a token boundary of `b` (position 0, or one whose byte is of another kind than the one
/// before): overwriting the bytes there, inserted before the token, or in place of the token; the last
/// two change the length, within `max_len`.
fn word_at_boundary(rng: &mut Rng, b: &mut Vec<u8>, w: &[u8], max_len: usize) {
    let n = b.len();
    let starts: Vec<usize> = (0..n)
        .filter(|&p| p == 0 || wordish(b[p - 1]) != wordish(b[p]))
        .collect();
    let at = starts[rng.below(starts.len())];
    let end = (at..n)
        .find(|&q| wordish(b[q]) != wordish(b[at]))
        .unwrap_or(n);
    let (from, to) = match rng.below(3) {
        0 if at + w.len() <= n => (at, at + w.len()),
        1 => (at, at),
        _ => (at, end),
    };
    if n - (to - from) + w.len() <= max_len {
        b.splice(from..to, w.iter().copied());
    }
}

/// AFL's splice, keeping the length: the bytes of `b` from a random point on are `other`'s (where
/// `other` has them).
fn splice(rng: &mut Rng, b: &mut [u8], other: &[u8]) {
    let n = b.len().min(other.len());
    if n < 2 {
        return;
    }
    let at = 1 + rng.below(n - 1);
    b[at..n].copy_from_slice(&other[at..n]);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The generator is the published SplitMix64: its first outputs from seed 0.
    #[test]
    fn splitmix64_matches_the_reference_outputs() {
        let mut r = Rng::new(0);
        assert_eq!(r.next_u64(), 0xe220_a839_7b1d_cdaf);
        assert_eq!(r.next_u64(), 0x6e78_9e6a_a1b9_65f4);
    }

    #[test]
    fn mutants_stay_within_their_growth_and_use_the_dictionary() {
        let mut r = Rng::new(7);
        let dict = vec![b"MAGIC".to_vec()];
        let (mut saw_word, mut longer, mut shorter) = (false, false, false);
        for _ in 0..2000 {
            let m = havoc(&mut r, &[0u8; 16], &[9u8; 16], &dict);
            assert!(!m.is_empty() && m.len() <= 16 + MAX_GROWTH, "{m:?}");
            saw_word |= m.windows(5).any(|w| w == b"MAGIC");
            longer |= m.len() > 16;
            shorter |= m.len() < 16;
        }
        assert!(saw_word && longer && shorter);
        assert!(havoc(&mut r, &[], &[], &dict).is_empty());
    }

    /// A keyword replaces a word of another length whole, at a word boundary: `a bb ccc` becomes
    /// `a WHERE ccc` for some choices, and every placement starts at a boundary.
    #[test]
    fn a_word_replaces_a_token_of_another_length() {
        let mut r = Rng::new(3);
        let mut replaced = false;
        for _ in 0..200 {
            let mut b = b"a bb ccc".to_vec();
            word_at_boundary(&mut r, &mut b, b"WHERE", 64);
            let p = b.windows(5).position(|w| w == b"WHERE").expect("placed");
            assert!([0, 1, 2, 4, 5].contains(&p), "{b:?}");
            replaced |= b == b"a WHERE ccc";
        }
        assert!(replaced);
        let mut b = b"abc".to_vec();
        word_at_boundary(&mut r, &mut b, b"WHERE", 4);
        assert!(b.len() <= 4, "{b:?}");
    }
}
