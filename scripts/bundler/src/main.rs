//! `bundler <problem>... | --all [--out DIR]`: writes `target/bundle/<problem>.rs`, one
//! self-contained file per solver for online judges. `scripts/bundle.sh` runs it.

// A command-line tool reports on stdout.
#![allow(clippy::print_stdout)]

use bundler::{bundle, Workspace};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Codeforces' source limit; Baekjoon's is larger.
const LIMIT: usize = 64 * 1024;

fn main() -> ExitCode {
    match run() {
        Ok(code) => code,
        Err(message) => {
            eprintln!("bundler: {message}");
            ExitCode::FAILURE
        }
    }
}

fn run() -> Result<ExitCode, String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let root = root
        .canonicalize()
        .map_err(|e| format!("{}: {e}", root.display()))?;
    let mut out = root.join("target/bundle");
    let mut problems = Vec::new();
    let mut all = false;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--all" => all = true,
            "--out" => out = PathBuf::from(args.next().ok_or("--out needs a directory")?),
            "-h" | "--help" => {
                println!("usage: bundler <problem>... | --all [--out DIR]");
                return Ok(ExitCode::SUCCESS);
            }
            flag if flag.starts_with('-') => return Err(format!("unknown option {flag}")),
            problem => problems.push(problem.to_string()),
        }
    }
    let bins = root.join("solvers/src/bin");
    if all {
        let mut found: Vec<String> = std::fs::read_dir(&bins)
            .map_err(|e| format!("{}: {e}", bins.display()))?
            .filter_map(|e| e.ok()?.path().file_stem()?.to_str().map(String::from))
            .collect();
        found.sort();
        problems.extend(found);
    }
    if problems.is_empty() {
        return Err("name a problem (e.g. boj15671) or pass --all".to_string());
    }
    let ws = Workspace::load(&root).map_err(|e| e.to_string())?;
    std::fs::create_dir_all(&out).map_err(|e| format!("{}: {e}", out.display()))?;
    let mut over = false;
    if all {
        println!("{:<12} {:>9} {:>9}  file", "problem", "whole", "pruned");
    }
    for problem in &problems {
        let solver = bins.join(format!("{problem}.rs"));
        if !solver.exists() {
            return Err(format!("no solver {}", solver.display()));
        }
        let bundle = bundle(&ws, &solver).map_err(|e| e.to_string())?;
        let path = out.join(format!("{problem}.rs"));
        std::fs::write(&path, &bundle.source).map_err(|e| format!("{}: {e}", path.display()))?;
        let size = bundle.source.len();
        over |= size > LIMIT;
        let note = if size > LIMIT { "  OVER 64 KiB" } else { "" };
        let whole = bundle.unpruned;
        if all {
            println!(
                "{problem:<12} {whole:>9} {size:>9}  {}{note}",
                path.display()
            );
        } else {
            println!(
                "{} ({size} bytes; {whole} with the reached modules whole){note}",
                path.display()
            );
        }
    }
    Ok(if over {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}
