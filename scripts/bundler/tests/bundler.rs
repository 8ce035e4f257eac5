//! The bundler on fixtures and on the workspace's solvers: proconio inlined so `input!`
//! and its markers work, foreign crates refused, only the reached modules and items inlined
//! (a fixture crate whose use needs a trait impl, a generic function, a macro and a const
//! table), tests and docs left out. (The full acceptance run, every solver against its Cargo build, is
//! solvers/tests/bundles.rs.)

// Helpers outside #[test] functions unwrap too: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]

use bundler::{bundle, Crate, Error, Workspace};
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
    let modules = |problem: &str| -> (String, Vec<String>) {
        let out = bundle(&ws, &root.join(format!("solvers/src/bin/{problem}.rs"))).unwrap();
        let names = out
            .source
            .split("mod ")
            .skip(1)
            .filter_map(|rest| rest.split_once(" {").map(|(name, _)| name.to_string()))
            .filter(|name| !name.contains(char::is_whitespace))
            .collect();
        (out.source, names)
    };
    let has = |names: &[String], module: &str| names.iter().any(|n| n == module);

    // Tic-tac-toe with search: the adapter that makes the board searchable comes along
    // (nothing names it), the other games' adapters and rules do not; the board is read
    // cell by cell, so the text reader (`FromStr` and `grid`) stays out.
    let (tictactoe, names) = modules("boj16571");
    for module in ["judge", "search", "tictactoe", "color"] {
        assert!(has(&names, module), "boj16571: {module} missing: {names:?}");
    }
    let adapters = names.iter().filter(|n| *n == "tictactoe").count();
    assert_eq!(
        adapters, 2,
        "boj16571: the rules and the search adapter: {names:?}"
    );
    for module in [
        "go",
        "othello",
        "rng",
        "mcts",
        "seed_game",
        "alphago",
        "grid",
    ] {
        assert!(
            !has(&names, module),
            "boj16571: {module} inlined: {names:?}"
        );
    }

    // An Othello replay carries the rules and no search.
    let (othello, names) = modules("boj15671");
    assert!(has(&names, "othello"), "{names:?}");
    for module in ["search", "endgame", "mcts", "go", "tictactoe"] {
        assert!(
            !has(&names, module),
            "boj15671: {module} inlined: {names:?}"
        );
    }

    // go_ko reaches go's board, position, text and errors, and rng through `crate::` paths;
    // not its playouts or perft, nor search.
    let (go, names) = modules("go_ko");
    for module in [
        "judge", "go", "board", "position", "text", "error", "rng", "color",
    ] {
        assert!(has(&names, module), "go_ko: {module} missing: {names:?}");
    }
    for module in ["playout", "perft", "search", "othello"] {
        assert!(!has(&names, module), "go_ko: {module} inlined: {names:?}");
    }
    for text in [&tictactoe, &othello, &go] {
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

/// The fixture crate `prune_lib` stands in for the shared crate: the bundle of
/// `prune_solver.rs` keeps what it needs (pruning too much fails to compile here, not on a
/// judge), drops the rest (a warning would say what it left), and runs like the solver
/// linked against the whole library.
#[test]
fn items_the_solver_does_not_reach_are_pruned_and_the_rest_still_works() {
    let root = root();
    let mut ws = Workspace::load(&root).unwrap();
    ws.games = Crate {
        lib: fixture("prune_lib/lib.rs"),
        ..ws.games.clone()
    };
    let solver = fixture("prune_solver.rs");
    let out = bundle(&ws, &solver).unwrap();
    let source = &out.source;
    for kept in [
        "macro_rules! square",
        "impl Shape for Polygon",
        "fn name(&self)",
        "pub fn total<S: Shape>",
        "pub const SIDES",
        "impl fmt::Display for Polygon",
        "Unknown(usize)",
    ] {
        assert!(source.contains(kept), "`{kept}` was pruned:\n{source}");
    }
    for gone in [
        "unused_method",
        "unused_fn",
        "UNUSED_TABLE",
        "mod unused",
        "Never",
        "FromStr",
        "NotANumber",
        "allow(",
    ] {
        assert!(!source.contains(gone), "`{gone}` was kept:\n{source}");
    }

    if !testkit::old_rustc("bundler::items_are_pruned") {
        return;
    }
    let dir = testkit::scratch("bundler-prune");
    std::fs::write(dir.join("main.rs"), source).unwrap();
    let warnings = testkit::old_rustc_build(
        &dir,
        &["--edition", "2021", "-O", "-o", "bundled", "main.rs"],
    )
    .unwrap_or_else(|e| panic!("the pruned bundle does not build:\n{e}\n{source}"));
    assert!(warnings.trim().is_empty(), "{warnings}");
    // The reference: the whole fixture library as a crate, and the solver linked to it.
    let lib = fixture("prune_lib/lib.rs");
    testkit::old_rustc_build(
        &dir,
        &[
            "--edition=2021",
            "--crate-type=lib",
            "--crate-name=games",
            "-o",
            "libgames.rlib",
            lib.to_str().unwrap(),
        ],
    )
    .unwrap();
    testkit::old_rustc_build(
        &dir,
        &[
            "--edition=2021",
            "--extern",
            "games=libgames.rlib",
            "-o",
            "linked",
            solver.to_str().unwrap(),
        ],
    )
    .unwrap();
    for input in ["0 2 1\n", "3 3\n", "9\n", ""] {
        let want = testkit::run_ok(&dir.join("linked"), &[], input.as_bytes());
        let got = testkit::run_ok(&dir.join("bundled"), &[], input.as_bytes());
        assert_eq!(got.status.code(), want.status.code(), "{input:?}");
        assert_eq!(got.stdout, want.stdout, "{input:?}");
        assert_eq!(got.stderr, want.stderr, "{input:?}");
        assert!(
            !want.stdout.is_empty() || !want.stderr.is_empty(),
            "{input:?}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
