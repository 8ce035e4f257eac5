//! What every tool's command line shares: `--help`, one-line errors, checked values.

use std::process::ExitCode;
use std::str::FromStr;

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
