//! The first line of an answer in the Termination Competition's grammar.
//!
//! The complexity categories read only the first line of a tool's output, and only in the
//! form `WORST_CASE(L, U)` with `L -> ? | Omega(n^Nat) | NON_POLY` and
//! `U -> ? | O(1) | O(n^Nat) | POLY`; the termination categories read `YES`, `NO` or
//! `MAYBE`. A word outside the grammar (`O(n)`, `O(EXP)`) scores as no answer, so every
//! analysis that prints a competition answer builds it here, and [`parse`] is the grammar a
//! test holds all printed first lines to.

use crate::bound::Bound;

/// The upper side of `WORST_CASE(L, U)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Upper {
    /// `?`: no upper bound the grammar can state (none found, or only an exponential one).
    Unknown,
    /// `O(1)`.
    Constant,
    /// `O(n^k)`, k ≥ 1.
    Poly(u32),
    /// `POLY`: polynomial, degree not stated.
    SomePoly,
}

/// The lower side of `WORST_CASE(L, U)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lower {
    /// `?`: no lower bound claimed.
    Unknown,
    /// `Omega(n^k)`, k ≥ 0 (`Omega(n^0)` is written `Omega(1)`).
    Poly(u32),
    /// `NON_POLY`: no polynomial bounds the runtime.
    NonPoly,
}

/// A complexity answer as the competition scores it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WorstCase {
    pub lower: Lower,
    pub upper: Upper,
}

impl WorstCase {
    /// The answer for a proven upper bound and no lower bound: `WORST_CASE(?, U)`.
    pub fn upper_bound(bound: &Bound) -> WorstCase {
        WorstCase {
            lower: Lower::Unknown,
            upper: Upper::of(bound),
        }
    }
}

impl Upper {
    /// The competition's word for a proven bound: an exponential bound is a true statement the
    /// grammar cannot express, so it is `?` (the bound itself follows in the proof).
    pub fn of(bound: &Bound) -> Upper {
        match bound {
            Bound::Poly(p) => match p.degree() {
                0 => Upper::Constant,
                k => Upper::Poly(k),
            },
            Bound::Exp(_) | Bound::DoubleExp(_) | Bound::Infinite => Upper::Unknown,
        }
    }

    /// The upper side for a polynomial degree (0 is `O(1)`).
    pub fn of_degree(k: u32) -> Upper {
        if k == 0 {
            Upper::Constant
        } else {
            Upper::Poly(k)
        }
    }
}

impl std::fmt::Display for Upper {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Upper::Unknown => write!(f, "?"),
            Upper::Constant => write!(f, "O(1)"),
            Upper::Poly(k) => write!(f, "O(n^{k})"),
            Upper::SomePoly => write!(f, "POLY"),
        }
    }
}

impl std::fmt::Display for Lower {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Lower::Unknown => write!(f, "?"),
            Lower::Poly(0) => write!(f, "Omega(1)"),
            Lower::Poly(k) => write!(f, "Omega(n^{k})"),
            Lower::NonPoly => write!(f, "NON_POLY"),
        }
    }
}

impl std::fmt::Display for WorstCase {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "WORST_CASE({}, {})", self.lower, self.upper)
    }
}

/// A first line read back with the grammar.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    Yes,
    No,
    Maybe,
    WorstCase(WorstCase),
}

/// Reads a first line with the competition's grammar; `Err` names what is off.
pub fn parse(line: &str) -> Result<Answer, String> {
    match line {
        "YES" => return Ok(Answer::Yes),
        "NO" => return Ok(Answer::No),
        "MAYBE" => return Ok(Answer::Maybe),
        _ => {}
    }
    let inner = line
        .strip_prefix("WORST_CASE(")
        .and_then(|s| s.strip_suffix(')'))
        .ok_or_else(|| format!("`{line}` is neither YES, NO, MAYBE nor WORST_CASE(L, U)"))?;
    let (l, u) = inner
        .split_once(", ")
        .ok_or_else(|| format!("`{line}`: the two sides must be separated by `, `"))?;
    let lower = match l {
        "?" => Lower::Unknown,
        "NON_POLY" => Lower::NonPoly,
        "Omega(1)" => Lower::Poly(0),
        _ => Lower::Poly(degree(l, "Omega(n^").ok_or_else(|| format!("lower side `{l}`"))?),
    };
    let upper = match u {
        "?" => Upper::Unknown,
        "POLY" => Upper::SomePoly,
        "O(1)" => Upper::Constant,
        _ => Upper::Poly(degree(u, "O(n^").ok_or_else(|| format!("upper side `{u}`"))?),
    };
    Ok(Answer::WorstCase(WorstCase { lower, upper }))
}

/// The `Nat` of `PREFIXNat)`, a decimal without leading zeros.
fn degree(side: &str, prefix: &str) -> Option<u32> {
    let digits = side.strip_prefix(prefix)?.strip_suffix(')')?;
    let well_formed = !digits.is_empty()
        && digits.bytes().all(|b| b.is_ascii_digit())
        && (digits == "0" || !digits.starts_with('0'));
    well_formed.then(|| digits.parse().ok()).flatten()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn printed_answers_read_back_as_themselves() {
        let lowers = [
            Lower::Unknown,
            Lower::Poly(0),
            Lower::Poly(3),
            Lower::NonPoly,
        ];
        let uppers = [
            Upper::Unknown,
            Upper::Constant,
            Upper::Poly(1),
            Upper::Poly(12),
            Upper::SomePoly,
        ];
        for lower in lowers {
            for upper in uppers {
                let w = WorstCase { lower, upper };
                assert_eq!(parse(&w.to_string()), Ok(Answer::WorstCase(w)));
            }
        }
    }

    #[test]
    fn words_outside_the_grammar_are_refused() {
        for bad in [
            "WORST_CASE(?, O(n))",
            "WORST_CASE(?, O(EXP))",
            "WORST_CASE(?, EXP)",
            "WORST_CASE(?,O(1))",
            "WORST_CASE(Omega(n), ?)",
            "WORST_CASE(?, O(n^01))",
            "WORST_CASE(?, O(n^))",
            "yes",
            "WORST_CASE(?, O(1)) ",
        ] {
            assert!(parse(bad).is_err(), "{bad} accepted");
        }
    }
}
