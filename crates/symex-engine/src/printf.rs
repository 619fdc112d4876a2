//! `printf` formatting as glibc does it, for the conversions symex supports:
//! `%d %i %u %x %X %o %c %s %p %n %%` with flags `- 0 + space #`, width and precision (numbers or `*`) and
//! length modifiers `hh h l ll j z t`. The arguments come from a callback so the same code serves any domain.

/// What a conversion needs from the next argument.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArgNeed {
    /// An integer only printed, in a field whose length does not depend on it (`%c`).
    Int,
    /// A pointer printed as an address (`%p`): what is printed, and its length, are the platform's.
    Address,
    /// An integer printed by a numeric conversion: the field's length depends on its value.
    Number(NumberField),
    /// A `*` width or precision: shapes the output (and its length).
    Count,
    /// The string a `%s` argument points to, at most this many bytes of it when a precision is given
    /// (the array then needs no NUL: C11 7.21.6.1p8).
    Str(Option<usize>),
    /// `%n`: the count of bytes written so far is stored through the next argument, an integer of
    /// `bits` bits as the length modifier says (C11 7.21.6.1p8).
    Written { so_far: usize, bits: u32 },
}

/// The value of an argument.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ArgValue {
    /// The argument's bits (zero-extended).
    Int(u128),
    Str(Vec<u8>),
}

/// Why formatting failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FormatError<E> {
    /// A conversion symex does not model (e.g. `%f`), named.
    Unsupported(String),
    /// Fetching an argument failed (e.g. a bad pointer for `%s`).
    Arg(E),
}

/// A numeric conversion (`%d %i %u %x %X %o`) as far as its printed length goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NumberField {
    /// The conversion character.
    pub conv: u8,
    /// `+` or space: a sign character even for non-negative values (`%d`, `%i`).
    pub sign_always: bool,
    /// `#`.
    pub alt: bool,
    pub width: usize,
    pub precision: Option<usize>,
    /// Bits of the argument (8, 16, 32 or 64).
    pub bits: u32,
}

impl NumberField {
    /// The base of the digits.
    pub fn base(&self) -> u128 {
        match self.conv {
            b'x' | b'X' => 16,
            b'o' => 8,
            _ => 10,
        }
    }

    /// Whether the value is read as signed.
    pub fn signed(&self) -> bool {
        matches!(self.conv, b'd' | b'i')
    }

    /// The number of bytes the field prints for argument bits `v`.
    pub fn len(&self, v: u128) -> usize {
        let v = v & mask(self.bits);
        let (negative, magnitude) = if self.signed() {
            let s = sign_extend(v, self.bits);
            (s < 0, s.unsigned_abs())
        } else {
            (false, v)
        };
        let mut digits = 1;
        let mut m = magnitude / self.base();
        while m > 0 {
            digits += 1;
            m /= self.base();
        }
        let shown = match self.precision {
            Some(0) if magnitude == 0 => 0,
            Some(p) => digits.max(p),
            None => digits,
        };
        // `%#o` adds a zero unless the precision's zeros or a zero value already begin the digits.
        let leading_zero = shown > digits || (magnitude == 0 && shown > 0);
        let prefix = match self.conv {
            b'd' | b'i' => usize::from(negative || self.sign_always),
            b'x' | b'X' if self.alt && magnitude != 0 => 2,
            b'o' if self.alt && !leading_zero => 1,
            _ => 0,
        };
        let digits = shown;
        self.width.max(prefix + digits)
    }
}

#[derive(Default)]
struct Spec {
    left: bool,
    zero: bool,
    plus: bool,
    space: bool,
    alt: bool,
    width: Option<usize>,
    precision: Option<usize>,
    /// Bits of the argument as the length modifier says (8, 16, 32 or 64).
    bits: u32,
}

/// Formats `fmt`, calling `next` for each argument in order.
pub fn format<E>(
    fmt: &[u8],
    next: &mut dyn FnMut(ArgNeed) -> Result<ArgValue, E>,
) -> Result<Vec<u8>, FormatError<E>> {
    // Room for the format and a few conversions: grown a byte at a time from empty, the output was
    // reallocated four times for a one-line message.
    let mut out = Vec::with_capacity(fmt.len() + 32);
    let mut i = 0;
    let int = |next: &mut dyn FnMut(ArgNeed) -> Result<ArgValue, E>,
               need: ArgNeed|
     -> Result<u128, FormatError<E>> {
        match next(need).map_err(FormatError::Arg)? {
            ArgValue::Int(v) => Ok(v),
            ArgValue::Str(_) => Ok(0),
        }
    };
    while i < fmt.len() {
        let c = fmt[i];
        i += 1;
        if c != b'%' {
            out.push(c);
            continue;
        }
        let start = i - 1;
        let mut spec = Spec {
            bits: 32,
            ..Spec::default()
        };
        while let Some(&f) = fmt.get(i) {
            match f {
                b'-' => spec.left = true,
                b'0' => spec.zero = true,
                b'+' => spec.plus = true,
                b' ' => spec.space = true,
                b'#' => spec.alt = true,
                _ => break,
            }
            i += 1;
        }
        if fmt.get(i) == Some(&b'*') {
            i += 1;
            let w = int(next, ArgNeed::Count)? as u32 as i32;
            if w < 0 {
                spec.left = true;
            }
            spec.width = Some(w.unsigned_abs() as usize);
        } else {
            spec.width = number(fmt, &mut i);
        }
        if fmt.get(i) == Some(&b'.') {
            i += 1;
            if fmt.get(i) == Some(&b'*') {
                i += 1;
                let p = int(next, ArgNeed::Count)? as u32 as i32;
                spec.precision = (p >= 0).then_some(p as usize);
            } else {
                spec.precision = Some(number(fmt, &mut i).unwrap_or(0));
            }
        }
        loop {
            match fmt.get(i) {
                Some(b'h') if spec.bits == 16 => spec.bits = 8,
                Some(b'h') => spec.bits = 16,
                Some(b'l' | b'j' | b'z' | b't' | b'q' | b'L') => spec.bits = 64,
                _ => break,
            }
            i += 1;
        }
        let conv = fmt.get(i).copied();
        i += 1;
        let number = |conv: u8| {
            ArgNeed::Number(NumberField {
                conv,
                sign_always: spec.plus || spec.space,
                alt: spec.alt,
                width: spec.width.unwrap_or(0),
                precision: spec.precision,
                bits: spec.bits,
            })
        };
        let body: Vec<u8> = match conv {
            Some(b'%') => {
                out.push(b'%');
                continue;
            }
            Some(c @ (b'd' | b'i')) => {
                let v = int(next, number(c))?;
                let s = sign_extend(v, spec.bits);
                let sign = if s < 0 {
                    "-"
                } else if spec.plus {
                    "+"
                } else if spec.space {
                    " "
                } else {
                    ""
                };
                let mut buf = [0u8; DIGITS];
                let at = digits(s.unsigned_abs(), 10, false, &mut buf);
                integer(&mut out, &spec, sign.as_bytes(), &buf[at..], false);
                continue;
            }
            Some(c @ (b'u' | b'x' | b'X' | b'o')) => {
                let v = int(next, number(c))? & mask(spec.bits);
                let base = match c {
                    b'u' => 10,
                    b'x' | b'X' => 16,
                    _ => 8,
                };
                let mut buf = [0u8; DIGITS];
                let at = digits(v, base, c == b'X', &mut buf);
                let prefix: &[u8] = match (spec.alt, c, v) {
                    (true, b'x', 1..) => b"0x",
                    (true, b'X', 1..) => b"0X",
                    _ => b"",
                };
                let octal_alt = spec.alt && c == b'o';
                integer(&mut out, &spec, prefix, &buf[at..], octal_alt);
                continue;
            }
            Some(b'c') => {
                spec.zero = false;
                vec![int(next, ArgNeed::Int)? as u8]
            }
            Some(b's') => {
                spec.zero = false;
                let mut s = match next(ArgNeed::Str(spec.precision)).map_err(FormatError::Arg)? {
                    ArgValue::Str(s) => s,
                    ArgValue::Int(_) => Vec::new(),
                };
                if let Some(p) = spec.precision {
                    s.truncate(p);
                }
                s
            }
            Some(b'n') => {
                next(ArgNeed::Written {
                    so_far: out.len(),
                    bits: spec.bits,
                })
                .map_err(FormatError::Arg)?;
                continue;
            }
            Some(b'p') => {
                spec.zero = false;
                let v = int(next, ArgNeed::Address)? as u64;
                if v == 0 {
                    b"(nil)".to_vec()
                } else {
                    let mut buf = [0u8; DIGITS];
                    let at = digits(u128::from(v), 16, false, &mut buf);
                    [b"0x", &buf[at..]].concat()
                }
            }
            _ => {
                let end = i.min(fmt.len());
                let what = String::from_utf8_lossy(&fmt[start..end]).into_owned();
                return Err(FormatError::Unsupported(format!(
                    "printf conversion `{what}`"
                )));
            }
        };
        pad(&mut out, &spec, &body);
    }
    Ok(out)
}

fn number(fmt: &[u8], i: &mut usize) -> Option<usize> {
    let begin = *i;
    while fmt.get(*i).is_some_and(u8::is_ascii_digit) {
        *i += 1;
    }
    std::str::from_utf8(&fmt[begin..*i]).ok()?.parse().ok()
}

fn mask(bits: u32) -> u128 {
    (1u128 << bits) - 1
}

fn sign_extend(v: u128, bits: u32) -> i128 {
    let sh = 128 - bits;
    ((v << sh) as i128) >> sh
}

/// Room for the digits of any argument (a 128-bit value in octal has 43).
const DIGITS: usize = 44;

/// The digits of `v` in `base` (8, 10 or 16), most significant first, at the end of `buf`; returns where
/// they begin. Written here rather than by `format!`: a program that prints a line per global (as
/// csmith's do) spent a third of its `printf` calls in the formatting machinery and its allocations.
fn digits(v: u128, base: u32, upper: bool, buf: &mut [u8; DIGITS]) -> usize {
    let set: &[u8; 16] = if upper {
        b"0123456789ABCDEF"
    } else {
        b"0123456789abcdef"
    };
    let mut at = DIGITS;
    // A machine word's division where the value fits one (every argument but a 128-bit one).
    match u64::try_from(v) {
        Ok(mut w) => loop {
            at -= 1;
            buf[at] = set[(w % u64::from(base)) as usize];
            w /= u64::from(base);
            if w == 0 {
                break;
            }
        },
        Err(_) => {
            let mut w = v;
            loop {
                at -= 1;
                buf[at] = set[(w % u128::from(base)) as usize];
                w /= u128::from(base);
                if w == 0 {
                    break;
                }
            }
        }
    }
    at
}

/// A numeric field into `out`: spaces to the width (before the field, or after it with `-`), the sign or
/// prefix, zeros (to the width with `0` and no precision; to the precision; one more for `%#o` whose
/// first digit is not already a zero, C11 7.21.6.1p6), then the digits (none for a zero value of
/// precision 0).
fn integer(out: &mut Vec<u8>, spec: &Spec, prefix: &[u8], digits: &[u8], octal_alt: bool) {
    let digits = if spec.precision == Some(0) && digits == b"0" {
        &[][..]
    } else {
        digits
    };
    let mut zeros = spec.precision.unwrap_or(0).saturating_sub(digits.len());
    if octal_alt && zeros == 0 && digits.first() != Some(&b'0') {
        zeros = 1;
    }
    let len = prefix.len() + zeros + digits.len();
    let width = spec.width.unwrap_or(0);
    let mut spaces = width.saturating_sub(len);
    if spec.zero && !spec.left && spec.precision.is_none() {
        zeros += spaces;
        spaces = 0;
    }
    if !spec.left {
        out.extend(std::iter::repeat_n(b' ', spaces));
    }
    out.extend_from_slice(prefix);
    out.extend(std::iter::repeat_n(b'0', zeros));
    out.extend_from_slice(digits);
    if spec.left {
        out.extend(std::iter::repeat_n(b' ', spaces));
    }
}

fn pad(out: &mut Vec<u8>, spec: &Spec, body: &[u8]) {
    let width = spec.width.unwrap_or(0);
    let fill = width.saturating_sub(body.len());
    if !spec.left {
        out.extend(std::iter::repeat_n(b' ', fill));
    }
    out.extend_from_slice(body);
    if spec.left {
        out.extend(std::iter::repeat_n(b' ', fill));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fmt(f: &str, args: Vec<ArgValue>) -> String {
        let mut it = args.into_iter();
        let out = format::<()>(f.as_bytes(), &mut |_| {
            Ok(it.next().unwrap_or(ArgValue::Int(0)))
        })
        .unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn integers_like_glibc() {
        use ArgValue::Int;
        assert_eq!(
            fmt(
                "%d|%5d|%-5d|%05d",
                vec![
                    Int(0xffff_ffff),
                    Int(42),
                    Int(42),
                    Int((-42i32) as u32 as u128)
                ]
            ),
            "-1|   42|42   |-0042"
        );
        assert_eq!(
            fmt(
                "%u %x %X %#x %o",
                vec![Int(0xffff_ffff), Int(255), Int(255), Int(255), Int(8)]
            ),
            "4294967295 ff FF 0xff 10"
        );
        assert_eq!(
            fmt("%ld %lu %lld %llu %lx", vec![Int(u64::MAX as u128); 5]),
            "-1 18446744073709551615 -1 18446744073709551615 ffffffffffffffff"
        );
        assert_eq!(
            fmt(
                "%hhd %hd %+d % d",
                vec![Int(0xff), Int(0x8000), Int(3), Int(3)]
            ),
            "-1 -32768 +3  3"
        );
        assert_eq!(
            fmt(
                "%.3d|%.0d|%*d|%-*d|",
                vec![Int(7), Int(0), Int(4), Int(1), Int(3), Int(2)]
            ),
            "007||   1|2  |"
        );
    }

    /// Every combination of flags, width, precision, length and conversion of integers, on values at the
    /// edges of each length, formatted as the machine's C library formats them (the independent ground:
    /// glibc's `snprintf`).
    #[test]
    fn integers_as_the_c_library_formats_them() {
        let values: [i64; 9] = [0, 1, -1, 8, 42, -42, 255, i32::MIN as i64, i64::MIN];
        let (mut checked, mut wrong) = (0, Vec::new());
        for flags in ["", "-", "0", "+", " ", "#", "-#", "0#", "+0", "- "] {
            for width in ["", "1", "6", "12", "25"] {
                for precision in ["", ".", ".0", ".1", ".5", ".22"] {
                    for length in ["", "hh", "h", "l", "ll"] {
                        for conv in ["d", "i", "u", "x", "X", "o"] {
                            let f = format!("<%{flags}{width}{precision}{length}{conv}>");
                            let c_fmt = std::ffi::CString::new(f.clone()).unwrap();
                            for &v in &values {
                                let mut buf = [0u8; 128];
                                // SAFETY: `buf` has room for the 128 bytes `snprintf` may write; the
                                // argument is of the type the length modifier names (C's promotions for
                                // `hh` and `h`).
                                let n = unsafe {
                                    if length.starts_with('l') {
                                        libc::snprintf(
                                            buf.as_mut_ptr().cast(),
                                            128,
                                            c_fmt.as_ptr(),
                                            v,
                                        )
                                    } else {
                                        libc::snprintf(
                                            buf.as_mut_ptr().cast(),
                                            128,
                                            c_fmt.as_ptr(),
                                            v as i32,
                                        )
                                    }
                                };
                                let expected = String::from_utf8_lossy(&buf[..n as usize]);
                                let ours = fmt(&f, vec![ArgValue::Int(v as u64 as u128)]);
                                if ours != expected {
                                    wrong.push(format!("{f} of {v}: {ours} instead of {expected}"));
                                }
                                checked += 1;
                            }
                        }
                    }
                }
            }
        }
        assert_eq!(checked, 10 * 5 * 6 * 5 * 6 * 9);
        assert!(
            wrong.is_empty(),
            "{} of {checked}:\n{}",
            wrong.len(),
            wrong.join("\n")
        );
    }

    #[test]
    fn chars_strings_pointers() {
        use ArgValue::{Int, Str};
        assert_eq!(
            fmt("%c%c%%", vec![Int(b'o' as u128), Int(b'k' as u128)]),
            "ok%"
        );
        assert_eq!(
            fmt("[%s|%6s|%-6s|%.2s]", vec![Str(b"abc".to_vec()); 4]),
            "[abc|   abc|abc   |ab]"
        );
        assert_eq!(fmt("%p %p", vec![Int(0), Int(0x1000)]), "(nil) 0x1000");
    }

    /// `NumberField::len` (what `printf` returns for a field) is the length of the text formatted.
    #[test]
    fn number_field_len_is_the_formatted_length() {
        let values = [
            0u128,
            1,
            9,
            10,
            255,
            256,
            0x7fff_ffff,
            0x8000_0000,
            0xffff_ffff,
            u64::MAX as u128,
        ];
        for f in [
            "%d", "%i", "%u", "%x", "%X", "%o", "%+d", "% d", "%#x", "%#o", "%5d", "%-6x", "%.0d",
            "%.0x", "%.4u", "%#8.3X", "%#.0o", "%#.1o", "%#.5o", "%#-9.2o", "%hhd", "%hu", "%ld",
            "%lx", "%lld", "%llo", "%08d", "%+.2i",
        ] {
            for &v in &values {
                let mut field = None;
                let out = format::<()>(f.as_bytes(), &mut |need| {
                    if let ArgNeed::Number(n) = need {
                        field = Some(n);
                    }
                    Ok(ArgValue::Int(v))
                })
                .unwrap();
                assert_eq!(field.unwrap().len(v), out.len(), "{f} {v}");
            }
        }
    }

    #[test]
    fn a_precision_bounds_the_string_read() {
        let mut asked = Vec::new();
        format::<()>(b"%s%.2s%.*s", &mut |need| {
            asked.push(need);
            Ok(ArgValue::Int(3))
        })
        .unwrap();
        let strings = [
            ArgNeed::Str(None),
            ArgNeed::Str(Some(2)),
            ArgNeed::Str(Some(3)),
        ];
        assert_eq!(asked, [strings[0], strings[1], ArgNeed::Count, strings[2]]);
    }

    #[test]
    fn unsupported_conversion_is_named() {
        let e = format::<()>(b"x=%f", &mut |_| Ok(ArgValue::Int(0))).unwrap_err();
        assert_eq!(e, FormatError::Unsupported("printf conversion `%f`".into()));
    }
}
