//! What every tool's command line shares: `--help`, one-line errors, checked values.

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

/// The value after `flag`, parsed, and accepted by `ok`.
///
/// # Errors
///
/// A one-line message when the value is missing, does not parse, or `ok` refuses it.
pub fn value<T: FromStr>(
    flag: &str,
    text: Option<String>,
    ok: impl Fn(&T) -> bool,
) -> Result<T, String> {
    let text = text.ok_or_else(|| format!("{flag} needs a value"))?;
    text.parse()
        .ok()
        .filter(|v| ok(v))
        .ok_or_else(|| format!("{flag}: {text:?} is not an accepted value (see --help)"))
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
}
