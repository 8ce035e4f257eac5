//! What every tool's command line shares: `--help`, one-line errors, checked values.

use std::fmt::Display;
use std::ops::{Bound, RangeBounds};
use std::process::ExitCode;
use std::str::FromStr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::Instant;

/// The `main` of a tool: with `-h` or `--help` anywhere it prints `usage` and exits with 0;
/// otherwise it runs `run`, whose error is printed as one line `name: message` on stderr
/// with exit status 1.
pub fn main(name: &str, usage: &str, run: impl FnOnce() -> Result<(), String>) -> ExitCode {
    if std::env::args().skip(1).any(|a| a == "-h" || a == "--help") {
        print!("{usage}");
        return ExitCode::SUCCESS;
    }
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("{name}: {message}");
            ExitCode::FAILURE
        }
    }
}

/// The text after `flag` (a path, a command), whatever it is.
///
/// # Errors
///
/// A one-line message when there is none.
pub fn text(flag: &str, text: Option<String>) -> Result<String, String> {
    text.ok_or_else(|| format!("{flag} needs a value"))
}

/// A number a flag takes: whole (`u32`, `usize`, ...) or not (`f32`, `f64`), so that an
/// error can say which.
pub trait Number: FromStr + PartialOrd + Display {
    /// "a whole number" or "a number".
    const KIND: &'static str;
    /// False for the infinities and NaN, which no flag takes.
    fn is_finite(&self) -> bool {
        true
    }
}

macro_rules! whole_numbers {
    ($($t:ty),*) => {$(
        impl Number for $t {
            const KIND: &'static str = "a whole number";
        }
    )*};
}
whole_numbers!(u8, u16, u32, u64, usize, i32, i64);

macro_rules! real_numbers {
    ($($t:ty),*) => {$(
        impl Number for $t {
            const KIND: &'static str = "a number";
            fn is_finite(&self) -> bool {
                <$t>::is_finite(*self)
            }
        }
    )*};
}
real_numbers!(f32, f64);

/// The number after `flag`, within `range` (`1..=64`, `..=20`, `(Excluded(0.0),
/// Included(600.0))`, `..` for any).
///
/// # Errors
///
/// A one-line message when the value is missing, not a (finite) number of the right kind,
/// or outside the range; it names the range: `--threads must be a whole number from 1 to
/// 64, not "0"`.
pub fn number<T: Number>(
    flag: &str,
    text: Option<String>,
    range: impl RangeBounds<T>,
) -> Result<T, String> {
    let text = text.ok_or_else(|| format!("{flag} needs a value"))?;
    text.parse()
        .ok()
        .filter(|n: &T| n.is_finite() && range.contains(n))
        .ok_or_else(|| {
            let kind = T::KIND;
            let within = within(range.start_bound(), range.end_bound());
            format!("{flag} must be {kind}{within}, not {text:?}")
        })
}

/// The words for a range: ` from 1 to 64`, ` above 0 and at most 10`, ` at least 1`, or
/// nothing for no bounds.
fn within<T: Display>(low: Bound<&T>, high: Bound<&T>) -> String {
    let word = |bound: Bound<&T>, inclusive: &str, exclusive: &str| match bound {
        Bound::Included(x) => Some(format!("{inclusive} {x}")),
        Bound::Excluded(x) => Some(format!("{exclusive} {x}")),
        Bound::Unbounded => None,
    };
    match (low, high) {
        (Bound::Included(a), Bound::Included(b)) => format!(" from {a} to {b}"),
        _ => match (
            word(low, "at least", "above"),
            word(high, "at most", "below"),
        ) {
            (Some(l), Some(h)) => format!(" {l} and {h}"),
            (Some(w), None) | (None, Some(w)) => format!(" {w}"),
            (None, None) => String::new(),
        },
    }
}

/// The value after `flag`, one of the names in `choices`, as the value paired with it. The
/// error lists the names, so it cannot fall behind what is accepted.
///
/// # Errors
///
/// A one-line message when the value is missing or not one of the names.
pub fn choice<T: Copy>(
    flag: &str,
    text: Option<String>,
    choices: &[(&str, T)],
) -> Result<T, String> {
    let text = text.ok_or_else(|| format!("{flag} needs a value"))?;
    if let Some(&(_, value)) = choices.iter().find(|(name, _)| *name == text) {
        return Ok(value);
    }
    let names: Vec<&str> = choices.iter().map(|&(name, _)| name).collect();
    let list = match names.split_last() {
        Some((last, [])) => (*last).to_string(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    };
    Err(format!("{flag} is {list}, not {text:?}"))
}

/// A range `LOW..HIGH` after `flag`, with `1 <= LOW <= HIGH <= limit` (counts of empty
/// squares, say).
///
/// # Errors
///
/// A one-line message when the value is missing or not such a range.
pub fn range(flag: &str, text: Option<String>, limit: u32) -> Result<(u32, u32), String> {
    let text = text.ok_or_else(|| format!("{flag} needs a value"))?;
    split_pair(&text, "..", |&a: &u32, &b| 1 <= a && a <= b && b <= limit)
        .ok_or_else(|| format!("{flag} is LOW..HIGH within 1..{limit}, not {text:?}"))
}

/// A pair `A:B` after `flag`, both parsed and accepted by `ok`; `form` says what is
/// expected (`"GENERATION:RATE, as 300:0.002"`) in the error.
///
/// # Errors
///
/// A one-line message when the value is missing or not such a pair.
pub fn pair<A: FromStr, B: FromStr>(
    flag: &str,
    text: Option<String>,
    form: &str,
    ok: impl Fn(&A, &B) -> bool,
) -> Result<(A, B), String> {
    let text = text.ok_or_else(|| format!("{flag} needs a value"))?;
    split_pair(&text, ":", ok).ok_or_else(|| format!("{flag} takes {form}, not {text:?}"))
}

/// `text` split at the first `separator`, both sides parsed and accepted by `ok`.
fn split_pair<A: FromStr, B: FromStr>(
    text: &str,
    separator: &str,
    ok: impl Fn(&A, &B) -> bool,
) -> Option<(A, B)> {
    text.split_once(separator)
        .and_then(|(a, b)| Some((a.parse().ok()?, b.parse().ok()?)))
        .filter(|(a, b)| ok(a, b))
}

/// KataGo's score utility after `flag`: `W` or `W:SCALE`, the weight in 0..1 and the
/// scale in 0.1..100 discs or points (2 when not given).
///
/// # Errors
///
/// A one-line message when the value is missing or not of that form.
pub fn score_utility(flag: &str, text: Option<String>) -> Result<(f64, f64), String> {
    let text = text.ok_or_else(|| format!("{flag} needs a value"))?;
    let (weight, scale) = text
        .split_once(':')
        .map_or((text.parse().ok(), Some(2.0)), |(w, s)| {
            (w.parse().ok(), s.parse().ok())
        });
    let ok = |x: Option<f64>, range: std::ops::RangeInclusive<f64>| x.filter(|x| range.contains(x));
    match (ok(weight, 0.0..=1.0), ok(scale, 0.1..=100.0)) {
        (Some(w), Some(s)) => Ok((w, s)),
        _ => Err(format!(
            "{flag} takes W or W:SCALE, W in 0..1 and SCALE in 0.1..100 discs, not {text:?}"
        )),
    }
}

/// `--lcb Z:S` after `flag`: the move by a lower confidence bound on its value, Z standard
/// errors (0..=100) among the moves with at least S (0..=1) of the most visited one's
/// visits ([`games::mcts::Lcb`]).
///
/// # Errors
///
/// A one-line message when the value is missing or not of that form.
pub fn lcb(flag: &str, text: Option<String>) -> Result<games::mcts::Lcb, String> {
    let form = "Z:S, Z in 0..=100 standard errors and S in 0..=1, as 5:0.15";
    let ok = |z: &f64, s: &f64| (0.0..=100.0).contains(z) && (0.0..=1.0).contains(s);
    let (stdevs, min_share) = pair(flag, text, form, ok)?;
    Ok(games::mcts::Lcb { stdevs, min_share })
}

/// `--dynamic-komi K:T` (the points a side behind gets) or `--dynamic-komi-ahead K:T` (the
/// points a side ahead gives) after `flag`, K in 1..=36 and T in 0..1, into `dynamic`
/// ([`games::nn::DynamicKomi`], made if it is `None`).
///
/// # Errors
///
/// A one-line message when the value is missing or not of that form.
pub fn dynamic_komi(
    flag: &str,
    text: Option<String>,
    dynamic: &mut Option<games::nn::DynamicKomi>,
) -> Result<(), String> {
    let form = "K:T, K in 1..=36 and T in 0..1, as 4:0.9";
    let ok = |&k: &i32, &t: &f32| (1..=36).contains(&k) && (0.0..1.0).contains(&t);
    let (k, t) = pair(flag, text, form, ok)?;
    let dynamic = dynamic.get_or_insert_with(Default::default);
    if flag == "--dynamic-komi-ahead" {
        (dynamic.give, dynamic.above) = (k, t);
    } else {
        (dynamic.extra, dynamic.below) = (k, t);
    }
    Ok(())
}

/// Whether `net` has the komi plane, the last of 6×6 Othello's
/// ([`games::nn::planes_for`]), which dynamic komi needs.
pub fn sees_komi(net: &games::nn::Net) -> bool {
    net.shape().planes == *games::nn::planes_for("othello").end()
}

/// How a network player sees each position (`--views`): as it is, or through K of the
/// board's 8 symmetries drawn at random for each evaluation and averaged (8: all of them,
/// AlphaGo's evaluation; 1: one at random, AlphaGo Zero's).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Views {
    /// The position as it is.
    Plain,
    /// K of the 8 views, 1..=8.
    Sampled(usize),
}

impl Views {
    /// `--views`' value after `flag`: plain, avg (8), random (1) or avgK.
    ///
    /// # Errors
    ///
    /// A one-line message when the value is missing or none of those.
    pub fn parse(flag: &str, text: Option<String>) -> Result<Views, String> {
        let text = text.ok_or_else(|| format!("{flag} needs a value"))?;
        match text.as_str() {
            "plain" => return Ok(Views::Plain),
            "avg" => return Ok(Views::Sampled(8)),
            "random" => return Ok(Views::Sampled(1)),
            _ => {}
        }
        match text.strip_prefix("avg").and_then(|k| k.parse().ok()) {
            Some(k @ 1..=8) => Ok(Views::Sampled(k)),
            _ => Err(format!(
                "{flag} is plain, avg, random or avgK (K of the 8 symmetries, 1..=8), \
                 not {text:?}"
            )),
        }
    }

    /// The network's evaluation seeing positions this way; `seed` for the random views.
    pub fn inference(self, net: &games::nn::Net, seed: u64) -> games::nn::Inference<'_> {
        match self {
            Views::Plain => games::nn::Inference::new(net),
            Views::Sampled(count) => games::nn::Inference::sampled_views(net, count, seed),
        }
    }
}

/// The network in the weights file at `path`, checked to be for `game` on a `size`×`size`
/// board (`None`: any size).
///
/// # Errors
///
/// One line naming the file and what is wrong with it (unreadable, not a weights file, cut
/// short, corrupt, for another game or board).
pub fn load_weights(path: &str, game: &str, size: Option<usize>) -> Result<games::nn::Net, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("weights {path}: {e}"))?;
    games::nn::Net::from_bytes_for(&bytes, game, size, games::nn::planes_for(game))
        .map_err(|e| format!("weights {path}: {e}"))
}

/// The file at `path` as text, for the tools that read positions, data or logs.
///
/// # Errors
///
/// One line, `PATH: ...`: why it could not be read, or the line of its first byte that is
/// not UTF-8 text.
pub fn read_text(path: impl AsRef<std::path::Path>) -> Result<String, String> {
    let path = path.as_ref();
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    String::from_utf8(bytes).map_err(|e| {
        let good = &e.as_bytes()[..e.utf8_error().valid_up_to()];
        let line = 1 + good.iter().filter(|&&b| b == b'\n').count();
        format!("{}: line {line}: not UTF-8 text", path.display())
    })
}

/// The endgame solver's pattern evaluation in the file at `path`, as the `--eval` option of
/// `othello_solve` and `endgame_fit probcut` reads it.
///
/// # Errors
///
/// One line, `FLAG PATH: ...` (the option that named the file), naming what is wrong
/// (unreadable, not a patterns file, cut short, corrupt).
pub fn load_patterns(flag: &str, path: &str) -> Result<games::endgame::eval::Patterns, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{flag} {path}: {e}"))?;
    games::endgame::eval::Patterns::from_bytes(&bytes).map_err(|e| format!("{flag} {path}: {e}"))
}

/// Progress of items that worker threads finish: each [`Progress::tick`] counts one and says
/// when a line is due, every `every` seconds or when `also` asks for one.
pub struct Progress {
    done: AtomicUsize,
    clock: Instant,
    every: f64,
    last: Mutex<f64>,
}

impl Progress {
    /// Starts the clock.
    pub fn new(every: f64) -> Progress {
        Progress {
            done: AtomicUsize::new(0),
            clock: Instant::now(),
            every,
            last: Mutex::new(0.0),
        }
    }

    /// Counts one more item done; `Some((items done, seconds since the start))` when a line
    /// is due: `every` seconds after the last, or `also(items done)`.
    pub fn tick(&self, also: impl FnOnce(usize) -> bool) -> Option<(usize, f64)> {
        let finished = self.done.fetch_add(1, Ordering::Relaxed) + 1;
        let secs = self.clock.elapsed().as_secs_f64();
        let mut last = self.last.lock().unwrap_or_else(PoisonError::into_inner);
        (also(finished) || secs - *last >= self.every).then(|| {
            *last = secs;
            (finished, secs)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_choice_is_one_of_its_names_and_the_error_lists_them() {
        let sizes = [("small", 1), ("medium", 2), ("large", 3)];
        assert_eq!(choice("--size", Some("medium".into()), &sizes), Ok(2));
        assert_eq!(
            choice("--size", Some("huge".into()), &sizes),
            Err("--size is small, medium or large, not \"huge\"".to_string())
        );
        assert_eq!(
            choice("--size", None, &sizes),
            Err("--size needs a value".to_string())
        );
        assert_eq!(
            choice(
                "--on",
                Some("maybe".into()),
                &[("yes", true), ("no", false)]
            ),
            Err("--on is yes or no, not \"maybe\"".to_string())
        );
        assert_eq!(
            choice("--only", Some("two".into()), &[("one", 1)]),
            Err("--only is one, not \"two\"".to_string())
        );
    }

    #[test]
    fn a_number_is_within_its_range_and_the_error_names_the_range() {
        fn check<T: Number + std::fmt::Debug>(range: impl RangeBounds<T> + Clone, cases: &str) {
            for case in cases.lines().map(str::trim).filter(|l| !l.is_empty()) {
                let (text, says) = case.split_once(" => ").expect("TEXT => RESULT");
                let got = number("--n", Some(text.to_string()), range.clone());
                let got = got.map_or_else(|e| e, |n| format!("ok {n}"));
                assert_eq!(got, says, "--n {text}");
            }
        }
        check(
            1..=64u32,
            r#"
            1 => ok 1
            64 => ok 64
            0 => --n must be a whole number from 1 to 64, not "0"
            65 => --n must be a whole number from 1 to 64, not "65"
            1.5 => --n must be a whole number from 1 to 64, not "1.5"
            -3 => --n must be a whole number from 1 to 64, not "-3"
            two => --n must be a whole number from 1 to 64, not "two"
            "#,
        );
        check(
            (Bound::Excluded(0.0), Bound::Included(600.0)),
            r#"
            0.5 => ok 0.5
            600 => ok 600
            0 => --n must be a number above 0 and at most 600, not "0"
            NaN => --n must be a number above 0 and at most 600, not "NaN"
            "#,
        );
        check(
            0.0..1.0f32,
            r#"
            0 => ok 0
            1 => --n must be a number at least 0 and below 1, not "1"
            "#,
        );
        check(
            1usize..,
            "0 => --n must be a whole number at least 1, not \"0\"",
        );
        check(
            ..=20usize,
            "21 => --n must be a whole number at most 20, not \"21\"",
        );
        check::<u64>(
            ..,
            r#"
            18446744073709551615 => ok 18446744073709551615
            x => --n must be a whole number, not "x"
            "#,
        );
        check::<f64>(.., "inf => --n must be a number, not \"inf\"");
        assert_eq!(
            number::<u32>("--n", None, ..),
            Err("--n needs a value".to_string())
        );
    }

    #[test]
    fn a_text_file_names_the_line_of_its_first_byte_that_is_not_text() {
        let dir = testkit::scratch("cli-read-text");
        let cases: [(&str, &[u8], &str); 4] = [
            ("good", b"6\n......\n", "ok"),
            (
                "third",
                b"6\nBW....\n\xff\xfe\n",
                "third: line 3: not UTF-8 text",
            ),
            ("first", b"\xc3", "first: line 1: not UTF-8 text"),
            ("torn", b"a\nb\nc\xe2\x82", "torn: line 3: not UTF-8 text"),
        ];
        for (name, bytes, says) in cases {
            let path = dir.join(name);
            std::fs::write(&path, bytes).unwrap();
            match read_text(&path) {
                Ok(text) => assert_eq!((says, text.as_bytes()), ("ok", bytes), "{name}"),
                Err(e) => assert_eq!(e, format!("{}/{says}", dir.display()), "{name}"),
            }
        }
        let missing = read_text(dir.join("missing")).unwrap_err();
        assert!(
            missing.starts_with(&format!("{}/missing: ", dir.display())),
            "{missing}"
        );
    }
}
