//! Sort checking: the result sort of an operator applied to arguments.

use std::fmt;

use crate::sort::{Sort, MAX_BV_WIDTH};
use crate::term::{Op, Term};

/// An ill-sorted application, with a message naming the operator and the sorts.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct SortError(pub String);

impl fmt::Display for SortError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SortError {}

fn err<T>(op: &Op, args: &[Term], why: &str) -> Result<T, SortError> {
    let sorts: Vec<String> = args.iter().map(|a| a.sort().to_string()).collect();
    Err(SortError(format!(
        "{op:?} applied to ({}): {why}",
        sorts.join(", ")
    )))
}

fn arity(op: &Op, args: &[Term], n: usize) -> Result<(), SortError> {
    if args.len() == n {
        Ok(())
    } else {
        err(op, args, &format!("expects {n} arguments"))
    }
}

fn all_bool(op: &Op, args: &[Term], n: usize) -> Result<Sort, SortError> {
    arity(op, args, n)?;
    if args.iter().all(|a| a.sort() == Sort::Bool) {
        Ok(Sort::Bool)
    } else {
        err(op, args, "expects Bool arguments")
    }
}

fn all_int(op: &Op, args: &[Term], n: usize, result: Sort) -> Result<Sort, SortError> {
    arity(op, args, n)?;
    if args.iter().all(|a| a.sort() == Sort::Int) {
        Ok(result)
    } else {
        err(op, args, "expects Int arguments")
    }
}

/// Same-width bit-vector arguments; returns the width.
fn same_bv(op: &Op, args: &[Term], n: usize) -> Result<u32, SortError> {
    arity(op, args, n)?;
    match args[0].sort() {
        Sort::BitVec(w) if args.iter().all(|a| a.sort() == Sort::BitVec(w)) => Ok(w),
        _ => err(op, args, "expects bit-vectors of one width"),
    }
}

fn widened(op: &Op, args: &[Term], w: u32) -> Result<Sort, SortError> {
    if (1..=MAX_BV_WIDTH).contains(&w) {
        Ok(Sort::BitVec(w))
    } else {
        err(
            op,
            args,
            &format!("result width {w} exceeds {MAX_BV_WIDTH}"),
        )
    }
}

/// The sort of `op(args)`, or why it is ill-sorted. Variables and constant arrays carry
/// their sort separately and are rejected here.
pub fn result_sort(op: &Op, args: &[Term]) -> Result<Sort, SortError> {
    match op {
        Op::BoolConst(_) => arity(op, args, 0).map(|_| Sort::Bool),
        Op::BvConst { value, width } => {
            arity(op, args, 0)?;
            if !(1..=MAX_BV_WIDTH).contains(width) {
                return err(op, args, "bad width");
            }
            if *value & !crate::bvsem::mask(*width) != 0 {
                return err(op, args, "value does not fit its width");
            }
            Ok(Sort::BitVec(*width))
        }
        Op::IntConst(_) => arity(op, args, 0).map(|_| Sort::Int),
        Op::Var(_) | Op::ConstArray => err(op, args, "needs an explicit sort"),
        Op::Not => all_bool(op, args, 1),
        Op::And | Op::Or | Op::Xor | Op::Implies => all_bool(op, args, 2),
        Op::Ite => {
            arity(op, args, 3)?;
            if args[0].sort() != Sort::Bool || args[1].sort() != args[2].sort() {
                return err(op, args, "expects (Bool, s, s)");
            }
            Ok(args[1].sort())
        }
        Op::Eq => {
            arity(op, args, 2)?;
            if args[0].sort() != args[1].sort() {
                return err(op, args, "compares terms of different sorts");
            }
            Ok(Sort::Bool)
        }
        Op::BvNot | Op::BvNeg => same_bv(op, args, 1).map(Sort::BitVec),
        Op::BvAdd
        | Op::BvSub
        | Op::BvMul
        | Op::BvUdiv
        | Op::BvSdiv
        | Op::BvUrem
        | Op::BvSrem
        | Op::BvSmod
        | Op::BvAnd
        | Op::BvOr
        | Op::BvXor
        | Op::BvShl
        | Op::BvLshr
        | Op::BvAshr => same_bv(op, args, 2).map(Sort::BitVec),
        Op::BvUlt | Op::BvUle | Op::BvSlt | Op::BvSle => same_bv(op, args, 2).map(|_| Sort::Bool),
        Op::Concat => {
            arity(op, args, 2)?;
            match (args[0].sort(), args[1].sort()) {
                (Sort::BitVec(a), Sort::BitVec(b)) => widened(op, args, a + b),
                _ => err(op, args, "expects bit-vectors"),
            }
        }
        Op::Extract { hi, lo } => {
            let w = same_bv(op, args, 1)?;
            if lo > hi || *hi >= w {
                return err(op, args, &format!("bad extract [{hi}:{lo}]"));
            }
            Ok(Sort::BitVec(hi - lo + 1))
        }
        Op::ZeroExt(n) | Op::SignExt(n) => {
            let w = same_bv(op, args, 1)?;
            widened(op, args, w.saturating_add(*n))
        }
        Op::IntAdd | Op::IntSub | Op::IntMul | Op::IntDiv | Op::IntMod => {
            all_int(op, args, 2, Sort::Int)
        }
        Op::IntNeg => all_int(op, args, 1, Sort::Int),
        Op::IntLe | Op::IntLt => all_int(op, args, 2, Sort::Bool),
        Op::Select => {
            arity(op, args, 2)?;
            match args[0].sort() {
                Sort::Array { index, element } if args[1].sort() == Sort::BitVec(index) => {
                    Ok(Sort::BitVec(element))
                }
                Sort::Map(m) if args[1].sort() == m.index() => Ok(m.element()),
                _ => err(op, args, "expects (Array i e, i)"),
            }
        }
        Op::Store => {
            arity(op, args, 3)?;
            match args[0].sort() {
                s @ Sort::Array { index, element }
                    if args[1].sort() == Sort::BitVec(index)
                        && args[2].sort() == Sort::BitVec(element) =>
                {
                    Ok(s)
                }
                s @ Sort::Map(m)
                    if args[1].sort() == m.index() && args[2].sort() == m.element() =>
                {
                    Ok(s)
                }
                _ => err(op, args, "expects (Array i e, i, e)"),
            }
        }
        Op::Apply(f) => {
            let ok = args.len() == f.domain().len()
                && args.iter().zip(f.domain()).all(|(a, s)| a.sort() == *s);
            if ok {
                Ok(f.range())
            } else {
                err(
                    op,
                    args,
                    &format!("does not match the signature of {}", f.name()),
                )
            }
        }
    }
}
