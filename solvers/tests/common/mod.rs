//! What the solver tests share: the solver binaries, and running one on an input.

// Each test file uses a part of this module; the rest would warn there.
#![allow(dead_code)]

use std::io::{Read, Write};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// The solver binaries, by problem name.
pub const SOLVERS: &[(&str, &str)] = &[
    ("boj15671", env!("CARGO_BIN_EXE_boj15671")),
    ("boj16571", env!("CARGO_BIN_EXE_boj16571")),
    ("boj16988", env!("CARGO_BIN_EXE_boj16988")),
    ("boj4664", env!("CARGO_BIN_EXE_boj4664")),
    ("boj7682", env!("CARGO_BIN_EXE_boj7682")),
    ("go_ko", env!("CARGO_BIN_EXE_go_ko")),
    ("swea4615", env!("CARGO_BIN_EXE_swea4615")),
    ("tictactoe", env!("CARGO_BIN_EXE_tictactoe")),
];

/// Runs `binary` with `input` on stdin (fed from a thread, so a solver that stops reading
/// cannot block the test) while stdout and stderr are drained on threads of their own (so a
/// solver with much to say cannot block on a full pipe); `None` if it runs longer than
/// `limit` (it is killed then).
///
/// # Panics
///
/// If the binary cannot be started.
pub fn run(binary: &str, input: &[u8], limit: Duration) -> Option<Output> {
    let mut child = Command::new(binary)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {binary}: {e}"));
    let mut stdin = child.stdin.take().expect("piped stdin");
    let bytes = input.to_vec();
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
        if let Some(status) = child.try_wait().expect("wait on the solver") {
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
