//! Small library functions whose result does not come from memory: byte order (`htonl`, `htons`,
//! `ntohl`, `ntohs`), the environment (`getenv`), the clock (`time`), glibc's `rand`/`srand`, and
//! `sleep`/`usleep`/`nanosleep`, which take no time in a model.

use super::{ret_width, Model};
use crate::bug::End;
use crate::domain::{CastOp, Decision, Domain, InputRequest, UnOp};
use crate::program::Program;
use crate::state::State;
use std::rc::Rc;
use symex_ir::Call;

pub(super) fn call<D: Domain>(
    st: &mut State<D>,
    prog: &Program,
    model: Model,
    call: &Call,
    args: &[D::Val],
) -> Result<Option<D::Val>, End> {
    let w = ret_width(prog, call);
    Ok(Some(match model {
        // x86 is little-endian: network order is the bytes swapped.
        Model::ByteSwap32 => st.dom.unop(UnOp::Bswap, 32, &args[0]),
        Model::ByteSwap16 => {
            let h = st.dom.cast(CastOp::Trunc, 32, 16, &args[0]);
            let h = st.dom.unop(UnOp::Bswap, 16, &h);
            if w > 16 {
                st.dom.cast(CastOp::ZExt, 16, w, &h)
            } else {
                h
            }
        }
        // The environment `main`'s `envp` shows (empty unless `--env`): the value after `NAME=`.
        Model::Getenv => {
            let name = st.read_c_string(prog, &args[0])?;
            let found = st
                .environment()
                .iter()
                .find(|(n, _)| *n == name)
                .map(|e| e.1);
            match found {
                Some(obj) => {
                    let at = prog.addr.address(obj, name.len() as u64 + 1);
                    st.dom.constant(64, u128::from(at))
                }
                None => st.dom.constant(64, 0),
            }
        }
        Model::Time => {
            // Any time at all: an input of the test, stored through the argument when it is not null.
            let bytes = st.dom.input(InputRequest::Named("time"), 8);
            let t = st.dom.bytes_to_val(&bytes, 64);
            if st.dom.as_const(&args[0]) != Some(0) {
                st.store_scalar(prog, &args[0], &t, 8, 64)?;
            }
            t
        }
        Model::Srand => {
            let seed = st.dom.choose(Decision::Output, &args[0], 32) as u32;
            st.random = GlibcRandom::seeded(seed);
            return Ok(None);
        }
        Model::Rand => {
            let r = st.random.rand();
            st.dom.constant(w, u128::from(r))
        }
        Model::Sleep => st.dom.constant(w, 0),
        _ => unreachable!("not a small library function"),
    }))
}

/// glibc's `random_r` in its default state (`TYPE_3`: an additive feedback generator over 34 words
/// seeded by a Lehmer generator, its first 310 outputs dropped), so that `rand()` gives the numbers a
/// native run gives (KLEE calls the host's `rand`).
///
/// The words are shared by forked states until one of them calls `rand` or `srand`: every state holds a
/// generator, and few programs use it.
#[derive(Clone, Debug)]
pub struct GlibcRandom {
    words: Rc<Vec<u32>>,
}

impl Default for GlibcRandom {
    fn default() -> Self {
        GlibcRandom::seeded(1)
    }
}

impl GlibcRandom {
    /// The state `srand(seed)` leaves (seed 0 counts as 1, as in glibc).
    pub fn seeded(seed: u32) -> GlibcRandom {
        let mut r = vec![0u32; 34];
        r[0] = if seed == 0 { 1 } else { seed };
        for i in 1..31 {
            // 16807 * r[i-1] mod (2^31 - 1), computed on the signed value as glibc does.
            let prev = i64::from(r[i - 1] as i32);
            let mut x = (16807 * prev) % 2147483647;
            if x < 0 {
                x += 2147483647;
            }
            r[i] = x as u32;
        }
        for i in 31..34 {
            r[i] = r[i - 31];
        }
        let mut g = GlibcRandom { words: Rc::new(r) };
        for _ in 34..344 {
            g.step();
        }
        g
    }

    /// The next word of the feedback sequence: `r[i] = r[i-31] + r[i-3]`.
    fn step(&mut self) -> u32 {
        let words = Rc::make_mut(&mut self.words);
        let n = words.len();
        let x = words[n - 31].wrapping_add(words[n - 3]);
        words.remove(0);
        words.push(x);
        x
    }

    /// The next `rand()`: the word's upper 31 bits.
    pub fn rand(&mut self) -> u32 {
        self.step() >> 1
    }
}

#[cfg(test)]
mod tests {
    use super::GlibcRandom;

    /// The first numbers glibc's `rand()` gives without `srand`, after `srand(42)` and after
    /// `srand(0)`, as a C program built with clang-14 against x86-64 glibc printed them.
    #[test]
    fn rand_follows_glibc() {
        let three = |mut g: GlibcRandom| -> Vec<u32> { (0..3).map(|_| g.rand()).collect() };
        assert_eq!(
            three(GlibcRandom::default()),
            [1804289383, 846930886, 1681692777]
        );
        assert_eq!(
            three(GlibcRandom::seeded(42)),
            [71876166, 708592740, 1483128881]
        );
        assert_eq!(GlibcRandom::seeded(0).rand(), 1804289383);
    }
}
