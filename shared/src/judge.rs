//! Judge input and output: whitespace-separated tokens that remember their line, typed errors
//! that name the line and the problem, and [`run`], the `main` of every solver binary.
//!
//! Solvers never panic on bad input: every token is read through [`Tokens`], whose methods
//! return an [`InputError`]; [`run`] prints it as one line on stderr and exits with status 1.
//! Output is collected in a `String` and written only when the whole input was accepted, so a
//! rejected input never leaves partial output on stdout.
//!
//! # Examples
//!
//! ```
//! use games::judge::Tokens;
//!
//! let mut tokens = Tokens::new(b"2\n3 x\n");
//! assert_eq!(tokens.parse_in("N", 1..=5usize).unwrap(), 2);
//! assert_eq!(tokens.parse::<u32>("row").unwrap(), 3);
//! let err = tokens.parse::<u32>("column").unwrap_err();
//! assert_eq!(err.to_string(), "line 2: expected column, found `x`");
//! ```

use crate::grid;
use std::error::Error;
use std::fmt::{self, Display};
use std::io::{self, Read, Write};
use std::ops::RangeInclusive;
use std::str::FromStr;

/// Whitespace-separated tokens of a judge input, each with its 1-based line number.
///
/// Works on raw bytes: input that is not UTF-8 text is reported as an error on its line
/// instead of failing the whole read.
#[derive(Clone, Debug)]
pub struct Tokens<'a> {
    rest: &'a [u8],
    /// Line of the next unread byte.
    next_line: usize,
    /// Line of the token returned last (the line an error is reported on).
    token_line: usize,
}

/// An input the solver rejects, with the line it was found on.
#[derive(Debug)]
pub struct InputError {
    line: usize,
    kind: ErrorKind,
}

/// What is wrong with an input; see [`InputError`].
#[derive(Debug)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The input ended where a token was expected.
    UnexpectedEnd {
        /// What the solver was about to read.
        expected: String,
    },
    /// A token that does not parse as what was expected.
    Malformed {
        /// What the solver was about to read.
        expected: String,
        /// The token, shortened and escaped for printing.
        found: String,
    },
    /// A number outside the range the problem allows.
    OutOfRange {
        /// What the number is.
        what: String,
        /// The token as written.
        found: String,
        /// The allowed range, e.g. `1..=32`.
        allowed: String,
    },
    /// Bytes that are not UTF-8 text.
    NotText,
    /// Tokens left after the input should have ended.
    Trailing {
        /// The first extra token, shortened and escaped.
        found: String,
    },
    /// A well-formed line that breaks the problem's rules, such as an illegal move.
    Rule(Box<dyn Error + Send + Sync>),
}

/// Switches for a solver, taken from its command line by [`run`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// `--trace`: print the board after every move to stderr.
    pub trace: bool,
}

/// Longest piece of a bad token quoted in an error message.
const QUOTE_LIMIT: usize = 24;

impl<'a> Tokens<'a> {
    /// Tokens of `input`, starting on line 1. A UTF-8 byte order mark at the start (which
    /// editors on Windows write) is skipped.
    pub fn new(input: &'a [u8]) -> Self {
        Tokens {
            rest: input.strip_prefix(b"\xef\xbb\xbf").unwrap_or(input),
            next_line: 1,
            token_line: 1,
        }
    }

    /// The line of the token read last, or of the end of the input once it ran out.
    pub fn line(&self) -> usize {
        self.token_line
    }

    /// Skips whitespace, counting newlines; returns whether a token follows.
    fn skip_space(&mut self) -> bool {
        while let Some((&b, tail)) = self.rest.split_first() {
            if !b.is_ascii_whitespace() {
                return true;
            }
            if b == b'\n' {
                self.next_line += 1;
            }
            self.rest = tail;
        }
        false
    }

    /// The next raw token, or `None` at the end of the input.
    fn next_raw(&mut self) -> Option<&'a [u8]> {
        if !self.skip_space() {
            self.token_line = self.next_line;
            return None;
        }
        let len = self
            .rest
            .iter()
            .position(u8::is_ascii_whitespace)
            .unwrap_or(self.rest.len());
        let (token, tail) = self.rest.split_at(len);
        self.rest = tail;
        self.token_line = self.next_line;
        Some(token)
    }

    /// The next token as text.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::UnexpectedEnd`] at the end of the input, [`ErrorKind::NotText`] for bytes
    /// that are not UTF-8.
    pub fn token(&mut self, expected: &str) -> Result<&'a str, InputError> {
        let raw = self.next_raw().ok_or_else(|| {
            self.error(ErrorKind::UnexpectedEnd {
                expected: expected.to_string(),
            })
        })?;
        std::str::from_utf8(raw).map_err(|_| self.error(ErrorKind::NotText))
    }

    /// The next token parsed as a `T`.
    ///
    /// # Errors
    ///
    /// As [`Tokens::token`], and [`ErrorKind::Malformed`] when the token does not parse.
    pub fn parse<T: FromStr>(&mut self, expected: &str) -> Result<T, InputError> {
        let token = self.token(expected)?;
        token.parse().map_err(|_| {
            self.error(ErrorKind::Malformed {
                expected: expected.to_string(),
                found: quote(token),
            })
        })
    }

    /// The next token parsed as a number in `allowed`.
    ///
    /// A number too large for `T` is reported as out of range, not as malformed.
    ///
    /// # Errors
    ///
    /// As [`Tokens::parse`], and [`ErrorKind::OutOfRange`] outside `allowed`.
    pub fn parse_in<T>(&mut self, what: &str, allowed: RangeInclusive<T>) -> Result<T, InputError>
    where
        T: FromStr + PartialOrd + Display,
    {
        let token = self.token(what)?;
        self.number_in(token, what, allowed)
    }

    /// `token`, the token read last, parsed as a number in `allowed`: for formats where a
    /// token may be a number or a word (`3` or `pass`).
    ///
    /// # Errors
    ///
    /// [`ErrorKind::Malformed`] or [`ErrorKind::OutOfRange`].
    pub fn number_in<T>(
        &self,
        token: &str,
        what: &str,
        allowed: RangeInclusive<T>,
    ) -> Result<T, InputError>
    where
        T: FromStr + PartialOrd + Display,
    {
        let out_of_range = || {
            self.error(ErrorKind::OutOfRange {
                what: what.to_string(),
                found: quote(token),
                allowed: format!("{}..={}", allowed.start(), allowed.end()),
            })
        };
        match token.parse::<T>() {
            Ok(value) if allowed.contains(&value) => Ok(value),
            Ok(_) => Err(out_of_range()),
            // An integer with too many digits still reads as a number to a person.
            Err(_) if is_integer(token) => Err(out_of_range()),
            Err(_) => Err(self.error(ErrorKind::Malformed {
                expected: what.to_string(),
                found: quote(token),
            })),
        }
    }

    /// The next token as one row of a board: `width` characters, each one of `symbols`
    /// ([`grid::read_row`]). `row` is the row's 0-based index for messages (`None` when the
    /// whole board is one token).
    ///
    /// # Errors
    ///
    /// As [`Tokens::token`], and a rule error holding the [`grid::GridError`].
    pub fn grid_row<T: Copy>(
        &mut self,
        what: &str,
        row: Option<usize>,
        width: usize,
        symbols: &[(char, T)],
    ) -> Result<Vec<T>, InputError> {
        let token = self.token(what)?;
        grid::read_row(token, row, width, symbols).map_err(|e| self.rule_error(e))
    }

    /// Checks that nothing but whitespace is left.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::Trailing`] naming the first extra token.
    pub fn finish(&mut self) -> Result<(), InputError> {
        match self.next_raw() {
            None => Ok(()),
            Some(raw) => Err(self.error(ErrorKind::Trailing {
                found: quote(&String::from_utf8_lossy(raw)),
            })),
        }
    }

    /// An error on the line of the token read last.
    pub fn error(&self, kind: ErrorKind) -> InputError {
        InputError::new(self.token_line, kind)
    }

    /// A rule error (an illegal move, a bad board) on the line of the token read last.
    pub fn rule_error(&self, reason: impl Into<Box<dyn Error + Send + Sync>>) -> InputError {
        self.error(ErrorKind::Rule(reason.into()))
    }
}

fn is_integer(token: &str) -> bool {
    let digits = token.strip_prefix(['-', '+']).unwrap_or(token);
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

/// `token` shortened to [`QUOTE_LIMIT`] characters with control characters escaped, so an
/// error message stays on one line whatever the input holds.
fn quote(token: &str) -> String {
    let mut out: String = token
        .chars()
        .take(QUOTE_LIMIT)
        .flat_map(char::escape_debug)
        .collect();
    if token.chars().nth(QUOTE_LIMIT).is_some() {
        out.push_str("...");
    }
    out
}

impl InputError {
    /// An error of `kind` on 1-based `line`.
    pub fn new(line: usize, kind: ErrorKind) -> Self {
        InputError { line, kind }
    }

    /// The 1-based line the problem was found on.
    pub fn line(&self) -> usize {
        self.line
    }

    /// What is wrong.
    pub fn kind(&self) -> &ErrorKind {
        &self.kind
    }
}

impl Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.kind)
    }
}

impl Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ErrorKind::UnexpectedEnd { expected } => {
                write!(f, "input ended, expected {expected}")
            }
            ErrorKind::Malformed { expected, found } => {
                write!(f, "expected {expected}, found `{found}`")
            }
            ErrorKind::OutOfRange {
                what,
                found,
                allowed,
            } => write!(f, "{what} must be in {allowed}, found `{found}`"),
            ErrorKind::NotText => f.write_str("input is not UTF-8 text"),
            ErrorKind::Trailing { found } => {
                write!(f, "unexpected `{found}` after the end of the input")
            }
            ErrorKind::Rule(reason) => Display::fmt(reason, f),
        }
    }
}

impl Error for InputError {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        match &self.kind {
            ErrorKind::Rule(reason) => Some(&**reason),
            _ => None,
        }
    }
}

/// Runs a solver as a judge program: reads all of stdin, calls `solve` with the input, a
/// `String` for the answer and the options from the command line, then prints the answer to
/// stdout and exits with 0, or prints the error as one line on stderr and exits with 1.
///
/// Options: `--trace`, and `-h`/`--help`, which prints `usage` (the problem, the input and
/// output formats, the coordinate base) and exits with 0. Any other argument is a usage error
/// (status 1).
pub fn run<F>(name: &str, usage: &str, solve: F) -> !
where
    F: FnOnce(&[u8], &mut String, Options) -> Result<(), InputError>,
{
    let help = std::env::args_os()
        .skip(1)
        .any(|a| a == "-h" || a == "--help");
    if help {
        let mut stdout = io::stdout().lock();
        let written = write!(
            stdout,
            "{usage}\nusage: {name} [--trace] < input\n  --trace     \
             follow the solution on stderr (stdout keeps the judge's format)\n  \
             -h, --help  this text\n"
        );
        std::process::exit(i32::from(written.and_then(|()| stdout.flush()).is_err()));
    }
    let code = match run_inner(solve) {
        Ok(()) => 0,
        Err(message) => {
            // Nothing sensible is left to do if stderr itself is gone.
            let _ = writeln!(io::stderr(), "{name}: {message}");
            1
        }
    };
    std::process::exit(code)
}

fn run_inner<F>(solve: F) -> Result<(), String>
where
    F: FnOnce(&[u8], &mut String, Options) -> Result<(), InputError>,
{
    let mut options = Options::default();
    for arg in std::env::args_os().skip(1) {
        match arg.to_str() {
            Some("--trace") => options.trace = true,
            _ => {
                return Err(format!(
                "unknown argument {arg:?} (options: --trace, --help); the input comes from stdin"
            ))
            }
        }
    }
    let mut input = Vec::new();
    io::stdin()
        .read_to_end(&mut input)
        .map_err(|e| format!("cannot read stdin: {e}"))?;
    let mut answer = String::new();
    solve(&input, &mut answer, options).map_err(|e| e.to_string())?;
    let mut stdout = io::stdout().lock();
    stdout
        .write_all(answer.as_bytes())
        .and_then(|()| stdout.flush())
        .map_err(|e| format!("cannot write stdout: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_carry_their_line() {
        let mut t = Tokens::new(b"  1\n\n 2 3\r\n4");
        let lines: Vec<(u32, usize)> = (0..4)
            .map(|_| (t.parse::<u32>("n").unwrap(), t.line()))
            .collect();
        assert_eq!(lines, [(1, 1), (2, 3), (3, 3), (4, 4)]);
        assert!(t.finish().is_ok());
    }

    #[test]
    fn a_byte_order_mark_is_skipped() {
        let mut t = Tokens::new(b"\xef\xbb\xbf7\n8");
        assert_eq!(t.parse::<u32>("n").unwrap(), 7);
        assert_eq!((t.parse::<u32>("n").unwrap(), t.line()), (8, 2));
        // Only at the start: elsewhere it is not text a solver expects.
        let err = Tokens::new(b"7 \xef\xbb\xbf8").parse_in("n", 0..=9u32);
        assert!(err.is_ok());
        let err = Tokens::new(b"7 \xef\xbb\xbf8").finish_after_one();
        assert!(err.to_string().contains("unexpected"), "{err}");
    }

    #[test]
    fn end_of_input_is_reported_on_the_last_line() {
        let mut t = Tokens::new(b"5\n");
        t.parse::<u8>("N").unwrap();
        let err = t.parse::<u8>("row").unwrap_err();
        assert_eq!(err.to_string(), "line 2: input ended, expected row");
        let err = Tokens::new(b"").token("N").unwrap_err();
        assert_eq!(err.to_string(), "line 1: input ended, expected N");
    }

    #[test]
    fn ranges_and_huge_numbers() {
        let err = Tokens::new(b"0").parse_in("N", 1..=32u32).unwrap_err();
        assert_eq!(err.to_string(), "line 1: N must be in 1..=32, found `0`");
        let err = Tokens::new(b"99999999999999999999999")
            .parse_in("N", 1..=32u32)
            .unwrap_err();
        assert!(matches!(err.kind(), ErrorKind::OutOfRange { .. }), "{err}");
        let err = Tokens::new(b"-1").parse_in("N", 1..=32u32).unwrap_err();
        assert!(matches!(err.kind(), ErrorKind::OutOfRange { .. }), "{err}");
        let err = Tokens::new(b"3x").parse_in("N", 1..=32u32).unwrap_err();
        assert!(matches!(err.kind(), ErrorKind::Malformed { .. }), "{err}");
    }

    #[test]
    fn garbage_stays_on_one_line() {
        let err = Tokens::new(b"\xff\xfe\x00").token("N").unwrap_err();
        assert_eq!(err.to_string(), "line 1: input is not UTF-8 text");
        let long = format!("{}\u{7}", "9".repeat(100));
        let err = Tokens::new(long.as_bytes()).parse::<u8>("N").unwrap_err();
        let text = err.to_string();
        assert!(!text.contains('\n') && text.ends_with("...`"), "{text}");
        let err = Tokens::new(b"1 \x01\x02").finish_after_one();
        assert_eq!(
            err.to_string(),
            "line 1: unexpected `\\u{1}\\u{2}` after the end of the input"
        );
    }

    impl Tokens<'_> {
        fn finish_after_one(mut self) -> InputError {
            self.token("x").unwrap();
            self.finish().unwrap_err()
        }
    }
}
