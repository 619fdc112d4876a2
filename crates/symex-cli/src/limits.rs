//! Durations given on the command line (`--max-time`, `--solver-timeout`) and the process-wide time
//! budget they set.
//!
//! Every subcommand parses durations here, once: a bare number is seconds; `ms`, `s`, `min` and `h`
//! are units. Negative, NaN, infinite and larger-than-[`MAX_SECONDS`] values are usage errors (exit
//! status 2), so that no later `Instant + Duration` can overflow.
//!
//! `--max-time` counts from process start: the C front end, the analysis and any validation runs
//! after it all draw on the same budget, which [`left`] hands to each stage.

use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// The largest duration accepted (about 31 years): far beyond any run, and small enough that any
/// deadline derived from it, even multiplied by a small factor, stays within `Instant`'s range.
pub const MAX_SECONDS: f64 = 1e9;

static START: OnceLock<Instant> = OnceLock::new();
static MAX_TIME: OnceLock<Duration> = OnceLock::new();

/// Records the process start; the first call wins (`main` calls it before parsing flags).
pub fn mark_start() -> Instant {
    *START.get_or_init(Instant::now)
}

/// The instant `--max-time` counts from.
pub fn started() -> Instant {
    mark_start()
}

/// Sets the process's `--max-time` (the first call wins; without a call there is none).
pub fn set_max_time(max_time: Option<Duration>) {
    if let Some(t) = max_time {
        let _ = MAX_TIME.set(t);
    }
}

/// When the process's `--max-time` runs out, if it has one.
pub fn process_deadline() -> Option<Instant> {
    MAX_TIME.get().map(|t| deadline(*t))
}

/// What is left of a budget counted from process start (zero once spent).
pub fn left(budget: Duration) -> Duration {
    budget.saturating_sub(started().elapsed())
}

/// The deadline a budget counted from process start sets.
pub fn deadline(budget: Duration) -> Instant {
    started() + budget
}

/// The time limit of one solver query: the user's `--solver-timeout` when given; none when only
/// `--solver-rlimit` is (Z3's count then bounds each query alone, so that an answer is the same on an
/// idle and on a loaded machine); otherwise the subcommand's `default`.
pub fn query_timeout(
    given: Option<Duration>,
    rlimit: Option<u32>,
    default: Duration,
) -> Option<Duration> {
    match (given, rlimit) {
        (Some(t), _) => Some(t),
        (None, Some(_)) => None,
        (None, None) => Some(default),
    }
}

/// Parses `30`, `2.5`, `30s`, `500ms`, `5min`, `1h` (a clap value parser).
pub fn parse_duration(text: &str) -> Result<Duration, String> {
    let trimmed = text.trim();
    let word = trimmed.trim_start_matches(['+', '-']).to_ascii_lowercase();
    if word == "nan" {
        return Err(format!("`{text}` is not a number"));
    }
    if word == "inf" || word == "infinity" {
        return Err(format!(
            "`{text}` is not a finite duration (leave the flag out for no limit)"
        ));
    }
    let split = trimmed
        .find(|c: char| c.is_ascii_alphabetic() && c != 'e' && c != 'E')
        .unwrap_or(trimmed.len());
    let (number, unit) = trimmed.split_at(split);
    let scale = match unit.trim() {
        "" | "s" | "sec" => 1.0,
        "ms" => 1e-3,
        "m" | "min" => 60.0,
        "h" => 3600.0,
        other => {
            return Err(format!(
                "unknown unit `{other}` in `{text}` (use a number of seconds, or ms, s, min, h)"
            ))
        }
    };
    let value: f64 = number
        .trim()
        .parse()
        .map_err(|_| format!("`{text}` is not a duration (e.g. 30, 2.5, 30s, 500ms, 5min)"))?;
    let seconds = value * scale;
    if seconds.is_nan() {
        return Err(format!("`{text}` is not a number"));
    }
    if seconds < 0.0 {
        return Err(format!("`{text}` is negative"));
    }
    if seconds > MAX_SECONDS {
        return Err(format!(
            "`{text}` is too large (at most {MAX_SECONDS:e} seconds; leave the flag out for no limit)"
        ));
    }
    Ok(Duration::from_secs_f64(seconds))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_rlimit_alone_leaves_queries_without_a_clock() {
        let ten = Duration::from_secs(10);
        let one = Duration::from_secs(1);
        assert_eq!(query_timeout(None, None, ten), Some(ten));
        assert_eq!(query_timeout(None, Some(1000), ten), None);
        assert_eq!(query_timeout(Some(one), Some(1000), ten), Some(one));
        assert_eq!(query_timeout(Some(one), None, ten), Some(one));
    }

    #[test]
    fn numbers_and_units_are_seconds() {
        assert_eq!(parse_duration("30"), Ok(Duration::from_secs(30)));
        assert_eq!(parse_duration("30s"), Ok(Duration::from_secs(30)));
        assert_eq!(parse_duration("2.5"), Ok(Duration::from_millis(2500)));
        assert_eq!(parse_duration("500ms"), Ok(Duration::from_millis(500)));
        assert_eq!(parse_duration("5min"), Ok(Duration::from_secs(300)));
        assert_eq!(parse_duration("1h"), Ok(Duration::from_secs(3600)));
        assert_eq!(parse_duration("1e3"), Ok(Duration::from_secs(1000)));
        assert_eq!(parse_duration("0"), Ok(Duration::ZERO));
    }

    #[test]
    fn values_no_deadline_can_hold_are_refused() {
        for bad in [
            "inf",
            "-inf",
            "nan",
            "NaN",
            "-1",
            "-0.5s",
            "1e300",
            "1e19",
            "1e10",
            "infinity",
            "",
            "s",
            "3 parsecs",
            "1e9h",
        ] {
            assert!(parse_duration(bad).is_err(), "{bad} accepted");
        }
    }

    #[test]
    fn the_largest_accepted_value_still_makes_a_deadline() {
        let d = parse_duration("1e9").unwrap();
        assert!(Instant::now().checked_add(d * 4).is_some());
    }
}
