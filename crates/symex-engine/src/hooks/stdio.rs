//! `printf`, `puts`, `putchar`, and `fprintf`, `fputs`, `fputc`, `fwrite`, `fflush` on `stdout` and
//! `stderr`: the program's standard output and error, collected in the state.

use super::{ret_width, Model};
use crate::bug::End;
use crate::domain::{BinOp, CastOp, CmpOp, Decision, Domain, UnOp};
use crate::printf::{format, ArgNeed, ArgValue, FormatError, NumberField};
use crate::program::Program;
use crate::state::State;
use symex_ir::Call;

pub(super) fn call<D: Domain>(
    st: &mut State<D>,
    prog: &Program,
    model: Model,
    call: &Call,
    args: &[D::Val],
) -> Result<Option<D::Val>, End> {
    let w = ret_width(prog, call);
    let written = match model {
        Model::Putchar => {
            // The value returned is the byte written, symbolic as it is; only the output fixes it.
            let byte = st.dom.cast(CastOp::Trunc, 32, 8, &args[0]);
            let b = st.dom.choose(Decision::Output, &byte, 8) as u8;
            st.printed().stdout.push(b);
            return Ok(Some(st.dom.cast(CastOp::ZExt, 8, w, &byte)));
        }
        Model::Puts => {
            let s = st.read_c_string(prog, &args[0])?;
            let out = &mut st.printed().stdout;
            out.extend_from_slice(&s);
            out.push(b'\n');
            s.len() + 1
        }
        Model::Printf => return printf(st, prog, call, args, 0, Stream::Out).map(Some),
        Model::Fprintf => {
            let to = stream(st, prog, &args[0])?;
            return printf(st, prog, call, args, 1, to).map(Some);
        }
        Model::Fputs => {
            let to = stream(st, prog, &args[1])?;
            let s = st.read_c_string(prog, &args[0])?;
            st.output(to).extend_from_slice(&s);
            s.len()
        }
        Model::Fputc => {
            let to = stream(st, prog, &args[1])?;
            let byte = st.dom.cast(CastOp::Trunc, 32, 8, &args[0]);
            let b = st.dom.choose(Decision::Output, &byte, 8) as u8;
            st.output(to).push(b);
            return Ok(Some(st.dom.cast(CastOp::ZExt, 8, w, &byte)));
        }
        Model::Fwrite => {
            let to = stream(st, prog, &args[3])?;
            let size = st.dom.choose(Decision::Length, &args[1], 64) as u64;
            let count = st.dom.choose(Decision::Length, &args[2], 64) as u64;
            for i in 0..size.saturating_mul(count) {
                let b = st.load_byte_at(prog, &args[0], i)?;
                let b = st.dom.choose(Decision::Output, &b, 8) as u8;
                st.output(to).push(b);
            }
            count as usize
        }
        Model::Fflush => 0,
        _ => unreachable!("not a stdio model"),
    };
    Ok(Some(st.dom.constant(w, written as u128)))
}

/// `printf`: the output is formatted from values fixed for printing only; what it returns is the count of
/// bytes as a value, in which a numeric field of a symbolic argument counts with its length as a function
/// of that argument (so a branch on the count follows the path's inputs, not the printed values).
fn printf<D: Domain>(
    st: &mut State<D>,
    prog: &Program,
    call: &Call,
    args: &[D::Val],
    first: usize,
    to: Stream,
) -> Result<D::Val, End> {
    let w = ret_width(prog, call);
    let fmt = st.read_c_string(prog, &args[first])?;
    let mut k = first + 1;
    // The symbolic fields' lengths, and what they printed for the values fixed.
    let mut symbolic_len = st.dom.constant(64, 0);
    let mut printed_for_symbolic = 0usize;
    // Whether a `%p` printed an object's address: its digits are the model's, so the count is too.
    let mut printed_address = false;
    let mut fetch = |need: ArgNeed| -> Result<ArgValue, End> {
        let Some(v) = args.get(k) else {
            return Ok(ArgValue::Int(0));
        };
        let aw = call
            .arg_types
            .get(k)
            .and_then(|&t| prog.width(t))
            .unwrap_or(64);
        k += 1;
        match need {
            ArgNeed::Int => Ok(ArgValue::Int(st.dom.choose(Decision::Output, v, aw))),
            ArgNeed::Address => {
                let a = st.dom.choose(Decision::Output, v, aw);
                printed_address |= st.mem.layout().split(a as u64).0 != 0;
                Ok(ArgValue::Int(a))
            }
            ArgNeed::Count => Ok(ArgValue::Int(st.dom.choose(Decision::Length, v, aw))),
            ArgNeed::Number(field) => {
                let mut chosen = st.dom.choose(Decision::Output, v, aw);
                // `%ld` of a 32-bit `long` (i386): the value as the field's wider signed integer.
                if field.signed() && aw < field.bits {
                    chosen = crate::concrete::sext(chosen, aw) as u128
                        & crate::concrete::mask(field.bits);
                }
                if st.dom.as_const(v).is_none() {
                    let len = field_len(&mut st.dom, &field, v, aw);
                    symbolic_len = st.dom.binop(BinOp::Add, 64, &symbolic_len, &len);
                    printed_for_symbolic += field.len(chosen);
                }
                Ok(ArgValue::Int(chosen))
            }
            ArgNeed::Written { so_far, bits } => {
                // The count so far, as `printf` returns it: symbolic fields count with their lengths.
                let fixed = st.dom.constant(64, (so_far - printed_for_symbolic) as u128);
                let mut count = st.dom.binop(BinOp::Add, 64, &fixed, &symbolic_len);
                if bits < 64 {
                    count = st.dom.cast(CastOp::Trunc, 64, bits, &count);
                }
                st.store_scalar(prog, v, &count, u64::from(bits / 8), bits)?;
                Ok(ArgValue::Int(0))
            }
            ArgNeed::Str(max) => st
                .read_c_string_at_most(prog, v, max.map(|m| m as u64))
                .map(ArgValue::Str),
        }
    };
    let out = match format(&fmt, &mut fetch) {
        Ok(out) => out,
        Err(FormatError::Arg(e)) => return Err(e),
        Err(FormatError::Unsupported(what)) => {
            return Err(crate::exec::unsupported(st, prog, what))
        }
    };
    st.output(to).extend_from_slice(&out);
    let fixed = st
        .dom
        .constant(64, (out.len() - printed_for_symbolic) as u128);
    let mut count = st.dom.binop(BinOp::Add, 64, &fixed, &symbolic_len);
    if printed_address {
        count = st.dom.observe_address(&count, None);
    }
    Ok(if w < 64 {
        st.dom.cast(CastOp::Trunc, 64, w, &count)
    } else {
        count
    })
}

/// A standard stream a program writes to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Stream {
    Out,
    Err,
}

impl<D: Domain> State<D> {
    /// The bytes written so far to `to`.
    fn output(&mut self, to: Stream) -> &mut Vec<u8> {
        match to {
            Stream::Out => &mut self.printed().stdout,
            Stream::Err => &mut self.printed().stderr,
        }
    }
}

/// Which standard stream the `FILE *` `p` is: the object the `stdout` or `stderr` global points to
/// (see [`crate::stdin::attach_stream`]); any other stream is not modelled.
fn stream<D: Domain>(st: &mut State<D>, prog: &Program, p: &D::Val) -> Result<Stream, End> {
    let idv = st.pointer_object(p);
    let id = st.dom.choose(Decision::PointerObject, &idv, 32) as crate::memory::ObjId;
    match st.std_streams {
        [Some(out), _] if out == id => Ok(Stream::Out),
        [_, Some(err)] if err == id => Ok(Stream::Err),
        _ => Err(crate::exec::unsupported(
            st,
            prog,
            "output to a stream other than stdout and stderr",
        )),
    }
}

/// [`NumberField::len`] of the `aw`-bit argument `v`, as a 64-bit value.
fn field_len<D: Domain>(dom: &mut D, f: &NumberField, v: &D::Val, aw: u32) -> D::Val {
    let bits = f.bits;
    let b = match aw.cmp(&bits) {
        std::cmp::Ordering::Greater => dom.cast(CastOp::Trunc, aw, bits, v),
        std::cmp::Ordering::Less if f.signed() => dom.cast(CastOp::SExt, aw, bits, v),
        std::cmp::Ordering::Less => dom.cast(CastOp::ZExt, aw, bits, v),
        std::cmp::Ordering::Equal => v.clone(),
    };
    let zero = dom.constant(bits, 0);
    let negative = if f.signed() {
        dom.cmp(CmpOp::Slt, bits, &b, &zero)
    } else {
        dom.constant(1, 0)
    };
    let magnitude = if f.signed() {
        let minus = dom.unop(UnOp::Neg, bits, &b);
        dom.ite(&negative, bits, &minus, &b)
    } else {
        b
    };
    let magnitude = if bits < 64 {
        dom.cast(CastOp::ZExt, bits, 64, &magnitude)
    } else {
        magnitude
    };
    let one = dom.constant(64, 1);
    let mut digits = one.clone();
    let mut power = f.base();
    while power <= crate::concrete::mask(bits) {
        let p = dom.constant(64, power);
        let more = dom.cmp(CmpOp::Uge, 64, &magnitude, &p);
        let more = dom.cast(CastOp::ZExt, 1, 64, &more);
        digits = dom.binop(BinOp::Add, 64, &digits, &more);
        power *= f.base();
    }
    let zero64 = dom.constant(64, 0);
    let is_zero = dom.cmp(CmpOp::Eq, 64, &magnitude, &zero64);
    let raw_digits = digits.clone();
    match f.precision {
        Some(0) => digits = dom.ite(&is_zero, 64, &zero64, &digits),
        Some(p) => digits = max(dom, &digits, p as u128),
        None => {}
    }
    let prefix = match f.conv {
        b'd' | b'i' if f.sign_always => one,
        b'd' | b'i' => dom.cast(CastOp::ZExt, 1, 64, &negative),
        b'x' | b'X' if f.alt => {
            let two = dom.constant(64, 2);
            dom.ite(&is_zero, 64, &zero64, &two)
        }
        // `%#o` adds a zero unless the digits already begin with one: the precision's zeros, or a zero
        // value printed (not with precision 0, which prints no digit).
        b'o' if f.alt => {
            let begins_with_zero = match f.precision {
                Some(0) => dom.constant(1, 0),
                Some(p) => {
                    let p = dom.constant(64, p as u128);
                    let padded = dom.cmp(CmpOp::Ult, 64, &raw_digits, &p);
                    dom.binop(BinOp::Or, 1, &padded, &is_zero)
                }
                None => is_zero,
            };
            dom.ite(&begins_with_zero, 64, &zero64, &one)
        }
        _ => zero64,
    };
    let body = dom.binop(BinOp::Add, 64, &prefix, &digits);
    max(dom, &body, f.width as u128)
}

/// The larger of 64-bit `v` and the constant `k`.
fn max<D: Domain>(dom: &mut D, v: &D::Val, k: u128) -> D::Val {
    let k = dom.constant(64, k);
    let below = dom.cmp(CmpOp::Ult, 64, v, &k);
    dom.ite(&below, 64, &k, v)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::concrete::Concrete;

    /// The length as a value (what a symbolic argument's field counts) agrees with the length of the
    /// text printed, over the conversions, flags and widths, at the values where the digit count changes.
    #[test]
    fn field_len_is_the_printed_length() {
        let mut dom = Concrete::new(Vec::new());
        let mut values: Vec<u128> = vec![0, 1, 7, 8, 9, 10, 15, 16, 99, 100, 255, 256, 4095, 4096];
        for k in 1..20u32 {
            let p = 10u128.pow(k);
            values.extend([p - 1, p, p + 1]);
        }
        for bits in [8u32, 16, 32, 64] {
            let m = crate::concrete::mask(bits);
            values.extend([m, m >> 1, (m >> 1) + 1, m - 1]);
        }
        for conv in [b'd', b'i', b'u', b'x', b'X', b'o'] {
            for bits in [8u32, 16, 32, 64] {
                for (sign_always, alt) in [(false, false), (true, false), (false, true)] {
                    for (width, precision) in [
                        (0, None),
                        (5, None),
                        (0, Some(0)),
                        (0, Some(1)),
                        (3, Some(4)),
                        (0, Some(9)),
                    ] {
                        let f = NumberField {
                            conv,
                            sign_always,
                            alt,
                            width,
                            precision,
                            bits,
                        };
                        for &v in &values {
                            let v = v & crate::concrete::mask(64);
                            let len = field_len(&mut dom, &f, &v, 64);
                            assert_eq!(len, f.len(v) as u128, "{f:?} {v}");
                        }
                    }
                }
            }
        }
    }
}
