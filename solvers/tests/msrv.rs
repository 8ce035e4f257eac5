//! Judge-bound code builds with rustc 1.70.0, the oldest judge compiler we target: the
//! `games` crate as a library with no dependencies, and every solver against it, with plain
//! `rustc` (no Cargo), as a judge would.
//!
//! Needs the toolchain: `rustup toolchain install 1.70.0 --profile minimal` (`.ci/run` does
//! this). Set `GAMES_SKIP_RUSTC_1_70=1` to skip locally.

// Helpers outside #[test] functions unwrap too: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]

use std::path::{Path, PathBuf};
use std::process::Command;

const TOOLCHAIN: &str = "1.70.0";

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn rustc(args: &[&str], dir: &Path) -> Result<(), String> {
    let out = Command::new("rustup")
        .args(["run", TOOLCHAIN, "rustc"])
        .args(args)
        .current_dir(dir)
        .output()
        .map_err(|e| format!("cannot run rustup: {e}"))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).into_owned())
    }
}

#[test]
fn shared_crate_and_solvers_build_with_rustc_1_70() {
    if std::env::var_os("GAMES_SKIP_RUSTC_1_70").is_some() {
        eprintln!("skipped: GAMES_SKIP_RUSTC_1_70 is set");
        return;
    }
    let probe = Command::new("rustup")
        .args(["run", TOOLCHAIN, "rustc", "--version"])
        .output();
    assert!(
        probe.as_ref().is_ok_and(|o| o.status.success()),
        "rustc {TOOLCHAIN} is missing: run `rustup toolchain install {TOOLCHAIN} --profile minimal` \
         (or set GAMES_SKIP_RUSTC_1_70=1 to skip this test locally)"
    );

    let out = std::env::temp_dir().join(format!("games-msrv-{}", std::process::id()));
    std::fs::create_dir_all(&out).unwrap();
    let lib = root().join("shared/src/lib.rs");
    rustc(
        &[
            "--edition=2021",
            "--crate-type=lib",
            "--crate-name=games",
            "-O",
            "--out-dir",
            ".",
            lib.to_str().unwrap(),
        ],
        &out,
    )
    .unwrap_or_else(|e| panic!("games does not build with rustc {TOOLCHAIN}:\n{e}"));

    let bins = root().join("solvers/src/bin");
    let mut built = 0;
    for entry in std::fs::read_dir(&bins).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "rs") {
            rustc(
                &[
                    "--edition=2021",
                    "-O",
                    "--extern",
                    "games=libgames.rlib",
                    "-L",
                    ".",
                    "--out-dir",
                    ".",
                    path.to_str().unwrap(),
                ],
                &out,
            )
            .unwrap_or_else(|e| {
                panic!(
                    "{} does not build with rustc {TOOLCHAIN}:\n{e}",
                    path.display()
                )
            });
            built += 1;
        }
    }
    let _ = std::fs::remove_dir_all(&out);
    assert!(
        built >= 2,
        "found only {built} solvers in {}",
        bins.display()
    );
}
