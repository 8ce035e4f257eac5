//! Mini AlphaZero: learning a game by self-play, over the [`Encode`] games of the games
//! crate (tic-tac-toe, Othello, Go). Files: `selfplay` (games of the network against
//! itself: PUCT, Dirichlet noise, temperature), `grad` (the hand-written backward pass),
//! `checkpoint` (the trainer's whole state in one file), this file (settings, the replay
//! window, SGD, the generation loop).
//!
//! One **generation**: the current network plays [`Config::games`] games against itself
//! (split over [`Config::threads`] threads by game number, so the result does not depend on
//! scheduling), their positions join the replay window (the newest [`Config::window`]
//! positions), and [`Config::steps`] minibatches of [`Config::batch`] positions drawn from
//! the window, each seen through one of the board's 8 symmetries, train the network by SGD
//! with momentum on `policy cross-entropy + value MSE + l2 · |θ|²`. Every random choice
//! comes from [`Config::seed`] and the generation and game numbers: the same settings and
//! thread count give the same network, and a run resumed from a checkpoint gives the same
//! network as the run straight through.

mod checkpoint;
pub mod exact;
pub mod exchange;
mod grad;
mod selfplay;

pub use checkpoint::{write_atomically, CheckpointError};
pub use grad::{backward, backward_with, ownership_params, Loss, Ownership, ScoreTarget, Scratch};
pub use selfplay::{dirichlet, fair_komi, play, Exact, PlaneScratch, Played, Sample};

use games::nn::{Activations, Encode, Net, Shape, PLANES};
use games::rng::{mix, Rng};
use std::collections::VecDeque;
use std::time::Instant;

/// Everything that decides what a training run learns.
#[derive(Clone, PartialEq)]
pub struct Config {
    /// Trunk channels.
    pub width: usize,
    /// Residual blocks.
    pub blocks: usize,
    /// Value head hidden units.
    pub hidden: usize,
    /// Value head channels (the 1×1 convolution's outputs): AlphaZero's 1 by default.
    pub value_channels: usize,
    /// Input planes: the 3 stone planes, and as many of the game's feature planes
    /// ([`Encode::FEATURES`]) as this is above 3, and with one more, the komi plane
    /// ([`games::nn::planes_of`]). 3 by default (AlphaZero's raw board).
    pub planes: usize,
    /// PUCT simulations per self-play move (per full search, when
    /// [`Config::fast_simulations`] is set).
    pub simulations: u32,
    /// Playout cap randomisation (KataGo): when nonzero, the simulations of a fast search,
    /// made without root noise and not kept as a sample, on the moves that are not drawn
    /// for a full search. 0: every move gets the full search.
    pub fast_simulations: u32,
    /// With [`Config::fast_simulations`] set, the chance of a move's search being full.
    pub full_share: f64,
    /// The PUCT exploration constant.
    pub c_puct: f64,
    /// Dirichlet noise parameter at the root.
    pub alpha: f64,
    /// Weight of the noise in the root's priors.
    pub epsilon: f64,
    /// Moves chosen in proportion to visits (temperature 1) at the start of each game; the
    /// most visited move after.
    pub temperature_plies: usize,
    /// Self-play games per generation.
    pub games: usize,
    /// Positions kept in the replay window.
    pub window: usize,
    /// Positions per minibatch.
    pub batch: usize,
    /// Minibatches per generation.
    pub steps: usize,
    /// The share of the search's value in the value target (0: the outcome alone, as
    /// AlphaZero; 0.5: the mean of the outcome and the root's value).
    pub q_share: f32,
    /// The share of the final margin (over the board's points) in the result part of the
    /// value target (0: win, draw or loss alone). See [`Sample::value_target`].
    pub margin_share: f32,
    /// The weight of KataGo's ownership target (0: no ownership head). See
    /// [`Ownership`].
    pub ownership: f32,
    /// The weight of the score head's loss (0: no score head). The network gets a second
    /// value output that learns the final margin over the board's points ([`ScoreTarget`]),
    /// for KataGo's score utility ([`games::nn::ScoreUtility`]).
    pub score: f32,
    /// KataGo's score utility in self-play: weight and scale (discs or points) of the term
    /// every value the search backs up gets, centred on the margin the score head expects
    /// at the root (`None`: the search sees the value alone, as AlphaZero). Needs the
    /// score head ([`Config::score`] above 0). A value taught wins and losses plays a win
    /// by 2 as gladly as a win by 4, and the losing side gives discs away; with the term,
    /// both sides play for discs too, so the games' margins (the score head's targets)
    /// come nearer to what each move is worth.
    pub score_utility: Option<(f64, f64)>,
    /// More search for the side behind: `(extra, threshold)` gives every self-play search
    /// whose root value for the side to move ends below `−threshold` `extra` simulations
    /// more (`None`: every search the same). Self-play's margins and late values are
    /// inflated by the loser's slips, a drawing or closer line it does not find; searching
    /// its moves harder brings the games' results nearer to what the positions are worth.
    pub loser_search: Option<(u32, f64)>,
    /// More search late in the game: `(extra, ply)` gives every self-play search from ply
    /// `ply` of the game on (0 is the first move) `extra` simulations more (`None`: every
    /// search the same). The search's value of a position is half its value target with
    /// [`Config::q_share`] at 0.5; late positions are where a few more simulations reach
    /// the lines that refute a move a shallow search likes, so their targets, which the
    /// earlier positions' values learn from in turn, are the ones this sharpens.
    pub late_search: Option<(u32, u32)>,
    /// KataGo's forced playouts and policy target pruning in full self-play searches: the
    /// `k` of [`games::mcts::Tree::force_root_playouts`] (0: off; KataGo uses 2). A move
    /// that root noise lifts gets about `√(k · P · n)` visits, enough to show whether its
    /// first value was wrong, and the target ([`games::mcts::Tree::root_target`]) takes
    /// back the visits PUCT would not have given it: a move with a small prior that
    /// turns out to win can be found, and one that does not is not taught.
    pub forced_playouts: f64,
    /// Exact endgame targets (Leela Chess Zero's tablebase rescoring), for games with a
    /// solver ([`Exact`]; Othello): from the first self-play position with at most this
    /// many empty points, the game's outcome and margin targets are those of perfect play
    /// (see [`play`]). 0: off, the played result alone, as AlphaZero.
    pub exact_endgame: u32,
    /// The share of self-play games that [`Config::exact_endgame`] rescores (0..=1; 1:
    /// every game). Which games is drawn from each game's seed apart from its moves, so a
    /// game is played the same whatever the share: only its targets differ. The others
    /// keep their played results, whose slips give the losing side of a solved opening
    /// chances to learn from.
    pub exact_share: f64,
    /// Which targets [`Config::exact_endgame`] rescores in a rescored game.
    pub exact_targets: ExactTargets,
    /// KataGo's komi in self-play: each game is played at one of these komis (points
    /// added to Black's final score, taken from White's), drawn from the game's seed apart
    /// from its moves; empty: every game at 0, the rules' own scoring. Results, margins and
    /// exact targets count the game's komi, and a network with the komi plane
    /// ([`games::nn::planes_of`]) sees it. A komi near what perfect play wins by makes the
    /// opening even, so that once one side plays well the other side's positions are not
    /// all lost and its value still learns which are better; [`Komi::Fair`] follows the
    /// network's own judgement of what is even.
    pub komi: Vec<Komi>,
    /// The share (0..=1) of the minibatch draws of a position from a game played at a
    /// komi other than 0 ([`Config::komi`]) that train it at komi 0 instead
    /// ([`Sample::at_komi`]): value and score targets from the game's final margin without
    /// the komi, and no policy target (its visits were searched at the game's komi). So
    /// every position, not only those of the komi-0 games, teaches the komi-0 value.
    pub komi_zero: f64,
    /// Learning rate.
    pub lr: f32,
    /// Learning-rate drops: from generation `g` on (the generation that trains), `lr` is
    /// the paired value instead; generations increasing.
    pub lr_drops: Vec<(u32, f32)>,
    /// Momentum of SGD.
    pub momentum: f32,
    /// L2 regularisation.
    pub l2: f32,
    /// Threads for self-play and for the minibatch gradients.
    pub threads: usize,
    /// The run's random seed.
    pub seed: u64,
}

impl Config {
    /// The settings `az_train --game G` starts from: `tictactoe`, `othello` (6×6) or `go`
    /// (7×7); `None` for another name.
    pub fn preset(game: &str) -> Option<Config> {
        let base = Config {
            width: 32,
            blocks: 2,
            hidden: 64,
            value_channels: 1,
            planes: PLANES,
            simulations: 100,
            fast_simulations: 0,
            full_share: 0.25,
            c_puct: 1.5,
            alpha: 0.5,
            epsilon: 0.25,
            temperature_plies: 10,
            games: 40,
            window: 40_000,
            batch: 128,
            steps: 100,
            q_share: 0.0,
            margin_share: 0.0,
            ownership: 0.0,
            score: 0.0,
            score_utility: None,
            loser_search: None,
            late_search: None,
            forced_playouts: 0.0,
            exact_endgame: 0,
            exact_share: 1.0,
            exact_targets: ExactTargets::All,
            komi: Vec::new(),
            komi_zero: 0.0,
            lr: 0.01,
            lr_drops: Vec::new(),
            momentum: 0.9,
            l2: 1e-4,
            threads: 2,
            seed: 1,
        };
        match game {
            // What the test command trains (tools/tests/alphazero.rs): perfect play in ~40
            // generations.
            "tictactoe" => Some(Config {
                width: 16,
                blocks: 1,
                hidden: 32,
                simulations: 64,
                alpha: 1.0,
                temperature_plies: 4,
                games: 40,
                window: 8_000,
                batch: 64,
                steps: 100,
                lr: 0.05,
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

    /// The learning rate generation `number` trains with: that of the last of
    /// [`Config::lr_drops`] begun by then, or [`Config::lr`] before the first.
    pub fn lr_at(&self, number: u32) -> f32 {
        self.lr_drops
            .iter()
            .take_while(|&&(from, _)| from <= number)
            .last()
            .map_or(self.lr, |&(_, lr)| lr)
    }

    /// These settings as a run up to generation `done` saw them: without the drops that
    /// begin later. (A resumed run may add drops for its future; see [`Trainer::load`].)
    pub fn as_of(&self, done: u32) -> Config {
        Config {
            lr_drops: self
                .lr_drops
                .iter()
                .copied()
                .filter(|&(from, _)| from <= done)
                .collect(),
            ..self.clone()
        }
    }

    /// The network shape for a `size`×`size` board.
    pub fn shape(&self, size: usize) -> Shape {
        Shape {
            size,
            planes: self.planes,
            width: self.width,
            blocks: self.blocks,
            hidden: self.hidden,
            value_channels: self.value_channels,
            score: self.score > 0.0,
        }
    }
}

/// One of the komis for Black that [`Config::komi`] draws from.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Komi {
    /// This many points.
    Fixed(i32),
    /// The even game by the network that plays it: the margin its score head expects
    /// White to win the start position by at komi 0, rounded to an even number (6×6
    /// Othello's margins are even), within the board's points. As the network learns
    /// what White wins by, this komi follows, so its games stay even by its own
    /// judgement (KataGo's way of keeping self-play balanced). Needs the score head.
    Fair,
}

/// Printed as the number, or `fair`: how the settings show it.
impl std::fmt::Debug for Komi {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Komi::Fixed(k) => write!(f, "{k}"),
            Komi::Fair => f.write_str("fair"),
        }
    }
}

/// Which targets of a game [`Config::exact_endgame`] rescores (each position's side to
/// move seen against perfect play from the first solved position, or from its own if
/// later).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExactTargets {
    /// Every outcome and margin target: Leela Chess Zero's rescoring.
    All,
    /// Only the margins (the score head's targets); the value keeps the played outcome.
    /// The value learns the result the games reached, slips and all, which gives the side
    /// that loses a solved opening its chances; the margin learns how much perfect play
    /// wins by, which with the score utility ([`Config::score_utility`]) tells a win by 4
    /// from a win by 2.
    Margins,
    /// Both targets, but only of the positions whose side to move does not win with
    /// perfect play; the winning side's positions keep the played outcome and margin. A
    /// move is chosen by the values of the positions after it, whose side to move is the
    /// other player's: the side ahead then chooses by perfect play's results (it cannot
    /// count on slips), and the side behind by the played ones (where its opponent slipped
    /// in practice).
    Losing,
}

/// The settings as checkpoints record them (and `--show` prints them). The field list is
/// written out so that `value_channels` (above 1), `lr_drops`, the playout cap, `q_share`,
/// `margin_share`, `ownership`, `score`, `score_utility`, `loser_search`, `late_search`
/// `forced_playouts`, `exact_endgame`, `exact_share`, `exact_targets`, `komi` and
/// `komi_zero` appear only when used:
/// checkpoints made before they existed keep resuming.
impl std::fmt::Debug for Config {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut s = f.debug_struct("Config");
        s.field("width", &self.width)
            .field("blocks", &self.blocks)
            .field("hidden", &self.hidden);
        if self.value_channels != 1 {
            s.field("value_channels", &self.value_channels);
        }
        if self.planes != PLANES {
            s.field("planes", &self.planes);
        }
        s.field("simulations", &self.simulations);
        if self.fast_simulations > 0 {
            s.field("fast_simulations", &self.fast_simulations)
                .field("full_share", &self.full_share);
        }
        s.field("c_puct", &self.c_puct)
            .field("alpha", &self.alpha)
            .field("epsilon", &self.epsilon)
            .field("temperature_plies", &self.temperature_plies)
            .field("games", &self.games)
            .field("window", &self.window)
            .field("batch", &self.batch)
            .field("steps", &self.steps);
        if self.q_share != 0.0 {
            s.field("q_share", &self.q_share);
        }
        if self.margin_share != 0.0 {
            s.field("margin_share", &self.margin_share);
        }
        if self.ownership != 0.0 {
            s.field("ownership", &self.ownership);
        }
        if self.score != 0.0 {
            s.field("score", &self.score);
        }
        if let Some(utility) = &self.score_utility {
            s.field("score_utility", utility);
        }
        if let Some(loser) = &self.loser_search {
            s.field("loser_search", loser);
        }
        if let Some(late) = &self.late_search {
            s.field("late_search", late);
        }
        if self.forced_playouts != 0.0 {
            s.field("forced_playouts", &self.forced_playouts);
        }
        if self.exact_endgame != 0 {
            s.field("exact_endgame", &self.exact_endgame);
        }
        if self.exact_share != 1.0 {
            s.field("exact_share", &self.exact_share);
        }
        if self.exact_targets != ExactTargets::All {
            s.field("exact_targets", &self.exact_targets);
        }
        if !self.komi.is_empty() {
            s.field("komi", &self.komi);
        }
        if self.komi_zero != 0.0 {
            s.field("komi_zero", &self.komi_zero);
        }
        s.field("lr", &self.lr);
        if !self.lr_drops.is_empty() {
            s.field("lr_drops", &self.lr_drops);
        }
        s.field("momentum", &self.momentum)
            .field("l2", &self.l2)
            .field("threads", &self.threads)
            .field("seed", &self.seed)
            .finish()
    }
}

/// The checkpoint file of the run in `dir`.
pub fn checkpoint_path(dir: &std::path::Path) -> std::path::PathBuf {
    dir.join("checkpoint.ckp")
}

/// What one generation did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Generation {
    /// The generation's number, from 1.
    pub number: u32,
    /// Self-play games so far.
    pub games: u64,
    /// Self-play positions so far.
    pub positions: u64,
    /// Positions this generation.
    pub new_positions: usize,
    /// Network evaluations this generation.
    pub evaluations: u64,
    /// Mean loss over this generation's minibatches.
    pub loss: Loss,
    /// Self-play results this generation, for Black: wins, draws, losses.
    pub black: [u32; 3],
    /// The same per komi for Black ([`Config::komi`]), smallest komi first.
    pub black_by_komi: Vec<(i8, [u32; 3])>,
    /// Seconds of self-play, of training.
    pub seconds: (f64, f64),
}

/// A training run's whole state: the network, the optimiser's momentum, the replay window
/// and the counters. [`Trainer::save`] and [`Trainer::load`] keep it in one file.
#[derive(Clone, Debug)]
pub struct Trainer<G: Encode> {
    /// The settings.
    pub config: Config,
    start: G,
    /// The network being trained.
    pub net: Net,
    velocity: Vec<f32>,
    /// The ownership head's parameters (empty without one; see [`Config::ownership`]).
    pub ownership: Vec<f32>,
    ownership_velocity: Vec<f32>,
    window: VecDeque<Sample>,
    /// Generations done.
    pub generation: u32,
    /// Self-play games so far.
    pub games: u64,
    /// Self-play positions so far.
    pub positions: u64,
    /// Seconds spent, over all sessions.
    pub seconds: f64,
}

/// `config.games` self-play games of `net` from `start`, split over `config.threads`
/// threads by game number and returned in game order: game `g` of stream `stream` draws
/// its random choices from `config.seed`, `stream` and `g` only. (The trainer's stream is
/// the generation number; each worker process has its own seed.)
pub fn self_play<G: Exact + Sync>(start: &G, net: &Net, config: &Config, stream: u64) -> Vec<Played>
where
    G::Move: Send,
{
    let threads = config.threads.max(1);
    let count = config.games;
    let seed = |game: usize| mix(config.seed ^ mix(stream << 32 | game as u64));
    let mut results: Vec<(usize, Played)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|t| {
                scope.spawn(move || {
                    (t..count)
                        .step_by(threads)
                        .map(|g| (g, play(start, net, config, seed(g))))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().expect("a self-play thread panicked"))
            .collect()
    });
    results.sort_by_key(|(g, _)| *g);
    results.into_iter().map(|(_, p)| p).collect()
}

impl<G: Exact + Send + Sync> Trainer<G>
where
    G::Move: Send,
{
    /// A new run from `start` with a freshly initialised network.
    ///
    /// # Errors
    ///
    /// A message if the network shape is outside the limits or a komi is larger than the
    /// board.
    pub fn new(start: G, config: Config) -> Result<Trainer<G>, String> {
        let planes = games::nn::planes_for(G::NAME);
        if !planes.contains(&config.planes) {
            return Err(format!(
                "{} input planes: {} takes {}..={}",
                config.planes,
                G::NAME,
                planes.start(),
                planes.end()
            ));
        }
        let points = start.board_size().pow(2) as i32;
        for komi in &config.komi {
            match *komi {
                Komi::Fixed(k) if k.abs() > points.min(127) => {
                    return Err(format!("komi {k}: more than the board's {points} points"));
                }
                Komi::Fair if config.score <= 0.0 => {
                    return Err("the fair komi is the score head's: it needs one".into());
                }
                _ => {}
            }
        }
        let shape = config.shape(start.board_size());
        let net = Net::random(shape, mix(config.seed ^ 0x006e_6574)).map_err(|e| e.to_string())?;
        let velocity = vec![0.0; net.params.len()];
        let mut ownership = Vec::new();
        if config.ownership > 0.0 {
            // He-initialised like the value head's 1×1 convolution, zero bias.
            let mut rng = Rng::new(mix(config.seed ^ 0x6f77_6e65));
            let sd = (2.0 / config.width as f64).sqrt();
            ownership = (0..config.width)
                .map(|_| (rng.normal() * sd) as f32)
                .collect();
            ownership.push(0.0);
        }
        let ownership_velocity = vec![0.0; ownership.len()];
        Ok(Trainer {
            config,
            start,
            net,
            velocity,
            ownership,
            ownership_velocity,
            window: VecDeque::new(),
            generation: 0,
            games: 0,
            positions: 0,
            seconds: 0.0,
        })
    }

    /// Starts from a trained network's parameters instead of the random ones: `net` must
    /// have this run's shape, except that the run may add a score head, whose output
    /// weights keep their fresh initialisation (the layers before it, and the value output,
    /// are copied).
    ///
    /// # Errors
    ///
    /// A message naming the shapes when they differ otherwise.
    pub fn start_from(&mut self, net: &Net) -> Result<(), String> {
        let (mine, theirs) = (*self.net.shape(), *net.shape());
        let same_but_score = Shape {
            score: mine.score,
            ..theirs
        } == mine;
        if !same_but_score || (theirs.score && !mine.score) {
            return Err(format!(
                "the network's shape {theirs:?} is not this run's {mine:?} (only a score \
                 head may be added)"
            ));
        }
        // Every layer before the value output is laid out alike; the value output is
        // stored [in][out], 1 or 2 outputs wide, its bias after.
        let (to, from) = (self.net.layout().value_out, net.layout().value_out);
        self.net.params[..to.w].copy_from_slice(&net.params[..from.w]);
        for i in 0..to.inputs {
            for o in 0..from.outputs {
                self.net.params[to.w + i * to.outputs + o] =
                    net.params[from.w + i * from.outputs + o];
            }
        }
        self.net.params[to.b..to.b + from.outputs]
            .copy_from_slice(&net.params[from.b..][..from.outputs]);
        Ok(())
    }

    /// The position every self-play game starts from.
    pub fn start(&self) -> &G {
        &self.start
    }

    /// Positions in the replay window.
    pub fn window_len(&self) -> usize {
        self.window.len()
    }

    /// One generation: self-play, then training.
    pub fn generation(&mut self) -> Generation {
        let number = self.generation + 1;
        let clock = Instant::now();
        let played = self_play(&self.start, &self.net, &self.config, u64::from(number));
        let play_seconds = clock.elapsed().as_secs_f64();
        let mut report = self.absorb(played);
        self.train(&mut report);
        report.seconds.0 = play_seconds;
        self.seconds += play_seconds;
        report
    }

    /// Adds finished games to the replay window; the report of the generation they will
    /// train.
    pub fn absorb(&mut self, games: Vec<Played>) -> Generation {
        let mut report = Generation {
            number: self.generation + 1,
            ..Generation::default()
        };
        for Played {
            samples,
            black,
            komi,
            evaluations,
        } in games
        {
            let result = (1 - i32::from(black.signum())) as usize;
            report.black[result] += 1;
            let at = &mut report.black_by_komi;
            let i = match at.binary_search_by_key(&komi, |&(k, _)| k) {
                Ok(i) => i,
                Err(i) => {
                    at.insert(i, (komi, [0; 3]));
                    i
                }
            };
            at[i].1[result] += 1;
            report.new_positions += samples.len();
            report.evaluations += evaluations;
            self.games += 1;
            self.positions += samples.len() as u64;
            self.window.extend(samples);
        }
        while self.window.len() > self.config.window {
            self.window.pop_front();
        }
        report
    }

    /// Trains [`Config::steps`] minibatches on the window, ending generation
    /// `report.number`.
    pub fn train(&mut self, report: &mut Generation) {
        let number = report.number;
        let clock = Instant::now();
        let mut total = Loss::default();
        let mut rng = Rng::new(mix(self.config.seed ^ mix(u64::from(number) << 1 | 1)));
        let lr = self.config.lr_at(number);
        for _ in 0..self.config.steps {
            let loss = self.step(&mut rng, lr);
            total.policy += loss.policy / self.config.steps as f32;
            total.value += loss.value / self.config.steps as f32;
            total.ownership += loss.ownership / self.config.steps as f32;
            total.score += loss.score / self.config.steps as f32;
        }
        let train_seconds = clock.elapsed().as_secs_f64();
        self.generation = number;
        self.seconds += train_seconds;
        report.games = self.games;
        report.positions = self.positions;
        report.loss = total;
        report.seconds.1 = train_seconds;
    }

    /// One minibatch of SGD with momentum at learning rate `lr`; returns its mean loss.
    fn step(&mut self, rng: &mut Rng, lr: f32) -> Loss {
        if self.window.is_empty() {
            return Loss::default();
        }
        let size = self.start.board_size();
        // (position, symmetry, at komi 0): the last drawn only with Config::komi_zero, so
        // that runs without it keep their streams.
        let zero = self.config.komi_zero;
        let batch: Vec<(usize, usize, bool)> = (0..self.config.batch)
            .map(|_| {
                let (i, t) = (rng.below(self.window.len()), rng.below(8));
                (i, t, zero > 0.0 && rng.unit() < zero)
            })
            .collect();
        let threads = self.config.threads.max(1);
        let chunk = (batch.len() + threads - 1) / threads;
        let net = &self.net;
        let window = &self.window;
        let (q_share, margin_share) = (self.config.q_share, self.config.margin_share);
        let (head, head_weight) = (&self.ownership, self.config.ownership);
        let score_weight = self.config.score;
        let points = size * size;
        type Part = (Vec<f32>, Vec<f32>, Loss);
        let parts: Vec<Part> = std::thread::scope(|scope| {
            let workers: Vec<_> = batch
                .chunks(chunk.max(1))
                .map(|part| {
                    scope.spawn(move || {
                        let shape = net.shape();
                        let mut act = Activations::new(shape);
                        let mut scratch = Scratch::new(net);
                        let mut grad = vec![0.0; net.params.len()];
                        let mut head_grad = vec![0.0; head.len()];
                        let mut target = vec![0.0; points];
                        let mut legal = vec![false; shape.outputs()];
                        let mut pi = vec![0.0; shape.outputs()];
                        let mut loss = Loss::default();
                        let mut planes = PlaneScratch::default();
                        for &(i, t, zero) in part {
                            let relabelled =
                                (zero && window[i].komi != 0).then(|| window[i].at_komi(0));
                            let sample = relabelled.as_ref().unwrap_or(&window[i]);
                            sample.planes::<G>(size, t, shape.planes, &mut planes, &mut act.input);
                            sample.targets(size, t, &mut legal, &mut pi);
                            let own = (!head.is_empty() && sample.ownership(size, t, &mut target))
                                .then(|| Ownership {
                                    params: head,
                                    target: &target,
                                    weight: head_weight,
                                    grad: &mut head_grad,
                                });
                            net.forward(&mut act);
                            let l = backward_with(
                                net,
                                &act,
                                &legal,
                                &pi,
                                sample.value_target(q_share, margin_share, points),
                                (score_weight > 0.0).then(|| ScoreTarget {
                                    margin: sample.score_target(points),
                                    weight: score_weight,
                                }),
                                own,
                                &mut scratch,
                                &mut grad,
                            );
                            loss.policy += l.policy;
                            loss.value += l.value;
                            loss.ownership += l.ownership;
                            loss.score += l.score;
                        }
                        (grad, head_grad, loss)
                    })
                })
                .collect();
            workers
                .into_iter()
                .map(|w| w.join().expect("a training thread panicked"))
                .collect()
        });
        let scale = 1.0 / batch.len() as f32;
        let mut grad = vec![0.0; self.net.params.len()];
        let mut head_grad = vec![0.0; self.ownership.len()];
        let mut loss = Loss::default();
        for (g, h, l) in &parts {
            for (a, b) in grad.iter_mut().zip(g) {
                *a += b;
            }
            for (a, b) in head_grad.iter_mut().zip(h) {
                *a += b;
            }
            loss.policy += l.policy * scale;
            loss.value += l.value * scale;
            loss.ownership += l.ownership * scale;
            loss.score += l.score * scale;
        }
        let c = &self.config;
        let params = self.net.params.iter_mut().chain(&mut self.ownership);
        let velocity = self.velocity.iter_mut().chain(&mut self.ownership_velocity);
        for ((w, v), g) in params.zip(velocity).zip(grad.iter().chain(&head_grad)) {
            *v = c.momentum * *v + g * scale + 2.0 * c.l2 * *w;
            *w -= lr * *v;
        }
        loss
    }
}
