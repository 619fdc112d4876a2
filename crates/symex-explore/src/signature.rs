//! Path signatures: a path as its decision prefix, the answers its non-constant decisions gave from the
//! root (which initial state, then each branch's side and each chosen value, in order).
//!
//! A step is a function of the state before it and the answers its decisions give (see
//! [`crate::symbolic`]), so a signature identifies its path and rebuilds its state on the same program:
//! start the initial state and force the answers ([`crate::Explorer::rebuild`]). This is what a thread
//! that steals work receives, and what a worker of another process would: a few bytes instead of a
//! state whose terms live in one thread's tables.
//!
//! Printed form: the initial state's number, `:`, then `0`/`1` per branch answer and `[x]` (hex) per
//! chosen value, e.g. `0:1101[2a]0`.

use std::fmt;
use std::rc::Rc;
use std::str::FromStr;

/// One answer of a decision along a path.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Answer {
    /// The side a branch took.
    Bool(bool),
    /// The value a choice (an address, a size, a switch's value) took.
    Value(u128),
}

/// A path's decision prefix.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PathSignature {
    /// Which initial state the path started from (one per `--sym-args` count).
    pub root: u32,
    pub answers: Vec<Answer>,
}

impl fmt::Display for PathSignature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:", self.root)?;
        for a in &self.answers {
            match a {
                Answer::Bool(b) => f.write_str(if *b { "1" } else { "0" })?,
                Answer::Value(x) => write!(f, "[{x:x}]")?,
            }
        }
        Ok(())
    }
}

impl FromStr for PathSignature {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        let (root, rest) = s
            .split_once(':')
            .ok_or_else(|| format!("path signature `{s}`: no `:` after the initial state"))?;
        let root: u32 = root.parse().map_err(|_| {
            format!("path signature `{s}`: `{root}` is not an initial state number")
        })?;
        let mut answers = Vec::new();
        let mut chars = rest.char_indices();
        while let Some((i, c)) = chars.next() {
            match c {
                '0' | '1' => answers.push(Answer::Bool(c == '1')),
                '[' => {
                    let end = rest[i..]
                        .find(']')
                        .ok_or_else(|| format!("path signature `{s}`: `[` without `]`"))?;
                    let hex = &rest[i + 1..i + end];
                    let x = u128::from_str_radix(hex, 16).map_err(|_| {
                        format!("path signature `{s}`: `{hex}` is not a hexadecimal value")
                    })?;
                    answers.push(Answer::Value(x));
                    for _ in 0..end {
                        chars.next();
                    }
                }
                _ => {
                    return Err(format!(
                        "path signature `{s}`: unexpected `{c}` at position {}",
                        root.to_string().len() + 1 + i
                    ))
                }
            }
        }
        Ok(PathSignature { root, answers })
    }
}

/// The answers of a live path, shared with the states forked from it: a snapshot of a state (taken
/// before every step that may fork) copies a pointer, not the path's history.
///
/// An exploration that neither shares states between workers nor prints signatures keeps none
/// ([`Trail::unrecorded`]): with tens of thousands of states waiting, the links of their last answers
/// were a twentieth of the heap.
#[derive(Clone, Debug)]
pub struct Trail {
    root: u32,
    last: Option<Rc<Link>>,
    len: usize,
    recorded: bool,
}

impl Default for Trail {
    fn default() -> Self {
        Trail::new(0)
    }
}

#[derive(Debug)]
struct Link {
    answer: Answer,
    prev: Option<Rc<Link>>,
}

impl Trail {
    /// The empty trail of initial state `root`.
    pub fn new(root: u32) -> Trail {
        Trail {
            root,
            last: None,
            len: 0,
            recorded: true,
        }
    }

    /// A trail of initial state `root` that counts the answers but keeps none: it has no
    /// [`Self::signature`].
    pub fn unrecorded(root: u32) -> Trail {
        Trail {
            root,
            last: None,
            len: 0,
            recorded: false,
        }
    }

    pub fn push(&mut self, answer: Answer) {
        self.len += 1;
        if self.recorded {
            let prev = self.last.take();
            self.last = Some(Rc::new(Link { answer, prev }));
        }
    }

    /// Answers so far.
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The signature of the path so far (of a recorded trail: an unrecorded one has kept no answer).
    pub fn signature(&self) -> PathSignature {
        debug_assert!(self.recorded, "the signature of an unrecorded trail");
        let mut answers = Vec::with_capacity(self.len);
        let mut at = self.last.as_deref();
        while let Some(l) = at {
            answers.push(l.answer);
            at = l.prev.as_deref();
        }
        answers.reverse();
        PathSignature {
            root: self.root,
            answers,
        }
    }
}

impl Drop for Trail {
    /// Unlinks iteratively: a path of a million decisions would overflow the stack dropping its links
    /// recursively.
    fn drop(&mut self) {
        let mut at = self.last.take();
        while let Some(l) = at {
            match Rc::try_unwrap(l) {
                Ok(mut link) => at = link.prev.take(),
                Err(_) => break,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unrecorded_trail_counts_and_keeps_nothing() {
        let mut t = Trail::unrecorded(1);
        t.push(Answer::Bool(true));
        t.push(Answer::Value(3));
        assert_eq!(t.len(), 2);
        assert!(t.last.is_none());
        let mut r = Trail::new(1);
        r.push(Answer::Bool(true));
        r.push(Answer::Value(3));
        assert_eq!(r.signature().to_string(), "1:1[3]");
    }

    #[test]
    fn signatures_print_and_parse_back() {
        let sig = PathSignature {
            root: 2,
            answers: vec![
                Answer::Bool(true),
                Answer::Value(0x2a),
                Answer::Bool(false),
                Answer::Value(0),
            ],
        };
        assert_eq!(sig.to_string(), "2:1[2a]0[0]");
        assert_eq!("2:1[2a]0[0]".parse::<PathSignature>(), Ok(sig));
        assert_eq!("0:".parse::<PathSignature>().unwrap().answers, vec![]);
        assert!("0:12".parse::<PathSignature>().is_err());
        assert!("0:1[zz]".parse::<PathSignature>().is_err());
        assert!("0:1[2".parse::<PathSignature>().is_err());
        assert!("1101".parse::<PathSignature>().is_err());
    }

    #[test]
    fn a_trail_shares_its_prefix_with_its_copies() {
        let mut a = Trail::new(0);
        a.push(Answer::Bool(true));
        let mut b = a.clone();
        a.push(Answer::Bool(false));
        b.push(Answer::Value(7));
        assert_eq!(a.signature().to_string(), "0:10");
        assert_eq!(b.signature().to_string(), "0:1[7]");
        assert_eq!(b.len(), 2);
    }
}
