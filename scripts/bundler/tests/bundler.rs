//! The bundler on fixtures and on the workspace's solvers: proconio inlined so `input!`
//! and its markers work, foreign crates refused, only the reached modules inlined, tests
//! and docs left out. (The full acceptance run, every solver against its Cargo build, is
//! solvers/tests/bundles.rs.)

// Helpers outside #[test] functions unwrap too: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]

use bundler::{bundle, Error, Workspace};
use std::path::{Path, PathBuf};
use testkit::root;

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

#[test]
fn proconio_is_inlined_and_input_works_under_rustc_1_70() {
    let ws = Workspace::load(&root()).unwrap();
    let out = bundle(&ws, &fixture("proconio_sum.rs")).unwrap();
    assert!(
        out.inlined.iter().any(|c| c.starts_with("proconio 0.4")),
        "{:?}",
        out.inlined
    );
    assert!(out.source.contains("licence MIT OR Apache-2.0"));
    assert!(out.source.contains("pub mod proconio"));
    assert!(
        !out.source.contains("pub mod games"),
        "the fixture does not use games"
    );
    assert!(!out.source.contains("use proconio::input"));

    if !testkit::old_rustc("bundler::proconio_under_rustc_1_70") {
        return;
    }
    let dir = testkit::scratch("bundler-proconio");
    std::fs::write(dir.join("main.rs"), &out.source).unwrap();
    testkit::old_rustc_build(&dir, &["--edition", "2021", "-O", "-o", "main", "main.rs"])
        .unwrap_or_else(|e| panic!("the proconio bundle does not build:\n{e}"));
    let run = testkit::run_ok(&dir.join("main"), &[], b"3\n1 2 3\n5\n");
    assert_eq!(String::from_utf8_lossy(&run.stdout), "6 4\n");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn other_crates_are_refused_by_name() {
    let mut ws = Workspace::load(&root()).unwrap();
    // As if someone added itertools to the solvers' dependencies.
    ws.solver_deps.push("itertools".to_string());
    let err = bundle(&ws, &fixture("uses_itertools.rs")).unwrap_err();
    assert!(
        matches!(&err, Error::ForeignCrate { krate, .. } if krate == "itertools"),
        "{err}"
    );
    let message = err.to_string();
    assert!(
        message.contains("`itertools`") && !message.contains('\n'),
        "{message}"
    );
}

#[test]
fn only_reached_modules_are_inlined_without_tests_or_docs() {
    let root = root();
    let ws = Workspace::load(&root).unwrap();
    let tictactoe = bundle(&ws, &root.join("solvers/src/bin/boj16571.rs")).unwrap();
    for module in ["judge", "search", "tictactoe"] {
        assert!(
            tictactoe.source.contains(&format!("pub mod {module} ")),
            "{module} missing"
        );
    }
    for module in ["go", "othello", "rng"] {
        assert!(
            !tictactoe.source.contains(&format!("pub mod {module} ")),
            "{module} inlined"
        );
    }
    let go = bundle(&ws, &root.join("solvers/src/bin/go_ko.rs")).unwrap();
    // go_ko reaches go, which reaches rng and color through `crate::` paths.
    for module in ["judge", "go", "rng", "color"] {
        assert!(
            go.source.contains(&format!("pub mod {module} ")),
            "{module} missing"
        );
    }
    assert!(!go.source.contains("pub mod othello "));
    for text in [&tictactoe.source, &go.source] {
        assert!(
            !text.contains("///") && !text.contains("//!"),
            "doc comments left"
        );
        assert!(
            !text.contains("cfg(test)") && !text.contains("mod tests"),
            "tests left"
        );
        assert!(!text.contains("proconio"), "proconio inlined without need");
    }
}
