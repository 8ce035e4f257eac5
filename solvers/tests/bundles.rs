//! Judge builds: what a judge compiles must build with rustc 1.70.0 (the oldest judge
//! compiler we target) with plain `rustc`, no Cargo and no external crates, and behave
//! exactly like the Cargo build.
//!
//! - The shared crate, whole, builds as a library with no dependencies.
//! - Every solver bundles (`bundler`, as `scripts/bundle.sh` runs it) into one file of at
//!   most 64 KiB, the same bytes on every run; the file compiles alone in an empty
//!   directory; and on every testdata case the compiled bundle prints the same stdout and
//!   stderr and exits with the same status as the Cargo-built binary.
//!
//! Needs the toolchain: `rustup toolchain install 1.70.0 --profile minimal` (`scripts/test.sh`
//! does this). Set `GAMES_SKIP_RUSTC_1_70=1` to skip locally.

// Helpers outside #[test] functions unwrap too: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]

mod common;

use common::SOLVERS;
use std::path::Path;
use std::process::Output;
use testkit::{old_rustc, old_rustc_build as rustc, root, scratch, OLD_RUSTC as TOOLCHAIN};

/// Codeforces' source limit.
const LIMIT: usize = 64 * 1024;

fn run(binary: &Path, input: &[u8]) -> Output {
    testkit::run_ok(binary, &[], input)
}

#[test]
fn the_shared_crate_builds_with_rustc_1_70_and_no_dependencies() {
    if !old_rustc("bundles::the_shared_crate_builds_with_rustc_1_70") {
        return;
    }
    let dir = scratch("lib");
    let lib = root().join("shared/src/lib.rs");
    rustc(
        &dir,
        &[
            "--edition=2021",
            "--crate-type=lib",
            "--crate-name=games",
            "-O",
            lib.to_str().unwrap(),
        ],
    )
    .unwrap_or_else(|e| panic!("games does not build with rustc {TOOLCHAIN}:\n{e}"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn every_solver_bundles_into_one_file_that_behaves_like_the_cargo_build() {
    if !old_rustc("bundles::every_solver_bundles") {
        return;
    }
    let root = root();
    let ws = bundler::Workspace::load(&root).unwrap();
    let bins: Vec<String> = std::fs::read_dir(root.join("solvers/src/bin"))
        .unwrap()
        .filter_map(|e| e.ok()?.path().file_stem()?.to_str().map(String::from))
        .collect();
    assert_eq!(
        bins.len(),
        SOLVERS.len(),
        "every solver needs an entry in SOLVERS"
    );

    // Two workers: compiling with -O is the slow part.
    let jobs: Vec<Vec<(&str, &str)>> = SOLVERS
        .chunks(SOLVERS.len() / 2)
        .map(<[_]>::to_vec)
        .collect();
    let workers: Vec<_> = jobs
        .into_iter()
        .map(|job| {
            let (ws, root) = (ws.clone(), root.clone());
            std::thread::spawn(move || {
                let mut report = Vec::new();
                for (problem, cargo_binary) in job {
                    report.push(check_one(&ws, &root, problem, Path::new(cargo_binary)));
                }
                report
            })
        })
        .collect();
    let mut cases = 0;
    for worker in workers {
        for (problem, size, n) in worker.join().unwrap() {
            eprintln!("{problem}: {size} bytes, {n} cases identical");
            cases += n;
        }
    }
    assert!(cases > 100, "only {cases} cases ran");
}

/// Bundles one solver, builds it with rustc 1.70 and compares it with the Cargo build on
/// every testdata case; returns (problem, bytes, cases).
fn check_one(
    ws: &bundler::Workspace,
    root: &Path,
    problem: &str,
    cargo_binary: &Path,
) -> (String, usize, usize) {
    let solver = root.join(format!("solvers/src/bin/{problem}.rs"));
    let bundle = bundler::bundle(ws, &solver).unwrap_or_else(|e| panic!("{problem}: {e}"));
    let again = bundler::bundle(ws, &solver).unwrap();
    assert_eq!(
        bundle.source, again.source,
        "{problem}: the bundle is not deterministic"
    );
    let size = bundle.source.len();
    assert!(
        size <= LIMIT,
        "{problem}: the bundle is {size} bytes, over 64 KiB"
    );

    let dir = scratch(problem);
    std::fs::write(dir.join("main.rs"), &bundle.source).unwrap();
    let warnings = rustc(&dir, &["--edition", "2021", "-O", "-o", "main", "main.rs"])
        .unwrap_or_else(|e| {
            panic!("{problem}: the bundle does not build with rustc {TOOLCHAIN}:\n{e}")
        });
    // The inlined crate carries no `allow(dead_code)`: a warning is an item pruning left.
    assert!(
        warnings.trim().is_empty(),
        "{problem}: rustc {TOOLCHAIN} warns on the bundle:\n{warnings}"
    );
    assert!(
        !bundle.source.contains("allow("),
        "{problem}: the bundle silences a lint"
    );

    let mut cases = 0;
    for case in testkit::cases(problem) {
        let input = case.input;
        {
            let bytes = std::fs::read(&input).unwrap();
            let want = run(cargo_binary, &bytes);
            let got = run(&dir.join("main"), &bytes);
            assert_eq!(got.status.code(), want.status.code(), "{}", input.display());
            assert_eq!(
                got.stdout,
                want.stdout,
                "{}: stdout differs",
                input.display()
            );
            assert_eq!(
                got.stderr,
                want.stderr,
                "{}: stderr differs",
                input.display()
            );
            cases += 1;
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    (problem.to_string(), size, cases)
}
