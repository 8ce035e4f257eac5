//! az_train — mini AlphaZero: a policy/value network learns a game by self-play. See
//! [`USAGE`] and `tools::alphazero`.

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;
use tools::alphazero::exact::{against_random_and_perfect, every_position, policy_mistakes};
use tools::alphazero::{checkpoint_path, Config, Trainer};
use tools::cli;

const USAGE: &str = "\
az_train: mini AlphaZero. A policy/value network learns a game by playing itself: PUCT
guided by the network (Dirichlet noise at the root, temperature for the first moves),
visit counts and outcomes as targets, a replay window, the 8 board symmetries, SGD with
momentum. Deterministic for a seed and a thread count.

usage: az_train --game G --dir DIR [options]

  --game G            tictactoe (3x3), othello (6x6) or go (7x7, komi 9, area scoring,
                      positional superko)
  --dir DIR           where the run lives: checkpoint.ckp (the whole state, rewritten
                      atomically after every generation), weights.net (the network, for
                      --weights), log.csv (one line per generation)
  --resume            continue the run in DIR (give the same settings; they are checked)
  --generations N     stop after generation N (default 50)
  --minutes M         or after M minutes of this session, at the end of a generation
  --threads T         self-play and gradient threads (default 2)
  --seed N            random seed (default 1)
  --snapshot-every N  also keep the network of every Nth generation as
                      DIR/weights-gNNNN.net (default 10; 0 never), for az_eval's curves

Settings (defaults depend on the game; `--show` prints them):
  --width N --blocks N --hidden N       the network: trunk channels, residual blocks,
                                        value head units
  --simulations N --c-puct C            the self-play search
  --alpha A --epsilon E --temperature-plies N   root noise, moves sampled by visits
  --games N --window N                  games per generation, positions kept
  --batch N --steps N --lr X --momentum X --l2 X   the optimiser, per generation
  --show              print the settings and exit
  -h, --help          this text

Progress goes to stderr, one line per generation: games, positions/s, losses, elapsed.
For tic-tac-toe each line also counts the raw policy's mistakes over all 4,520 positions
(a move whose exact outcome is worse than the best).
";

fn preset(game: &str) -> Option<Config> {
    let base = Config {
        width: 32,
        blocks: 2,
        hidden: 64,
        simulations: 100,
        c_puct: 1.5,
        alpha: 0.5,
        epsilon: 0.25,
        temperature_plies: 10,
        games: 40,
        window: 40_000,
        batch: 128,
        steps: 100,
        lr: 0.01,
        momentum: 0.9,
        l2: 1e-4,
        threads: 2,
        seed: 1,
    };
    match game {
        "tictactoe" => Some(Config {
            width: 16,
            blocks: 1,
            hidden: 32,
            simulations: 48,
            alpha: 1.0,
            temperature_plies: 4,
            games: 40,
            window: 8_000,
            batch: 64,
            steps: 40,
            lr: 0.02,
            ..base
        }),
        "othello" => Some(base),
        "go" => Some(Config {
            alpha: 0.2,
            temperature_plies: 8,
            games: 20,
            ..base
        }),
        _ => None,
    }
}

struct Run {
    game: String,
    dir: PathBuf,
    resume: bool,
    generations: u32,
    minutes: Option<f64>,
    show: bool,
    snapshot_every: u32,
    config: Config,
}

fn parse() -> Result<Run, String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let game = args
        .iter()
        .position(|a| a == "--game")
        .and_then(|i| args.get(i + 1))
        .ok_or("--game is required: tictactoe, othello or go")?
        .clone();
    let mut config =
        preset(&game).ok_or_else(|| format!("--game is tictactoe, othello or go, not {game:?}"))?;
    let mut run = Run {
        game,
        dir: PathBuf::new(),
        resume: false,
        generations: 50,
        minutes: None,
        show: false,
        snapshot_every: 10,
        config: config.clone(),
    };
    let mut dir = None;
    let mut it = args.into_iter();
    while let Some(flag) = it.next() {
        let c = &mut config;
        match flag.as_str() {
            "--game" => {
                it.next();
            }
            "--dir" => {
                dir = Some(PathBuf::from(cli::value::<String>(
                    &flag,
                    it.next(),
                    |_| true,
                )?));
            }
            "--resume" => run.resume = true,
            "--show" => run.show = true,
            "--snapshot-every" => run.snapshot_every = cli::value(&flag, it.next(), |_| true)?,
            "--generations" => run.generations = cli::value(&flag, it.next(), |&n| n >= 1)?,
            "--minutes" => run.minutes = Some(cli::value(&flag, it.next(), |&m: &f64| m > 0.0)?),
            "--threads" => c.threads = cli::value(&flag, it.next(), |&t| (1..=64).contains(&t))?,
            "--seed" => c.seed = cli::value(&flag, it.next(), |_| true)?,
            "--width" => c.width = cli::value(&flag, it.next(), |&n| (1..=256).contains(&n))?,
            "--blocks" => c.blocks = cli::value(&flag, it.next(), |&n| n <= 20)?,
            "--hidden" => c.hidden = cli::value(&flag, it.next(), |&n| (1..=1024).contains(&n))?,
            "--simulations" => {
                c.simulations = cli::value(&flag, it.next(), |&n| (1..=100_000).contains(&n))?;
            }
            "--c-puct" => {
                c.c_puct = cli::value(&flag, it.next(), |&x: &f64| x > 0.0 && x <= 100.0)?;
            }
            "--alpha" => c.alpha = cli::value(&flag, it.next(), |&x: &f64| x > 0.0 && x <= 100.0)?,
            "--epsilon" => {
                c.epsilon = cli::value(&flag, it.next(), |&x: &f64| (0.0..=1.0).contains(&x))?;
            }
            "--temperature-plies" => {
                c.temperature_plies = cli::value(&flag, it.next(), |&n| n <= 1000)?;
            }
            "--games" => c.games = cli::value(&flag, it.next(), |&n| (1..=100_000).contains(&n))?,
            "--window" => {
                c.window = cli::value(&flag, it.next(), |&n| (1..=10_000_000).contains(&n))?;
            }
            "--batch" => c.batch = cli::value(&flag, it.next(), |&n| (1..=100_000).contains(&n))?,
            "--steps" => c.steps = cli::value(&flag, it.next(), |&n| n <= 1_000_000)?,
            "--lr" => c.lr = cli::value(&flag, it.next(), |&x: &f32| x > 0.0 && x <= 10.0)?,
            "--momentum" => {
                c.momentum = cli::value(&flag, it.next(), |&x: &f32| (0.0..1.0).contains(&x))?;
            }
            "--l2" => c.l2 = cli::value(&flag, it.next(), |&x: &f32| (0.0..=1.0).contains(&x))?,
            other => return Err(format!("unknown option {other:?} (see --help)")),
        }
    }
    run.config = config;
    if !run.show {
        run.dir = dir.ok_or("--dir is required")?;
    }
    Ok(run)
}

fn main() -> ExitCode {
    cli::main("az_train", USAGE, || {
        let run = parse()?;
        if run.show {
            let mut out = std::io::stdout().lock();
            writeln!(out, "{:#?}", run.config).map_err(|e| e.to_string())?;
            return Ok(());
        }
        match run.game.as_str() {
            "tictactoe" => {
                let start = games::tictactoe::Board::new(3).map_err(|e| e.to_string())?;
                let judged = every_position(&start);
                let start_board = start;
                train(&run, start, |net, line| {
                    let wrong = policy_mistakes(net, &judged);
                    let _ = write!(line, "  policy mistakes {wrong}/{}", judged.len());
                    let (random, perfect) = against_random_and_perfect(net, &start_board, 200, 7);
                    let _ = write!(
                        line,
                        "  vs random {}W {}D {}L  vs perfect {:?}",
                        random[0], random[1], random[2], perfect
                    );
                    wrong
                })
            }
            "othello" => {
                let start = games::othello::Board::new(6).map_err(|e| e.to_string())?;
                train(&run, start, |_, _| 0)
            }
            _ => {
                let board = games::go::Board::new(7, 7).map_err(|e| e.to_string())?;
                let start = games::go::Position::new(board, games::go::KoRule::PositionalSuperko)
                    .with_komi(9.0);
                train(&run, start, |_, _| 0)
            }
        }
    })
}

/// Runs generations until the limit, checkpointing after each; `judge` adds a measurement
/// to the progress line and returns a number for the log.
fn train<G>(
    run: &Run,
    start: G,
    mut judge: impl FnMut(&games::nn::Net, &mut String) -> usize,
) -> Result<(), String>
where
    G: games::nn::Encode + Send + Sync,
    G::Move: Send,
{
    std::fs::create_dir_all(&run.dir).map_err(|e| format!("{}: {e}", run.dir.display()))?;
    let checkpoint = checkpoint_path(&run.dir);
    let mut trainer = if run.resume {
        Trainer::load(&checkpoint, start, run.config.clone())
            .map_err(|e| format!("{}: {e}", checkpoint.display()))?
    } else {
        if checkpoint.exists() {
            return Err(format!(
                "{} exists: add --resume to continue that run, or choose another --dir",
                checkpoint.display()
            ));
        }
        Trainer::new(start, run.config.clone())?
    };
    let log = run.dir.join("log.csv");
    if !run.resume {
        std::fs::write(
            &log,
            "generation,games,positions,seconds,policy_loss,value_loss,black_wins,draws,black_losses,mistakes\n",
        )
        .map_err(|e| format!("{}: {e}", log.display()))?;
    }
    let session = Instant::now();
    while trainer.generation < run.generations {
        if run
            .minutes
            .is_some_and(|m| session.elapsed().as_secs_f64() > 60.0 * m)
        {
            eprintln!(
                "az_train: time is up after generation {}",
                trainer.generation
            );
            break;
        }
        let g = trainer.generation();
        let mut line = format!(
            "gen {:>4}  games {:>6}  positions {:>8} ({:.0}/s, {:.0} evals/s)  loss policy {:.3} value {:.3}  black {}-{}-{}",
            g.number,
            g.games,
            g.positions,
            g.new_positions as f64 / g.seconds.0.max(1e-9),
            g.evaluations as f64 / g.seconds.0.max(1e-9),
            g.loss.policy,
            g.loss.value,
            g.black[0],
            g.black[1],
            g.black[2],
        );
        let mistakes = judge(&trainer.net, &mut line);
        let total = trainer.seconds;
        let _ = write!(
            line,
            "  elapsed {}:{:02}:{:02}",
            total as u64 / 3600,
            total as u64 / 60 % 60,
            total as u64 % 60
        );
        eprintln!("{line}");
        trainer
            .save(&checkpoint)
            .map_err(|e| format!("{}: {e}", checkpoint.display()))?;
        save_weights(&run.dir.join("weights.net"), &trainer)?;
        if run.snapshot_every > 0 && g.number % run.snapshot_every == 0 {
            save_weights(
                &run.dir.join(format!("weights-g{:04}.net", g.number)),
                &trainer,
            )?;
        }
        let row = format!(
            "{},{},{},{:.1},{:.4},{:.4},{},{},{},{}\n",
            g.number,
            g.games,
            g.positions,
            total,
            g.loss.policy,
            g.loss.value,
            g.black[0],
            g.black[1],
            g.black[2],
            mistakes
        );
        append(&log, &row)?;
    }
    Ok(())
}

fn save_weights<G>(path: &Path, trainer: &Trainer<G>) -> Result<(), String>
where
    G: games::nn::Encode + Send + Sync,
    G::Move: Send,
{
    tools::alphazero::write_atomically(path, &trainer.net.to_bytes(G::NAME))
        .map_err(|e| format!("{}: {e}", path.display()))
}

fn append(path: &Path, text: &str) -> Result<(), String> {
    std::fs::OpenOptions::new()
        .append(true)
        .open(path)
        .and_then(|mut f| f.write_all(text.as_bytes()))
        .map_err(|e| format!("{}: {e}", path.display()))
}
