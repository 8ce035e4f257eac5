//! az_train — mini AlphaZero: a policy/value network learns a game by self-play. See
//! [`USAGE`] and `tools::alphazero`.

use std::fmt::Write as _;
use std::io::Write as _;
use std::ops::Bound::{Excluded, Included, Unbounded};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;
use tools::alphazero::exact::{against_random_and_perfect, every_position, policy_mistakes};
use tools::alphazero::{checkpoint_path, exchange, Config, ExactTargets, Komi, Trainer};
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
  --resume            continue the run in DIR (give the same settings; they are checked,
                      except for --lr-drop beyond the checkpoint)
  --generations N     stop after generation N (default 50)
  --minutes M         or after M minutes of this session, at the end of a generation
  --threads T         self-play and gradient threads (default 2)
  --seed N            random seed (default 1)
  --role R            both (default): self-play and training in turn, deterministic;
                      trainer: train on games files that workers write to DIR/games,
                      publishing DIR/weights.net after every generation; worker: play
                      --games games with the newest DIR/weights.net, write them to
                      DIR/games, again (--generations counts batches). DIR may be on a
                      shared filesystem: any number of workers on any machines.
  --worker N          this worker's number (1..9999, default 1): its own random stream
  --snapshot-every N  also keep the network of every Nth generation as
                      DIR/weights-gNNNN.net (default 10; 0 never), for az_eval's curves

Settings (defaults depend on the game; `--show` prints them):
  --width N --blocks N --hidden N       the network: trunk channels, residual blocks,
                                        value head units
  --value-channels N  the value head's 1x1 convolution: N channels (1..32; default 1, as
                      AlphaZero), so that its dense layers see N numbers per point
  --features N        input planes beyond the 3 stone planes (AlphaZero's raw board,
                      the default 0): for othello up to 4, in this order: where the side
                      to move may play, where the opponent could, the parity of the
                      empty squares, the komi (--komi) for the side to move over 8
                      (written in the weights file's shape)
  --simulations N --c-puct C            the self-play search
  --fast-simulations N --full-share P   playout cap randomisation (KataGo): a move's
                      search is full (--simulations, root noise, kept for training) with
                      chance P (default 0.25), else fast (N simulations, not kept);
                      N = 0 (default): every search full
  --alpha A --epsilon E --temperature-plies N   root noise, moves sampled by visits
  --games N --window N                  games per generation, positions kept
  --batch N --steps N --lr X --momentum X --l2 X   the optimiser, per generation
  --q-share W         value target (1 - W) * outcome + W * the search's value of the
                      position (default 0: the outcome alone, as AlphaZero)
  --margin-share W    the outcome above becomes (1 - W) * (+1, 0 or -1) + W * the final
                      margin over the board's points (Othello's discs; Go and
                      tic-tac-toe score only the result): a win by 4 is worth more than
                      a win by 2, every win more than a draw (default 0)
  --ownership W       KataGo's ownership target: a head, in training only, that learns
                      from the trunk who holds each point when the game ends (the
                      final position's stones, from the side to move), its squared error
                      weighted W in the loss (default 0: no such head). Its parameters
                      live in the checkpoint, not in weights.net.
  --score W           KataGo's score head: a second output of the value head learns the
                      final margin over the board's points, its squared error weighted W
                      in the loss (default 0: no such head). It is in weights.net (format
                      version 3), for the score utility (below, and az_eval
                      --score-utility).
  --score-utility W[:S]  KataGo's score utility in self-play (needs --score): every
                      value the search backs up gets W * (2/pi) * atan((margin - centre)
                      / S), the margin the score head expects (a finished game's real
                      one), the centre the root's; W in 0..1, S in discs (default 2).
                      Both sides then play for discs as well as for the result.
  --loser-search N:T  N more simulations (1..=100000) for every self-play search
                      whose root value for the side to move ends below -T (T in
                      0..1): the side behind searches harder, so that the games'
                      results and margins owe less to the loser's slips.
  --late-search N:P   N more simulations (1..=100000) for every self-play search from
                      ply P of the game on (0 is the first move; P up to 1000): late
                      positions, whose search values (--q-share) the earlier ones
                      learn from, see the lines a shallow search misses.
  --forced-playouts K KataGo's forced playouts in full self-play searches: a root move
                      that has been tried gets at least sqrt(K * prior * visits) visits
                      (K in 0..=100; KataGo uses 2; default 0: off), so that a move root
                      noise lifts shows what it is worth; the policy target takes back
                      the visits PUCT alone would not have given it.
  --exact-endgame N   othello: Leela Chess Zero's tablebase rescoring, with the exact
                      endgame solver as the tablebase. Games are played out as usual,
                      but from the first position with at most N empty squares
                      (0..=24; default 0: off) every outcome and margin target is that
                      of perfect play: the solved position's result for the positions
                      before it, each later position's own exact score. N:P
                      rescores a share P (0..1) of the games, drawn apart from their
                      moves; the rest keep their played results
  --exact-targets T   which targets --exact-endgame rescores: all (default); margins,
                      the score head's only, the value keeping the played outcome;
                      losing, both, but only of the positions whose side to move does
                      not win with perfect play (the side ahead then chooses its
                      moves by perfect play's results, the side behind by where its
                      opponent slipped in play)
  --komi LIST         othello: KataGo's komi in self-play. Each game is played at one
                      of these comma-separated komis (discs added to Black's final
                      score, taken from White's; -36..=36), drawn apart from its moves;
                      its results, margins and exact targets count it. More than one
                      needs the komi plane (--features 4) so that the network sees
                      which. 4 makes 6x6 Othello even (White wins 20-16 with perfect
                      play), so that Black's positions are not all lost once White
                      plays well. Each entry is drawn alike: one listed three times is
                      drawn three times as often (0,0,0,4: komi 4 in a quarter of the
                      games). fair is the even game by the network itself: what
                      its score head expects White to win by, rounded to an even
                      number (needs --score). Default: 0 for every game.
  --komi-zero P       with --komi: a share P (0..1) of the draws of positions from
                      games played at a komi other than 0 train at komi 0 instead:
                      value and score targets from the final margin without the
                      komi, no policy target (the reported policy loss averages over
                      them as 0). Every position then teaches the komi-0 value
  --init FILE         start a new run from a trained network (weights.net) instead of
                      random weights: the same shape, except that the run may add a
                      score head (which starts untrained). The run's clock starts at 0:
                      add the network's own training time when you report it.
  --lr-drop G:X       from generation G on, learning rate X (repeat for more drops,
                      G increasing); --resume takes drops after the checkpoint's
                      generation as given: added, moved or left out
  --show              print the settings and exit
  -h, --help          this text

Progress goes to stderr, one line per generation: games, positions/s, losses, self-play's
record for Black (at each komi too, with --komi), elapsed.
For tic-tac-toe each line also counts the raw policy's mistakes over all 4,520 positions
(a move whose exact outcome is worse than the best).
";

struct Run {
    game: String,
    dir: PathBuf,
    resume: bool,
    generations: u32,
    minutes: Option<f64>,
    show: bool,
    snapshot_every: u32,
    role: Role,
    worker: u32,
    init: Option<String>,
    config: Config,
}

impl Run {
    /// Whether `--minutes` have passed since `session` began.
    fn time_is_up(&self, session: Instant) -> bool {
        self.minutes
            .is_some_and(|m| session.elapsed().as_secs_f64() > 60.0 * m)
    }
}

/// Which part of the loop this process runs.
#[derive(Clone, Copy, PartialEq)]
enum Role {
    /// Self-play and training in turn, in this process (deterministic).
    Both,
    /// Self-play only: games files for a trainer.
    Worker,
    /// Training only, on the workers' games files.
    Trainer,
}

fn parse() -> Result<Run, String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let game = args
        .iter()
        .position(|a| a == "--game")
        .and_then(|i| args.get(i + 1))
        .ok_or("--game is required: tictactoe, othello or go")?
        .clone();
    let mut config = Config::preset(&game)
        .ok_or_else(|| format!("--game is tictactoe, othello or go, not {game:?}"))?;
    let mut run = Run {
        game,
        dir: PathBuf::new(),
        resume: false,
        generations: 50,
        minutes: None,
        show: false,
        snapshot_every: 10,
        role: Role::Both,
        worker: 1,
        init: None,
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
                dir = Some(PathBuf::from(cli::text(&flag, it.next())?));
            }
            "--resume" => run.resume = true,
            "--init" => run.init = Some(cli::text(&flag, it.next())?),
            "--show" => run.show = true,
            "--role" => {
                let roles = [
                    ("both", Role::Both),
                    ("worker", Role::Worker),
                    ("trainer", Role::Trainer),
                ];
                run.role = cli::choice(&flag, it.next(), &roles)?;
            }
            "--worker" => run.worker = cli::number(&flag, it.next(), 1..=9999)?,
            "--snapshot-every" => run.snapshot_every = cli::number(&flag, it.next(), ..)?,
            "--generations" => run.generations = cli::number(&flag, it.next(), 1..)?,
            "--minutes" => {
                run.minutes = Some(cli::number(&flag, it.next(), (Excluded(0.0), Unbounded))?);
            }
            "--threads" => c.threads = cli::number(&flag, it.next(), 1..=64)?,
            "--seed" => c.seed = cli::number(&flag, it.next(), ..)?,
            "--width" => c.width = cli::number(&flag, it.next(), 1..=256)?,
            "--blocks" => c.blocks = cli::number(&flag, it.next(), ..=20)?,
            "--hidden" => c.hidden = cli::number(&flag, it.next(), 1..=1024)?,
            "--features" => {
                let most = games::nn::planes_for(&run.game).end() - games::nn::PLANES;
                let n: usize = cli::number(&flag, it.next(), ..=most)?;
                c.planes = games::nn::PLANES + n;
            }
            "--value-channels" => {
                c.value_channels =
                    cli::number(&flag, it.next(), 1..=games::nn::MAX_VALUE_CHANNELS)?;
            }
            "--simulations" => {
                c.simulations = cli::number(&flag, it.next(), 1..=100_000)?;
            }
            "--fast-simulations" => {
                c.fast_simulations = cli::number(&flag, it.next(), ..=100_000)?;
            }
            "--full-share" => {
                c.full_share = cli::number(&flag, it.next(), (Excluded(0.0), Included(1.0)))?;
            }
            "--c-puct" => {
                c.c_puct = cli::number(&flag, it.next(), (Excluded(0.0), Included(100.0)))?;
            }
            "--alpha" => c.alpha = cli::number(&flag, it.next(), (Excluded(0.0), Included(100.0)))?,
            "--epsilon" => {
                c.epsilon = cli::number(&flag, it.next(), 0.0..=1.0)?;
            }
            "--temperature-plies" => {
                c.temperature_plies = cli::number(&flag, it.next(), ..=1000)?;
            }
            "--games" => c.games = cli::number(&flag, it.next(), 1..=100_000)?,
            "--window" => {
                c.window = cli::number(&flag, it.next(), 1..=10_000_000)?;
            }
            "--batch" => c.batch = cli::number(&flag, it.next(), 1..=100_000)?,
            "--steps" => c.steps = cli::number(&flag, it.next(), ..=1_000_000)?,
            "--q-share" => {
                c.q_share = cli::number(&flag, it.next(), 0.0..=1.0f32)?;
            }
            "--margin-share" => {
                c.margin_share = cli::number(&flag, it.next(), 0.0..1.0f32)?;
            }
            "--ownership" => {
                c.ownership = cli::number(&flag, it.next(), 0.0..=10.0f32)?;
            }
            "--score" => {
                c.score = cli::number(&flag, it.next(), 0.0..=10.0f32)?;
            }
            "--score-utility" => c.score_utility = Some(cli::score_utility(&flag, it.next())?),
            "--loser-search" => {
                let form = "N:T, N in 1..=100000 and T in 0..1, as 64:0.3";
                let ok = |&n: &u32, &t: &f64| (1..=100_000).contains(&n) && (0.0..1.0).contains(&t);
                c.loser_search = Some(cli::pair(&flag, it.next(), form, ok)?);
            }
            "--late-search" => {
                let form = "N:PLY, N in 1..=100000 and PLY in 0..=1000, as 128:16";
                let ok = |&n: &u32, &p: &u32| (1..=100_000).contains(&n) && p <= 1000;
                c.late_search = Some(cli::pair(&flag, it.next(), form, ok)?);
            }
            "--forced-playouts" => {
                c.forced_playouts = cli::number(&flag, it.next(), 0.0..=100.0)?;
            }
            "--exact-endgame" => {
                // N, or N:P for a share P of the games.
                let text = cli::text(&flag, it.next())?;
                let (n, share) = match text.split_once(':') {
                    Some((n, p)) => (n.to_string(), Some(p.to_string())),
                    None => (text, None),
                };
                c.exact_endgame = cli::number(&flag, Some(n), 0..=24u32)?;
                if let Some(share) = share {
                    c.exact_share =
                        cli::number(&format!("{flag}'s share"), Some(share), 0.0..=1.0)?;
                }
            }
            "--exact-targets" => {
                let targets = [
                    ("all", ExactTargets::All),
                    ("margins", ExactTargets::Margins),
                    ("losing", ExactTargets::Losing),
                ];
                c.exact_targets = cli::choice(&flag, it.next(), &targets)?;
            }
            "--komi-zero" => c.komi_zero = cli::number(&flag, it.next(), 0.0..=1.0)?,
            "--komi" => {
                let text = cli::text(&flag, it.next())?;
                c.komi = text
                    .split(',')
                    .map(|k| match k.trim() {
                        "fair" => Ok(Komi::Fair),
                        k => cli::number(&flag, Some(k.to_string()), -36..=36).map(Komi::Fixed),
                    })
                    .collect::<Result<_, _>>()?;
            }
            "--lr" => c.lr = cli::number(&flag, it.next(), (Excluded(0.0f32), Included(10.0)))?,
            "--lr-drop" => {
                let form = "GENERATION:RATE, as 300:0.002";
                let ok = |&g: &u32, &x: &f32| g >= 1 && x > 0.0 && x <= 10.0;
                let drop = cli::pair(&flag, it.next(), form, ok)?;
                if c.lr_drops.last().is_some_and(|&(g, _)| g >= drop.0) {
                    return Err(format!(
                        "--lr-drop {}:{}: the drops' generations must increase",
                        drop.0, drop.1
                    ));
                }
                c.lr_drops.push(drop);
            }
            "--momentum" => {
                c.momentum = cli::number(&flag, it.next(), 0.0..1.0f32)?;
            }
            "--l2" => c.l2 = cli::number(&flag, it.next(), 0.0..=1.0f32)?,
            other => return Err(format!("unknown option {other:?} (see --help)")),
        }
    }
    if config.score_utility.is_some() && config.score <= 0.0 {
        return Err("--score-utility needs the score head: give --score W too".into());
    }
    if config.exact_endgame > 0 && run.game != "othello" {
        return Err(format!(
            "--exact-endgame needs a solver: othello has one, {} not",
            run.game
        ));
    }
    if !config.komi.is_empty() && run.game != "othello" {
        return Err(format!("--komi is for othello, not {}", run.game));
    }
    if config.komi_zero > 0.0 && config.komi.is_empty() {
        return Err("--komi-zero relabels games played at other komis: give --komi too".into());
    }
    let komi_plane = *games::nn::planes_for(&run.game).end();
    if config.komi.contains(&Komi::Fair) && config.score <= 0.0 {
        return Err("--komi fair is what the score head expects: give --score W too".into());
    }
    let varies = config.komi.len() > 1 || config.komi.contains(&Komi::Fair);
    if varies && config.planes != komi_plane {
        return Err(format!(
            "--komi {:?} needs the komi plane, so that the network sees the game's: give --features {}",
            config.komi,
            komi_plane - games::nn::PLANES
        ));
    }
    if config.exact_targets != ExactTargets::All && config.exact_endgame == 0 {
        return Err("--exact-targets chooses what --exact-endgame rescores: give it too".into());
    }
    if config.exact_targets == ExactTargets::Margins && config.score <= 0.0 {
        return Err("--exact-targets margins trains the score head: give --score W too".into());
    }
    run.config = config;
    if run.resume && run.init.is_some() {
        return Err("--init starts a new run; --resume continues one: give one of them".into());
    }
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
    G: tools::alphazero::Exact + Send + Sync,
    G::Move: Send,
{
    std::fs::create_dir_all(&run.dir).map_err(|e| format!("{}: {e}", run.dir.display()))?;
    if run.role == Role::Worker {
        return worker(run, &start);
    }
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
        let mut trainer = Trainer::new(start, run.config.clone())?;
        if let Some(path) = &run.init {
            let size = trainer.start().board_size();
            let net = cli::load_weights(path, G::NAME, Some(size))?;
            trainer
                .start_from(&net)
                .map_err(|e| format!("--init {path}: {e}"))?;
        }
        trainer
    };
    let log = run.dir.join("log.csv");
    // A run resumed from a checkpoint copied into a new folder starts its log there.
    if !run.resume || !log.exists() {
        std::fs::write(
            &log,
            "generation,games,positions,seconds,policy_loss,value_loss,black_wins,draws,black_losses,mistakes\n",
        )
        .map_err(|e| format!("{}: {e}", log.display()))?;
    }
    if run.role == Role::Trainer {
        // The workers start from the network as it stands.
        save_weights(&run.dir.join("weights.net"), &trainer)?;
    }
    if trainer.generation >= run.generations {
        eprintln!(
            "az_train: the run is at generation {}, --generations {}: nothing to do (raise --generations to go on)",
            trainer.generation, run.generations
        );
        return Ok(());
    }
    let session = Instant::now();
    // The trainer's rates are per wall-clock second between its generations.
    let mut last = Instant::now();
    while trainer.generation < run.generations {
        if run.time_is_up(session) {
            eprintln!(
                "az_train: time is up after generation {}",
                trainer.generation
            );
            break;
        }
        let (g, absorbed) = match run.role {
            Role::Trainer => match absorb_games(run, &mut trainer, session, &mut last)? {
                Some(step) => step,
                None => break,
            },
            _ => (trainer.generation(), Vec::new()),
        };
        let mut line = format!(
            "gen {:>4}  games {:>6}  positions {:>8} ({:.0}/s, {:.0} evals/s)  loss policy {:.3} value {:.3}  lr {}  black {}-{}-{}",
            g.number,
            g.games,
            g.positions,
            g.new_positions as f64 / g.seconds.0.max(1e-9),
            g.evaluations as f64 / g.seconds.0.max(1e-9),
            g.loss.policy,
            g.loss.value,
            trainer.config.lr_at(g.number),
            g.black[0],
            g.black[1],
            g.black[2],
        );
        if trainer.config.komi.len() > 1 {
            for (komi, [w, d, l]) in &g.black_by_komi {
                let _ = write!(line, " (komi {komi}: {w}-{d}-{l})");
            }
        }
        if !trainer.ownership.is_empty() {
            let _ = write!(line, "  ownership {:.3}", g.loss.ownership);
        }
        if trainer.config.score > 0.0 {
            let _ = write!(line, "  score {:.4}", g.loss.score);
        }
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
        // Only now that the checkpoint holds them: a crash before leaves them to be read again.
        for file in absorbed {
            let used = exchange::used_dir(&run.dir);
            let moved = std::fs::create_dir_all(&used).and_then(|()| {
                std::fs::rename(&file, used.join(file.file_name().unwrap_or_default()))
            });
            moved.map_err(|e| format!("{}: {e}", file.display()))?;
        }
    }
    Ok(())
}

/// The trainer's wait for the workers: once the games files waiting hold at least
/// `--games` games, absorbs them all and trains one generation. `None` when time is up.
fn absorb_games<G>(
    run: &Run,
    trainer: &mut Trainer<G>,
    session: Instant,
    last: &mut Instant,
) -> Result<Option<(tools::alphazero::Generation, Vec<PathBuf>)>, String>
where
    G: tools::alphazero::Exact + Send + Sync,
    G::Move: Send,
{
    let waited = Instant::now();
    let mut said = false;
    loop {
        let files =
            exchange::pending(&run.dir).map_err(|e| format!("{}: {e}", run.dir.display()))?;
        let mut games = Vec::new();
        let mut read = Vec::new();
        for file in files {
            let bytes = std::fs::read(&file).map_err(|e| format!("{}: {e}", file.display()))?;
            match exchange::from_bytes(&bytes, G::NAME, trainer.start().board_size()) {
                Ok(g) => {
                    games.extend(g);
                    read.push(file);
                }
                Err(e) => {
                    // A bad file is set aside, not fatal: a worker elsewhere may be misconfigured.
                    eprintln!("az_train: {}: {e}; moved to games/bad", file.display());
                    let bad = exchange::games_dir(&run.dir).join("bad");
                    let _ = std::fs::create_dir_all(&bad);
                    let _ = std::fs::rename(&file, bad.join(file.file_name().unwrap_or_default()));
                }
            }
        }
        if games.len() >= run.config.games {
            let mut report = trainer.absorb(games);
            // Positions per second: what the workers made since the last generation.
            report.seconds.0 = last.elapsed().as_secs_f64();
            trainer.seconds += waited.elapsed().as_secs_f64();
            trainer.train(&mut report);
            *last = Instant::now();
            return Ok(Some((report, read)));
        }
        if run.time_is_up(session) {
            eprintln!(
                "az_train: time is up after generation {}",
                trainer.generation
            );
            return Ok(None);
        }
        if !said {
            eprintln!(
                "az_train: trainer waiting for {} games from workers in {} ({} there)",
                run.config.games,
                exchange::games_dir(&run.dir).display(),
                games.len()
            );
            said = true;
        }
        std::thread::sleep(std::time::Duration::from_millis(500));
    }
}

/// A self-play worker: plays `--games` games with the newest published network, writes
/// them as one file, and again, for `--generations` batches or `--minutes`.
fn worker<G>(run: &Run, start: &G) -> Result<(), String>
where
    G: tools::alphazero::Exact + Send + Sync,
    G::Move: Send,
{
    let weights = run.dir.join("weights.net");
    // Each worker has its own random stream; its batches continue after its last file.
    let config = Config {
        seed: games::rng::mix(run.config.seed ^ u64::from(run.worker) << 40),
        ..run.config.clone()
    };
    let prefix = format!("w{:04}-", run.worker);
    let mut batch = 0u64;
    for folder in [exchange::games_dir(&run.dir), exchange::used_dir(&run.dir)] {
        for entry in std::fs::read_dir(folder).into_iter().flatten().flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if let Some(n) = name
                .strip_prefix(&prefix)
                .and_then(|r| r.strip_suffix(".games"))
                .and_then(|n| n.parse::<u64>().ok())
            {
                batch = batch.max(n + 1);
            }
        }
    }
    let session = Instant::now();
    let mut done = 0u32;
    let mut said = false;
    while done < run.generations {
        if run.time_is_up(session) {
            eprintln!(
                "az_train: worker {}: time is up after {done} batches",
                run.worker
            );
            break;
        }
        let Ok(bytes) = std::fs::read(&weights) else {
            if !said {
                eprintln!(
                    "az_train: worker {} waiting for {}",
                    run.worker,
                    weights.display()
                );
                said = true;
            }
            std::thread::sleep(std::time::Duration::from_millis(500));
            continue;
        };
        let net = games::nn::Net::from_bytes_for(
            &bytes,
            G::NAME,
            Some(start.board_size()),
            games::nn::planes_for(G::NAME),
        )
        .map_err(|e| format!("{}: {e}", weights.display()))?;
        let clock = Instant::now();
        let games = tools::alphazero::self_play(start, &net, &config, batch);
        let positions: usize = games.iter().map(|p| p.samples.len()).sum();
        let file = exchange::publish(
            &run.dir,
            run.worker,
            batch,
            &exchange::to_bytes(G::NAME, start.board_size(), &games),
        )
        .map_err(|e| format!("{}: {e}", run.dir.display()))?;
        let secs = clock.elapsed().as_secs_f64();
        eprintln!(
            "worker {} batch {batch}: {} games, {positions} positions ({:.0}/s) -> {}  elapsed {:.0} s",
            run.worker,
            games.len(),
            positions as f64 / secs.max(1e-9),
            file.display(),
            session.elapsed().as_secs_f64()
        );
        batch += 1;
        done += 1;
    }
    Ok(())
}

fn save_weights<G>(path: &Path, trainer: &Trainer<G>) -> Result<(), String>
where
    G: tools::alphazero::Exact + Send + Sync,
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
