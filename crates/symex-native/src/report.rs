//! Reading the runtime's record and the sanitizers' reports as symex outcomes (the bug kinds of
//! `spec/cli.md`).

use crate::Outcome;

/// The runtime's `end` record: `end KIND FILE LINE FUNCTION MESSAGE`, tab-separated.
pub(crate) fn runtime_end(events: &str) -> Option<Outcome> {
    let line = events.lines().find_map(|l| l.strip_prefix("end\t"))?;
    let mut f = line.splitn(5, '\t');
    let kind = f.next()?.to_string();
    let file = f.next().unwrap_or("");
    let lineno = f.next().and_then(|l| l.parse().ok()).filter(|&l| l > 0);
    let function = f.next().unwrap_or("");
    let message = f.next().unwrap_or("");
    Some(Outcome {
        kind,
        code: None,
        file: (!file.is_empty()).then(|| file.to_string()),
        line: lineno,
        function: (!function.is_empty()).then(|| function.to_string()),
        message: Some(message.to_string()),
    })
}

/// The outcome a sanitizer report describes; None when there is no report.
pub(crate) fn sanitizer(log: &str) -> Option<Outcome> {
    if log.trim().is_empty() {
        return None;
    }
    if let Some(o) = ubsan(log) {
        return Some(o);
    }
    let error = log.lines().find(|l| l.contains("ERROR: "))?;
    let error = &error[error.find("ERROR: ")? + 7..];
    let summary = log
        .lines()
        .find_map(|l| l.split_once("SUMMARY: AddressSanitizer: ").map(|(_, s)| s));
    let kind = if error.starts_with("LeakSanitizer") {
        "memory-leak"
    } else if error.contains("heap-buffer-overflow") && log.contains("freed by thread") {
        // An access past the end of a block that was already freed: ASan names the redzone it hit,
        // symex (which checks an object's lifetime before its bounds) the dead block.
        "use-after-free"
    } else {
        asan_kind(error, summary.unwrap_or(""))
    };
    let (file, line, function) = first_program_frame(log);
    Some(Outcome {
        kind: kind.into(),
        code: None,
        file,
        line,
        function,
        message: Some(short(error)),
    })
}

/// The error line without its register dump (`… at pc 0x… bp 0x… sp 0x…`, `(pc 0x… …)`).
fn short(error: &str) -> String {
    let end = [" at pc ", " (pc "]
        .iter()
        .filter_map(|m| error.find(m))
        .min()
        .unwrap_or(error.len());
    error[..end].trim().to_string()
}

/// The symex kind of an ASan error line (`AddressSanitizer: heap-use-after-free on address …`).
fn asan_kind(error: &str, summary: &str) -> &'static str {
    let what = error.strip_prefix("AddressSanitizer: ").unwrap_or(error);
    let ty = summary.split_whitespace().next().unwrap_or("");
    if what.starts_with("heap-use-after-free")
        || what.starts_with("stack-use-after-return")
        || what.starts_with("stack-use-after-scope")
    {
        "use-after-free"
    } else if what.starts_with("heap-buffer-overflow")
        || what.starts_with("stack-buffer-overflow")
        || what.starts_with("stack-buffer-underflow")
        || what.starts_with("global-buffer-overflow")
        || what.starts_with("dynamic-stack-buffer-overflow")
    {
        "out-of-bounds"
    } else if what.starts_with("attempting double-free") || ty == "double-free" {
        "double-free"
    } else if ty == "bad-free" || what.starts_with("attempting free on address") {
        "invalid-free"
    } else if what.starts_with("SEGV") || what.starts_with("BUS") {
        // A fault in the zero page is a null dereference (a small offset from null included); a fault
        // elsewhere is an access through a pointer to no object, which symex calls out-of-bounds.
        match fault_address(what) {
            Some(a) if a < 4096 => "null-deref",
            _ => "out-of-bounds",
        }
    } else if what.starts_with("FPE") {
        // Integer division by zero is caught by UBSan first; a SIGFPE that reaches ASan is `MIN / -1`
        // without the overflow check, which symex defines (it wraps).
        "undefined-behavior"
    } else if what.starts_with("stack-overflow") {
        "stack-overflow"
    } else {
        "undefined-behavior"
    }
}

/// The address of `SEGV on unknown address 0x…`.
fn fault_address(what: &str) -> Option<u64> {
    let hex = what.split("address 0x").nth(1)?;
    let hex: String = hex.chars().take_while(char::is_ascii_hexdigit).collect();
    u64::from_str_radix(&hex, 16).ok()
}

/// A UBSan report: `FILE:LINE:COL: runtime error: MESSAGE` and `SUMMARY: UndefinedBehaviorSanitizer: TYPE`.
fn ubsan(log: &str) -> Option<Outcome> {
    let line = log.lines().find(|l| l.contains(": runtime error: "))?;
    let (place, message) = line.split_once(": runtime error: ")?;
    let ty = log
        .lines()
        .find_map(|l| {
            l.split_once("SUMMARY: UndefinedBehaviorSanitizer: ")
                .map(|(_, s)| s)
        })
        .and_then(|s| s.split_whitespace().next())
        .unwrap_or("");
    let kind = match ty {
        // A `<<` of a signed value whose result is not representable (C11 6.5.7p4): an overflow, as
        // SV-COMP's no-overflow counts it.
        "signed-integer-overflow" | "invalid-shift-base" => "signed-overflow",
        // `1 << 32` on `int`: UBSan's base check skips such exponents, its exponent check reports
        // them ("shift exponent 32 is too large for 32-bit type 'int'"); 2^32 is no `int`, an
        // overflow as SV-COMP counts it. An unsigned type's is undefined behaviour, no overflow.
        "invalid-shift-exponent" if !message.contains("'unsigned") => "signed-overflow",
        "integer-divide-by-zero" => "div-by-zero",
        "null-pointer-use" => "null-deref",
        "unreachable-call" => "unreachable",
        _ if message.starts_with("division by zero") => "div-by-zero",
        _ => "undefined-behavior",
    };
    let mut parts = place.rsplitn(3, ':');
    let _col = parts.next();
    let lineno = parts.next().and_then(|l| l.parse().ok());
    let file = parts.next().map(str::to_string);
    let (_, _, function) = first_program_frame(log);
    Some(Outcome {
        kind: kind.into(),
        code: None,
        file,
        line: lineno,
        function,
        message: Some(message.trim().to_string()),
    })
}

/// The first frame of the report's first stack trace that is the program's (`#N 0x… in FUNC FILE:LINE:COL`),
/// skipping the sanitizers' interceptors, the C library and the replay runtime.
fn first_program_frame(log: &str) -> (Option<String>, Option<u32>, Option<String>) {
    for l in log.lines() {
        let l = l.trim_start();
        if !l.starts_with('#') {
            continue;
        }
        let Some((_, rest)) = l.split_once(" in ") else {
            continue;
        };
        let mut it = rest.split_whitespace();
        let (Some(func), Some(place)) = (it.next(), it.next()) else {
            continue;
        };
        if func.starts_with("__interceptor_")
            || func.starts_with("__asan")
            || func.starts_with("__sanitizer")
            || func.starts_with("__libc_")
            || func.starts_with("symex_")
            || place.starts_with('(')
            || place.contains("replay_runtime.c")
            || place.starts_with("/usr/")
        {
            continue;
        }
        let mut parts = place.rsplitn(3, ':');
        let (c, l2, f) = (parts.next(), parts.next(), parts.next());
        let (file, line) = match (f, l2, c) {
            (Some(f), Some(l), Some(_)) => (f, l.parse().ok()),
            _ => (place, None),
        };
        return (Some(file.to_string()), line, Some(func.to_string()));
    }
    (None, None, None)
}

#[cfg(test)]
mod tests {
    use super::*;

    // Report lines as clang-14's sanitizers print them.
    const OVERFLOW: &str = "==1==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x602000000020 at pc 0x1 bp 0x2 sp 0x3\nWRITE of size 4 at 0x602000000020 thread T0\n    #0 0x55b33641df73 in main /tmp/a.c:3:49\n    #1 0x7fdd3baba249 in __libc_start_call_main csu/../sysdeps/nptl/libc_start_call_main.h:58:16\n\nSUMMARY: AddressSanitizer: heap-buffer-overflow /tmp/a.c:3:49 in main\n";

    #[test]
    fn asan_reports_map_to_bug_kinds() {
        let o = sanitizer(OVERFLOW).unwrap();
        assert_eq!(o.kind, "out-of-bounds");
        assert_eq!((o.file.as_deref(), o.line), (Some("/tmp/a.c"), Some(3)));
        assert_eq!(o.function.as_deref(), Some("main"));
        let null =
            "==1==ERROR: AddressSanitizer: SEGV on unknown address 0x000000000010 (pc 0x5)\n";
        assert_eq!(sanitizer(null).unwrap().kind, "null-deref");
        let wild =
            "==1==ERROR: AddressSanitizer: SEGV on unknown address 0x7f0000001000 (pc 0x5)\n";
        assert_eq!(sanitizer(wild).unwrap().kind, "out-of-bounds");
        let bad = "==1==ERROR: AddressSanitizer: attempting free on address which was not malloc()-ed: 0x7ffd in thread T0\n    #0 0x1 in __interceptor_free (/tmp/u+0xa3ea2)\n    #1 0x2 in main /tmp/u.c:11:21\nSUMMARY: AddressSanitizer: bad-free (/tmp/u+0xa3ea2) in free\n";
        let o = sanitizer(bad).unwrap();
        assert_eq!(o.kind, "invalid-free");
        assert_eq!(o.line, Some(11));
        let past_freed = format!("{OVERFLOW}freed by thread T0 here:\n");
        assert_eq!(sanitizer(&past_freed).unwrap().kind, "use-after-free");
        let leak = "==1==ERROR: LeakSanitizer: detected memory leaks\n\nSUMMARY: AddressSanitizer: 4 byte(s) leaked in 1 allocation(s).\n";
        assert_eq!(sanitizer(leak).unwrap().kind, "memory-leak");
    }

    #[test]
    fn ubsan_reports_map_to_bug_kinds() {
        let ov = "u.c:6:21: runtime error: division of -2147483648 by -1 cannot be represented in type 'int'\nSUMMARY: UndefinedBehaviorSanitizer: signed-integer-overflow u.c:6:21 in \n";
        let o = sanitizer(ov).unwrap();
        assert_eq!(o.kind, "signed-overflow");
        assert_eq!((o.file.as_deref(), o.line), (Some("u.c"), Some(6)));
        let shift = "u.c:9:21: runtime error: shift exponent 33 is too large for 32-bit type 'int'\nSUMMARY: UndefinedBehaviorSanitizer: invalid-shift-exponent u.c:9:21 in \n";
        assert_eq!(sanitizer(shift).unwrap().kind, "signed-overflow");
        let unsigned = shift.replace("'int'", "'unsigned int'");
        assert_eq!(sanitizer(&unsigned).unwrap().kind, "undefined-behavior");
        assert!(sanitizer("").is_none());
    }

    #[test]
    fn the_runtime_record_is_read() {
        let o = runtime_end("warning\tx\nend\treach-error\tp.c\t7\tmain\treach_error() called\n")
            .unwrap();
        assert_eq!(o.kind, "reach-error");
        assert_eq!((o.file.as_deref(), o.line), (Some("p.c"), Some(7)));
        assert!(runtime_end("warning\tx\n").is_none());
    }
}
