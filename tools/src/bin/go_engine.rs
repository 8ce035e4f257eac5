//! go_engine — a Go engine speaking GTP version 2 on stdin and stdout, for Sabaki, GoGui,
//! twogtp or the project's match runner (`gtp_match`). See [`USAGE`].

use std::io::{BufRead, Write};
use std::ops::Bound::{Excluded, Included};
use std::process::ExitCode;
use tools::cli;
use tools::engine::{Engine, EvaluatorKind, Options};
use tools::gtp;

const USAGE: &str = "\
go_engine: a Go engine speaking GTP version 2 on stdin and stdout (Chinese area scoring,
positional superko, suicide illegal), with Monte Carlo tree search.

usage: go_engine [options]

  --playouts N        search playouts per move, at most (1..=10000000, default 2000)
  --seconds S         seconds per move, at most (time_settings/time_left may lower it)
  --threads T         threads (1..=64, default 1), one search tree each (root parallel)
  --tree-parallel     rave's threads grow one tree (with virtual loss)
  --seed N            random seed (default 1): one thread and one seed repeat their games
  --resign R          resign below this estimated win rate (0..1, default 0.05; 0 never)
  --c-puct C          PUCT's exploration constant (default 3; not used by rave)
  --evaluator E       rave (default): michi's search, RAVE with tactical prior visits and
                      light playouts; PUCT (games::mcts) with playout: uniform priors,
                      tactics: priors from captures, escapes and self-atari, or net: seed
                      004's network, 7x7 boards only; trained: a network from
                      az_train (--weights), on its board size (rave on others);
                      rave-net: rave with that network's policy as prior visits
  --fresh-tree        start every rave search afresh (by default the part of the last
                      search's tree under the moves played since is kept)
  --weights FILE      the trained network (az_train --game go); implies trained
                      unless --evaluator says rave-net
  --net-prior V       rave-net's prior visits per move (0..=1000, default 20), won in
                      proportion to the move's probability over the favourite's
  --playout P         rave's playouts: heavy (default) first answers the last move
                      (captures, escapes from atari, 3x3 shapes), light plays random
                      moves that keep their eyes
  -h, --help          this text

Sabaki: Engines > Manage Engines > Add, path /path/to/go_engine, arguments --seconds 2.
GoGui:  Program > New Program, command: /path/to/go_engine --seconds 2
Vertices are GTP's: a column letter A-T without I, then the row counted from the bottom.
A malformed line, an unknown command or an illegal move gets a `? message` reply and the
engine goes on.
";

fn parse_options() -> Result<(Options, Option<String>), String> {
    let mut options = Options::default();
    let mut weights = None;
    let mut chosen = false;
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        match flag.as_str() {
            "--playouts" => {
                options.playouts = cli::number(&flag, args.next(), 1..=10_000_000)?;
            }
            "--seconds" => {
                options.seconds = Some(cli::number(
                    &flag,
                    args.next(),
                    (Excluded(0.0), Included(1e6)),
                )?);
            }
            "--threads" => {
                options.threads = cli::number(&flag, args.next(), 1..=64)?;
            }
            "--seed" => options.seed = cli::number(&flag, args.next(), ..)?,
            "--resign" => {
                options.resign = cli::number(&flag, args.next(), 0.0..1.0)?;
            }
            "--c-puct" => {
                options.c_puct = cli::number(&flag, args.next(), 0.0..=100.0)?;
            }
            "--evaluator" => {
                chosen = true;
                options.evaluator = cli::choice(
                    &flag,
                    args.next(),
                    &[
                        ("playout", EvaluatorKind::Playouts),
                        ("tactics", EvaluatorKind::Heuristic),
                        ("net", EvaluatorKind::SeedNetwork),
                        ("trained", EvaluatorKind::Trained),
                        ("rave", EvaluatorKind::Rave),
                        ("rave-net", EvaluatorKind::RaveNet),
                    ],
                )?;
            }
            "--playout" => {
                options.heavy =
                    cli::choice(&flag, args.next(), &[("light", false), ("heavy", true)])?;
            }
            "--fresh-tree" => options.fresh_tree = true,
            "--tree-parallel" => options.tree_parallel = true,
            "--weights" => {
                weights = Some(cli::text(&flag, args.next())?);
                if !chosen {
                    options.evaluator = EvaluatorKind::Trained;
                }
            }
            "--net-prior" => {
                options.net_prior = cli::number(&flag, args.next(), 0.0..=1000.0)?;
            }
            other => return Err(format!("unknown option {other:?} (see --help)")),
        }
    }
    let needs_net = matches!(
        options.evaluator,
        EvaluatorKind::Trained | EvaluatorKind::RaveNet
    );
    if needs_net && weights.is_none() {
        return Err("--evaluator trained or rave-net needs --weights FILE".to_string());
    }
    Ok((options, weights))
}

fn main() -> ExitCode {
    cli::main("go_engine", USAGE, run)
}

fn run() -> Result<(), String> {
    let (options, weights) = parse_options()?;
    // The network's board size is checked when it plays: on another size the engine uses rave.
    let net = weights
        .map(|path| cli::load_weights(&path, "go", None))
        .transpose()?;
    let mut engine = Engine::with_network(options, net);
    let stdin = std::io::stdin();
    let mut stdout = std::io::stdout().lock();
    let mut input = stdin.lock();
    let mut bytes = Vec::new();
    loop {
        bytes.clear();
        match input.read_until(b'\n', &mut bytes) {
            Ok(0) => return Ok(()),
            Ok(_) => {}
            Err(e) => return Err(format!("cannot read stdin: {e}")),
        }
        // Bytes that are not UTF-8 become replacement characters: a `?` reply, not a stop.
        let line = String::from_utf8_lossy(&bytes);
        let Some(command) = gtp::parse_line(&line) else {
            continue;
        };
        let (response, quit) = engine.handle(&command);
        let written = stdout
            .write_all(response.format(command.id).as_bytes())
            .and_then(|()| stdout.flush());
        if written.is_err() || quit {
            return Ok(());
        }
    }
}
