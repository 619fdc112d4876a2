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
        let digits = match self.precision {
            Some(0) if magnitude == 0 => 0,
            Some(p) => digits.max(p),
            None => digits,
        };
        let prefix = match self.conv {
            b'd' | b'i' => usize::from(negative || self.sign_always),
            b'x' | b'X' if self.alt && magnitude != 0 => 2,
            b'o' if self.alt && magnitude != 0 => 1,
            _ => 0,
        };
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
                integer(&spec, sign, s.unsigned_abs().to_string())
            }
            Some(c @ (b'u' | b'x' | b'X' | b'o')) => {
                let v = int(next, number(c))? & mask(spec.bits);
                let digits = match c {
                    b'u' => v.to_string(),
                    b'x' => format!("{v:x}"),
                    b'X' => format!("{v:X}"),
                    _ => format!("{v:o}"),
                };
                let prefix = match (spec.alt, c, v) {
                    (true, b'x', 1..) => "0x",
                    (true, b'X', 1..) => "0X",
                    (true, b'o', _) if !digits.starts_with('0') => "0",
                    _ => "",
                };
                integer(&spec, prefix, digits)
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
                    format!("0x{v:x}").into_bytes()
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
        pad(&mut out, &spec, body);
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

/// Digits with the precision applied, then the sign or prefix; zero padding goes between them.
fn integer(spec: &Spec, prefix: &str, digits: String) -> Vec<u8> {
    let digits = match spec.precision {
        Some(0) if digits == "0" => String::new(),
        Some(p) if digits.len() < p => format!("{}{digits}", "0".repeat(p - digits.len())),
        _ => digits,
    };
    let zero_pad = spec.zero && !spec.left && spec.precision.is_none();
    let width = spec.width.unwrap_or(0);
    let len = prefix.len() + digits.len();
    let mut s = prefix.as_bytes().to_vec();
    if zero_pad && len < width {
        s.extend(std::iter::repeat_n(b'0', width - len));
    }
    s.extend(digits.bytes());
    s
}

fn pad(out: &mut Vec<u8>, spec: &Spec, body: Vec<u8>) {
    let width = spec.width.unwrap_or(0);
    let fill = width.saturating_sub(body.len());
    if !spec.left {
        out.extend(std::iter::repeat_n(b' ', fill));
    }
    out.extend(body);
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
            "%.0x", "%.4u", "%#8.3X", "%hhd", "%hu", "%ld", "%lx", "%lld", "%llo", "%08d", "%+.2i",
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
