//! What the workspace's test packages share, so each is written once:
//!
//! - [`root`]: the repository root, wherever the test runs from;
//! - [`run`]: a program run with arguments and an input, under a time limit, that can neither
//!   block on a full pipe nor fail when the program exits without reading its input;
//! - [`refusals`] and [`assert_refused`]: bad input as a table, one case a line, and the
//!   one-line error with status 1 that each case must get;
//! - [`cases`]: the listing of `testdata/<problem>/`, each case with its expected outcome;
//! - [`skip`]: a test that cannot run says so, in a way the test command counts as SKIPPED
//!   rather than passed.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// The repository root (the workspace's top folder).
///
/// # Panics
///
/// If the folder two levels above this crate cannot be resolved.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .expect("the repository root exists")
}

/// Runs `program` with `args` and `input` on stdin, which is fed from a thread (a program that
/// stops reading, or never reads, cannot block or break the test), while stdout and stderr are
/// drained on threads of their own (a program with much to say cannot block on a full pipe).
/// `None` if it runs longer than `limit`; it is killed then.
///
/// # Panics
///
/// If the program cannot be started.
pub fn run(program: &Path, args: &[&str], input: &[u8], limit: Duration) -> Option<Output> {
    let mut child = Command::new(program)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {}: {e}", program.display()));
    let mut stdin = child.stdin.take().expect("piped stdin");
    let bytes = input.to_vec();
    // A program that exits without reading closes the pipe: that is not the test's failure.
    let feeder = std::thread::spawn(move || {
        let _ = stdin.write_all(&bytes);
    });
    let drain = |pipe: Option<Box<dyn Read + Send>>| {
        std::thread::spawn(move || {
            let mut all = Vec::new();
            if let Some(mut pipe) = pipe {
                let _ = pipe.read_to_end(&mut all);
            }
            all
        })
    };
    let stdout = drain(
        child
            .stdout
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let stderr = drain(
        child
            .stderr
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait on the program") {
            break status;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(Duration::from_millis(1));
    };
    let _ = feeder.join();
    Some(Output {
        status,
        stdout: stdout.join().expect("stdout drained"),
        stderr: stderr.join().expect("stderr drained"),
    })
}

/// [`run`] with a limit of a minute, panicking if the program hangs.
///
/// # Panics
///
/// If the program cannot be started or runs longer than a minute.
pub fn run_ok(program: &Path, args: &[&str], input: &[u8]) -> Output {
    run(program, args, input, Duration::from_secs(60))
        .unwrap_or_else(|| panic!("{} ran longer than a minute", program.display()))
}

/// A table of refusals, one case a line: a program's arguments, then ` => `, then what its
/// one-line error must say. A word listed in `names` stands for its value (a path made when
/// the test runs); blank lines are skipped.
///
/// # Panics
///
/// If a line has no ` => `.
pub fn refusals<'a>(table: &'a str, names: &[(&str, &'a str)]) -> Vec<(Vec<&'a str>, &'a str)> {
    table
        .lines()
        .filter(|line| !line.trim().is_empty())
        .map(|line| {
            let (args, says) = line
                .split_once(" => ")
                .unwrap_or_else(|| panic!("a refusal line needs ` => `: {line:?}"));
            let args = args
                .split_whitespace()
                .map(|word| {
                    names
                        .iter()
                        .find(|(name, _)| *name == word)
                        .map_or(word, |&(_, v)| v)
                })
                .collect();
            (args, says.trim())
        })
        .collect()
}

/// Asserts that `out` is `program` refusing its input as the workspace's tools do: exit
/// status 1, nothing on stdout, and one line on stderr that starts `program: ` and
/// contains `says`. `case` names the case in a failure.
///
/// # Panics
///
/// If any of that does not hold.
#[track_caller]
pub fn assert_refused(out: &Output, program: &str, says: &str, case: &str) {
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{case}: {err}");
    assert!(out.stdout.is_empty(), "{case}: stdout is not empty");
    assert_eq!(err.lines().count(), 1, "{case}: {err}");
    assert!(
        err.starts_with(&format!("{program}: ")) && err.contains(says),
        "{case}: expected `{program}: …{says}…`, got {err}"
    );
}

/// What a testdata case expects.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expected {
    /// Exit status 0 and this stdout (the `.out` file's text).
    Answer(String),
    /// Exit status 1, empty stdout and this one line on stderr (the `.err` file's text).
    Error(String),
}

/// One case of `testdata/<problem>/`: `<name>.in` with `<name>.out` or `<name>.err`.
#[derive(Clone, Debug)]
pub struct Case {
    /// The file stem.
    pub name: String,
    /// The `.in` file.
    pub input: PathBuf,
    /// What it expects.
    pub expected: Expected,
}

/// The problems with a folder in `testdata/`, sorted.
///
/// # Panics
///
/// If `testdata/` cannot be read.
pub fn problems() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(root().join("testdata"))
        .expect("testdata/ is readable")
        .filter_map(|e| {
            let e = e.ok()?;
            e.path()
                .is_dir()
                .then(|| e.file_name().to_str().map(String::from))?
        })
        .collect();
    names.sort();
    names
}

/// Every case of `testdata/<problem>/`, sorted by name.
///
/// # Panics
///
/// If the folder cannot be read, or a `.in` file has neither a `.out` nor a `.err` beside it
/// (a case that expects nothing would check nothing).
pub fn cases(problem: &str) -> Vec<Case> {
    let dir = root().join("testdata").join(problem);
    let mut inputs: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| Some(e.ok()?.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "in"))
        .collect();
    inputs.sort();
    inputs
        .into_iter()
        .map(|input| {
            let name = input
                .file_stem()
                .and_then(|s| s.to_str())
                .expect("a case has a UTF-8 name")
                .to_string();
            let read = |ext: &str| std::fs::read_to_string(input.with_extension(ext)).ok();
            let expected = match (read("out"), read("err")) {
                (Some(out), None) => Expected::Answer(out),
                (None, Some(err)) => Expected::Error(err),
                (Some(_), Some(_)) => panic!("{}: both .out and .err", input.display()),
                (None, None) => panic!("{}: neither .out nor .err", input.display()),
            };
            Case {
                name,
                input,
                expected,
            }
        })
        .collect()
}

/// Whether the test named `test` must skip because the environment variable `var` is set;
/// if so, says so on stderr and leaves a note in `target/test-skips/` that the test command
/// (`scripts/test.sh`) reports as SKIPPED, so that a skipped test is never counted as passed.
///
/// # Panics
///
/// If the note cannot be written.
pub fn skip_if_set(var: &str, test: &str) -> bool {
    if std::env::var_os(var).is_none() {
        return false;
    }
    let reason = format!("{var} is set");
    eprintln!("SKIPPED {test}: {reason}");
    let dir = root().join("target/test-skips");
    std::fs::create_dir_all(&dir).expect("target/test-skips can be made");
    std::fs::write(dir.join(test), format!("{reason}\n")).expect("the skip note is written");
    true
}

/// The oldest judge compiler the workspace targets (AtCoder's 2023 rustc).
pub const OLD_RUSTC: &str = "1.70.0";

/// Whether the tests that need rustc [`OLD_RUSTC`] run: `false` (a SKIPPED note, see
/// [`skip_if_set`]) when `GAMES_SKIP_RUSTC_1_70` is set.
///
/// # Panics
///
/// With the install command when the toolchain is missing (the test command,
/// `scripts/test.sh`, installs it first).
pub fn old_rustc(test: &str) -> bool {
    if skip_if_set("GAMES_SKIP_RUSTC_1_70", test) {
        return false;
    }
    let probe = Command::new("rustup")
        .args(["run", OLD_RUSTC, "rustc", "--version"])
        .output();
    assert!(
        probe.as_ref().is_ok_and(|o| o.status.success()),
        "rustc {OLD_RUSTC} is missing: run `rustup toolchain install {OLD_RUSTC} --profile minimal` \
         (scripts/test.sh does), or set GAMES_SKIP_RUSTC_1_70=1 to skip this test locally"
    );
    true
}

/// Runs `rustc` [`OLD_RUSTC`] with `args` in `dir`: `Ok` holds its warnings (empty when
/// there are none), `Err` its messages.
///
/// # Panics
///
/// If rustup cannot be started.
pub fn old_rustc_build(dir: &Path, args: &[&str]) -> Result<String, String> {
    let out = Command::new("rustup")
        .args(["run", OLD_RUSTC, "rustc"])
        .args(args)
        .current_dir(dir)
        .output()
        .expect("rustup runs");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    if out.status.success() {
        Ok(stderr)
    } else {
        Err(stderr)
    }
}

/// The GNU Go binary for `test` (`$GNUGO`, else `/usr/games/gnugo`), or `None` when
/// `GAMES_SKIP_GNUGO` is set (the skip is reported as for [`skip_if_set`]).
///
/// # Panics
///
/// If GNU Go is not installed: the message says how to install it.
pub fn gnugo(test: &str) -> Option<String> {
    if skip_if_set("GAMES_SKIP_GNUGO", test) {
        return None;
    }
    let binary = std::env::var("GNUGO").unwrap_or_else(|_| "/usr/games/gnugo".to_string());
    let version = Command::new(&binary).arg("--version").output();
    assert!(
        version.as_ref().is_ok_and(|o| o.status.success()),
        "GNU Go is missing ({binary}): install it with `apt-get install gnugo`, point GNUGO at \
         the binary, or set GAMES_SKIP_GNUGO=1 to skip this test locally"
    );
    Some(binary)
}

/// A fresh, empty scratch folder for `name` (under the system's temporary folder).
///
/// # Panics
///
/// If it cannot be made.
pub fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("games-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch folder can be made");
    dir
}
