//! Self-play: PUCT guided by the current network, Dirichlet noise at the root, visit counts
//! as the policy target and the game's outcome (mixed, if asked, with its final margin and
//! with the search's own value of the position) as the value target.

use super::{Config, ExactTargets, Komi};
use games::mcts::{FirstPlay, Settings, Signs, Tree};
use games::nn::{cells_of, planes_of, symmetry, Encode, Inference, Net, PLANES};
use games::rng::Rng;
use games::search::Game;
use std::cell::RefCell;

/// Games whose late positions an exact solver can score, for [`Config::exact_endgame`]
/// (Leela Chess Zero's tablebase rescoring): Othello, with the endgame solver. Tic-tac-toe
/// and Go keep the default, no solver.
pub trait Exact: Encode {
    /// The exact score of this unfinished position for the side to move, in
    /// [`Game::score`]'s units (what perfect play by both sides ends with), when it has at
    /// most `empties` empty points and the game has a solver; `None` otherwise.
    fn exact_score(&self, empties: u32) -> Option<i32> {
        let _ = empties;
        None
    }
}

impl Exact for games::tictactoe::Board {}

impl Exact for games::go::Position {}

thread_local! {
    /// Each self-play thread's endgame solver: 2^18 table entries (6 MiB), made when the
    /// thread first needs one. Its table carries over between solves, which changes the
    /// nodes searched, never a score.
    static SOLVER: RefCell<Option<games::endgame::Solver>> = const { RefCell::new(None) };
}

impl Exact for games::othello::Board {
    fn exact_score(&self, empties: u32) -> Option<i32> {
        if self.empties().count() > empties || self.score().is_some() {
            return None;
        }
        SOLVER.with(|solver| {
            let mut solver = solver.borrow_mut();
            let solver = solver.get_or_insert_with(|| games::endgame::Solver::new(18));
            Some(solver.solve(self).score)
        })
    }
}

/// Space [`Sample::planes`] reuses for a network with feature planes.
#[derive(Clone, Debug, Default)]
pub struct PlaneScratch {
    cells: Vec<u8>,
    extra: Vec<f32>,
}

/// One training position: what the network sees and what it should have said.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// Per point: 0 the side to move's stone, 1 the opponent's, 2 empty.
    pub cells: Vec<u8>,
    /// Per output (points, then the pass): whether the move was legal.
    pub legal: Vec<bool>,
    /// Per output: the share of the root's visits (0 where illegal).
    pub pi: Vec<f32>,
    /// The game's outcome for the side to move: +1, 0 or −1.
    pub z: i8,
    /// The search's value of the position for the side to move (the root's mean value,
    /// −1 to 1); files written before it was kept read it as `z`.
    pub q: f32,
    /// The game's final score for the side to move, as [`games::search::Game::score`]
    /// gives it: Othello's disc margin, a bare +1/0/−1 for games that score only the result
    /// (0 for a game stopped at the ply limit). Files written before it was kept read it as
    /// `z` times the board's points, a win by the whole board.
    pub margin: i16,
    /// Per point, who holds it when the game ends, seen from the side to move as `cells`
    /// codes it (0 the side to move, 1 the opponent, 2 nobody): the ownership head's
    /// target. (The final position's stones: for Othello the discs counted; for Go, stones
    /// without the territory.) Empty for files written before it was kept.
    pub owner: Vec<u8>,
    /// The komi the game was played at, added to the side to move's final score (see
    /// [`Config::komi`]); `z` and `margin` count it. 0 for files written before it was
    /// kept.
    pub komi: i8,
}

impl Sample {
    /// Writes the sample's input planes for a network with `count` planes (the stone
    /// planes, then `count - 3` of the game's features), seen through symmetry `t`, into
    /// `planes`; `scratch` is reused space.
    pub fn planes<G: Encode>(
        &self,
        size: usize,
        t: usize,
        count: usize,
        scratch: &mut PlaneScratch,
        planes: &mut [f32],
    ) {
        // The features move with the board, so the image's features are computed from the
        // image's stones.
        scratch.cells.resize(self.cells.len(), 2);
        for (p, &cell) in self.cells.iter().enumerate() {
            scratch.cells[symmetry(size, t, p)] = cell;
        }
        let komi = i32::from(self.komi);
        planes_of::<G>(
            size,
            &scratch.cells,
            komi,
            count,
            &mut scratch.extra,
            planes,
        );
    }

    /// The sample as its position would teach at komi `komi` for the side to move (the same
    /// final discs, so the margin moves by the difference of the komis and the outcome
    /// follows it) for the value and score heads only: the search's value `q` becomes the
    /// new outcome and no output is legal, so the policy learns nothing from it (its
    /// visits were searched at the game's komi, whose best moves may differ).
    pub fn at_komi(&self, komi: i8) -> Sample {
        let margin = self.margin - i16::from(self.komi) + i16::from(komi);
        let z = margin.signum() as i8;
        Sample {
            cells: self.cells.clone(),
            legal: vec![false; self.legal.len()],
            pi: vec![0.0; self.pi.len()],
            z,
            q: f32::from(z),
            margin,
            owner: self.owner.clone(),
            komi,
        }
    }

    /// The value target on a board of `points` points: `(1 − q_share) · r + q_share · q`,
    /// where the result `r = (1 − margin_share) · z + margin_share · margin / points`.
    /// Shares 0 are AlphaZero's outcome. Mixing in the search's value (as in Oracle's
    /// Connect Four study) gives the value head a less noisy label than one result per
    /// game, while z keeps it honest. Mixing in the margin (in the spirit of KataGo's score
    /// utility, without its score head) tells a win by 4 from a win by 2 while keeping
    /// every win above every draw and every draw above every loss for shares below 1.
    pub fn value_target(&self, q_share: f32, margin_share: f32, points: usize) -> f32 {
        let margin = self.score_target(points);
        let result = (1.0 - margin_share) * f32::from(self.z) + margin_share * margin;
        (1.0 - q_share) * result + q_share * self.q
    }

    /// The score head's target: the final margin over the board's `points`, clamped to
    /// −1..1 (the head's tanh range).
    pub fn score_target(&self, points: usize) -> f32 {
        (f32::from(self.margin) / points as f32).clamp(-1.0, 1.0)
    }

    /// The ownership target seen through symmetry `t` (+1 the side to move's, −1 the
    /// opponent's, 0 nobody's), into `target`; false (and `target` untouched) for a sample
    /// without one.
    pub fn ownership(&self, size: usize, t: usize, target: &mut [f32]) -> bool {
        if self.owner.is_empty() {
            return false;
        }
        for (p, &o) in self.owner.iter().enumerate() {
            target[symmetry(size, t, p)] = [1.0, -1.0, 0.0][usize::from(o.min(2))];
        }
        true
    }

    /// The legal mask and policy target seen through symmetry `t`.
    pub fn targets(&self, size: usize, t: usize, legal: &mut [bool], pi: &mut [f32]) {
        for (i, (&ok, &share)) in self.legal.iter().zip(&self.pi).enumerate() {
            let j = symmetry(size, t, i);
            legal[j] = ok;
            pi[j] = share;
        }
    }
}

/// A gamma-distributed number with shape `alpha` and scale 1 (Marsaglia and Tsang, with
/// the `U^(1/α)` boost for `α < 1`).
fn gamma(alpha: f64, rng: &mut Rng) -> f64 {
    if alpha < 1.0 {
        let boost = rng.unit().max(f64::MIN_POSITIVE).powf(1.0 / alpha);
        return gamma(alpha + 1.0, rng) * boost;
    }
    let d = alpha - 1.0 / 3.0;
    let c = 1.0 / (9.0 * d).sqrt();
    loop {
        let x = rng.normal();
        let v = (1.0 + c * x).powi(3);
        if v <= 0.0 {
            continue;
        }
        let u = rng.unit();
        if u.ln() < 0.5 * x * x + d - d * v + d * v.ln() {
            return d * v;
        }
    }
}

/// A draw from the symmetric Dirichlet distribution of `k` weights with parameter `alpha`.
pub fn dirichlet(alpha: f64, k: usize, rng: &mut Rng) -> Vec<f64> {
    let mut x: Vec<f64> = (0..k).map(|_| gamma(alpha, rng)).collect();
    let total: f64 = x.iter().sum();
    if total > 0.0 {
        x.iter_mut().for_each(|v| *v /= total);
    } else {
        x.fill(1.0 / k as f64);
    }
    x
}

/// A finished self-play game: its positions as samples and its result; what the replay
/// window and the games files take.
#[derive(Clone, Debug, PartialEq)]
pub struct Played {
    /// One sample per searched position (forced moves are not searched).
    pub samples: Vec<Sample>,
    /// The result for Black at the game's komi (+1, 0, −1; 0 also for a game stopped at
    /// the ply limit); in a game that [`Config::exact_endgame`] rescores, the result of
    /// perfect play from the first position the solver scored (with [`ExactTargets::All`];
    /// else the played one).
    pub black: i8,
    /// The game's komi for Black ([`Config::komi`]; 0 in games files written before it
    /// was kept).
    pub komi: i8,
    /// Simulations run by the game's searches, full and fast (network evaluations).
    pub evaluations: u64,
}

/// The komi of the game played from `seed`: an entry of `list` (none when it is empty),
/// each entry alike, so that one listed twice is drawn twice as often. From its own
/// stream (the seed mixed with "komi" in ASCII), so that the moves' stream is untouched.
fn drawn_komi(list: &[Komi], seed: u64) -> Option<Komi> {
    (!list.is_empty()).then(|| list[Rng::new(seed ^ 0x6b6f_6d69).below(list.len())])
}

/// Plays one game from `start` against itself with `net`, every random choice drawn from
/// `seed`.
///
/// With [`Config::fast_simulations`] set, this is KataGo's playout cap randomisation: each
/// searched move is a full search ([`Config::simulations`], root noise, kept as a sample)
/// with probability [`Config::full_share`], else a fast one (`fast_simulations`, no noise,
/// not kept): the game is played at the cost of the smaller search, while every policy
/// target comes from the larger one. With [`Config::loser_search`] set, a search (full or
/// fast) that ends with the side to move behind goes on for the extra simulations, and
/// with [`Config::late_search`] every search from its ply on does. With
/// [`Config::forced_playouts`] set, full searches force playouts at the root and the
/// target (and the move drawn from it) leaves them out.
///
/// With [`Config::exact_endgame`] set to `N` (Othello), the game is still played by the
/// search to its end, but its targets are rescored, as Leela Chess Zero rescores games
/// that reach its tablebases: the first position with at most `N` empty squares is solved,
/// and every earlier sample's outcome and margin become the result of perfect play from
/// there; every later sample's are its own position's exact score. The self-play slips of
/// the last `N` plies then teach nothing wrong about the positions before them. With
/// [`Config::exact_share`] below 1, a draw from `seed` that the moves never see decides
/// whether this game is rescored: the game itself is the same either way.
/// [`Config::exact_targets`] chooses which of its targets are rescored.
///
/// # Panics
///
/// If [`Config::score_utility`] is set and `net` has no score head.
pub fn play<G: Exact>(start: &G, net: &Net, config: &Config, seed: u64) -> Played {
    let mut rng = Rng::new(seed);
    // Whether to rescore: from its own stream (the seed mixed with "exact_sh" in ASCII),
    // so that the moves' stream is untouched.
    let rescore = config.exact_endgame > 0
        && (config.exact_share >= 1.0
            || Rng::new(seed ^ 0x6578_6163_745f_7368).unit() < config.exact_share);
    let komi = match drawn_komi(&config.komi, seed) {
        None => 0,
        Some(Komi::Fixed(k)) => k,
        Some(Komi::Fair) => fair_komi(start, net),
    };
    let mut inference = Inference::new(net);
    inference.set_komi(komi);
    if let Some((weight, scale)) = config.score_utility {
        inference.use_score(weight, scale);
    }
    let size = start.board_size();
    let n = size * size;
    let settings = Settings {
        iterations: config.simulations,
        c_puct: config.c_puct,
        signs: Signs::Negamax,
        first_play: FirstPlay::Zero,
        proofs: false,
        lcb: None,
    };
    let mut planes = vec![0.0; n * PLANES];
    let mut game = start.clone();
    let mut samples = Vec::new();
    let mut sides = Vec::new();
    // Per sample, its exact score for the side to move, once the solver scores positions.
    let mut exact = Vec::new();
    // The first solved position's side to move and exact score.
    let mut cut: Option<(games::Color, i32)> = None;
    let mut plies = 0;
    let mut evaluations = 0;
    let limit = 4 * n + 8;
    while game.score().is_none() && plies < limit {
        let solved = if rescore {
            let komi = inference.komi_for(game.side());
            game.exact_score(config.exact_endgame).map(|s| s + komi)
        } else {
            None
        };
        if let Some(score) = solved {
            cut.get_or_insert((game.side(), score));
        }
        let legal_moves = game.moves();
        let mv = if legal_moves.len() == 1 {
            legal_moves[0]
        } else {
            let full = config.fast_simulations == 0 || rng.unit() < config.full_share;
            let late = match config.late_search {
                Some((extra, from)) if plies >= from as usize => extra,
                _ => 0,
            };
            let simulations = late
                + if full {
                    config.simulations
                } else {
                    config.fast_simulations
                };
            let mut tree = Tree::start(&game, settings, &mut inference);
            if full {
                let noise = dirichlet(config.alpha, legal_moves.len(), &mut rng);
                tree.mix_root_priors(&noise, config.epsilon);
                tree.force_root_playouts(config.forced_playouts);
            }
            tree.grow(simulations, &mut inference);
            evaluations += u64::from(simulations);
            if let Some((extra, threshold)) = config.loser_search {
                if tree.root().q() < -threshold {
                    tree.grow(extra, &mut inference);
                    evaluations += u64::from(extra);
                }
            }
            // The visits, less the forced playouts' extra ones (none unless asked).
            let visits = tree.root_target();
            let total: u32 = visits.iter().sum();
            if full {
                // With the score utility the root's mean is the value plus a term centred
                // near 0 there; the value target takes it within the value's range.
                let q = tree.root().q().clamp(-1.0, 1.0) as f32;
                samples.push(sample_of(&game, &legal_moves, &visits, q, &mut planes));
                sides.push(game.side());
                exact.push(solved);
            }
            let pick = if plies < config.temperature_plies {
                let mut r = rng.below(total.max(1) as usize) as u32;
                visits
                    .iter()
                    .position(|&v| {
                        let hit = r < v;
                        r = r.saturating_sub(v);
                        hit
                    })
                    .unwrap_or(0)
            } else {
                // The most visited move, the first of equals.
                let best = visits.iter().copied().max().unwrap_or(0);
                visits.iter().position(|&v| v == best).unwrap_or(0)
            };
            legal_moves[pick]
        };
        plies += 1;
        game = game.after(mv).expect("a listed move is legal");
    }
    let last = sample_of(&game, &[], &[], 0.0, &mut planes).cells;
    // Scores within the board's points, and the komi.
    let most = n as i32 + komi.abs();
    let clamp = |score: i32| i16::try_from(score.clamp(-most, most)).unwrap_or(0);
    // A margin for `side` seen by Black, or one for Black seen by `side`.
    let flip = |side: games::Color, margin: i16| {
        if side == games::Color::Black {
            margin
        } else {
            -margin
        }
    };
    // Black's played margin, and its rescored one: the first solved position's (the
    // played one where no position was solved).
    let played = flip(
        game.side(),
        clamp(
            game.score()
                .map_or(0, |s| s + inference.komi_for(game.side())),
        ),
    );
    let black_margin = cut.map_or(played, |(side, score)| flip(side, clamp(score)));
    let targets = config.exact_targets;
    let black = if targets == ExactTargets::All {
        black_margin
    } else {
        played
    }
    .signum() as i8;
    let mover = game.side();
    for ((sample, side), exact) in samples.iter_mut().zip(sides).zip(exact) {
        let exact = exact.map_or(flip(side, black_margin), clamp);
        let played = flip(side, played);
        let (outcome, margin) = match targets {
            ExactTargets::All => (exact, exact),
            ExactTargets::Margins => (played, exact),
            ExactTargets::Losing if exact <= 0 => (exact, exact),
            ExactTargets::Losing => (played, played),
        };
        sample.z = outcome.signum() as i8;
        sample.margin = margin;
        // Trainer::new keeps the komi within the board's points and an i8.
        sample.komi = inference.komi_for(side).clamp(-127, 127) as i8;
        // `last` is seen from the side to move at the end: swap for the other side.
        let swap = u8::from(side != mover);
        sample.owner = last
            .iter()
            .map(|&c| if c < 2 { c ^ swap } else { 2 })
            .collect();
    }
    Played {
        samples,
        black,
        // Trainer::new keeps the komi within an i8.
        komi: komi.clamp(-127, 127) as i8,
        evaluations,
    }
}

/// [`Komi::Fair`] for games from `start` played by `net` (which has a score head): the
/// margin the head expects White to win by at komi 0, rounded to an even number, within
/// the board's points.
pub fn fair_komi<G: Encode>(start: &G, net: &Net) -> i32 {
    let mut probe = Inference::new(net);
    probe.policy_value(start, &start.moves());
    let white = match start.side() {
        games::Color::Black => -probe.score(),
        games::Color::White => probe.score(),
    };
    let points = start.board_size().pow(2) as f32;
    (2.0 * (white / 2.0).round()).clamp(-points, points) as i32
}

/// The sample of `game` searched to root `visits` over `legal_moves`, the root's mean value
/// `q` (z filled in when the game ends); `planes` is scratch space for the encoding.
fn sample_of<G: Encode>(
    game: &G,
    legal_moves: &[G::Move],
    visits: &[u32],
    q: f32,
    planes: &mut [f32],
) -> Sample {
    let n = planes.len() / PLANES;
    let total: u32 = visits.iter().sum();
    let mut sample = Sample {
        cells: vec![2; n],
        legal: vec![false; n + 1],
        pi: vec![0.0; n + 1],
        z: 0,
        q,
        margin: 0,
        owner: Vec::new(),
        komi: 0,
    };
    game.encode(planes);
    cells_of(planes, &mut sample.cells);
    for (&m, &v) in legal_moves.iter().zip(visits) {
        let i = game.move_index(m);
        sample.legal[i] = true;
        sample.pi[i] = v as f32 / total.max(1) as f32;
    }
    sample
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dirichlet_draws_sum_to_one_and_average_evenly() {
        let mut rng = Rng::new(3);
        let mut mean = [0.0; 4];
        for _ in 0..4000 {
            let x = dirichlet(0.3, 4, &mut rng);
            assert!((x.iter().sum::<f64>() - 1.0).abs() < 1e-9);
            for (m, v) in mean.iter_mut().zip(&x) {
                *m += v / 4000.0;
            }
        }
        // Each weight averages 1/4; with α = 0.3 its variance is (1/4)(3/4)/(1.2 + 1) ≈ 0.085.
        for m in mean {
            assert!((m - 0.25).abs() < 0.03, "{mean:?}");
        }
    }

    #[test]
    fn a_komi_listed_three_times_is_drawn_three_times_as_often() {
        // (the list, the share of 4000 games expected at komi 4)
        let four = Komi::Fixed(4);
        let zero = Komi::Fixed(0);
        let cases = [
            (vec![zero, four], 0.5),
            (vec![zero, zero, zero, four], 0.25),
            (vec![four, zero, zero, zero], 0.25),
            (vec![four], 1.0),
            (vec![zero], 0.0),
        ];
        for (list, share) in cases {
            let fours = (0..4000)
                .filter(|&seed| drawn_komi(&list, seed) == Some(four))
                .count();
            // 4000 draws: the binomial's standard deviation is at most 0.008.
            assert!(
                (fours as f64 / 4000.0 - share).abs() < 0.03,
                "{list:?}: {fours}"
            );
            assert_eq!(
                drawn_komi(&list, 7),
                drawn_komi(&list, 7),
                "one seed, one komi"
            );
        }
        assert_eq!(drawn_komi(&[], 7), None);
    }

    #[test]
    fn a_sample_at_another_komi_moves_its_margin_and_keeps_no_policy() {
        // (the side to move's komi, its margin counting it, the new komi, margin, outcome):
        // the discs are the margin less the komi, and stay.
        let cases: [(i8, i16, i8, i16, i8); 6] = [
            (4, 2, 0, -2, -1), // lost by 2 on the discs: a win at komi 4, a loss at 0
            (4, 4, 0, 0, 0),   // level on the discs: a draw at komi 0
            (-4, 0, 0, 4, 1),  // White giving 4: a draw with it is a win by 4 on the discs
            (-4, -6, 0, -2, -1),
            (0, 3, 4, 7, 1),
            (0, -4, 4, 0, 0),
        ];
        for (komi, margin, to, want_margin, want_z) in cases {
            let sample = Sample {
                cells: vec![0, 1, 2, 2],
                legal: vec![true, false, true, true, false],
                pi: vec![0.5, 0.0, 0.25, 0.25, 0.0],
                z: margin.signum() as i8,
                q: 0.3,
                margin,
                owner: vec![0, 1, 1, 0],
                komi,
            };
            let at = sample.at_komi(to);
            assert_eq!(
                (at.komi, at.margin, at.z, at.q),
                (to, want_margin, want_z, f32::from(want_z)),
                "komi {komi}, margin {margin}"
            );
            assert_eq!((&at.cells, &at.owner), (&sample.cells, &sample.owner));
            assert!(at.legal.iter().all(|&ok| !ok) && at.legal.len() == 5);
            assert!(at.pi.iter().all(|&p| p == 0.0) && at.pi.len() == 5);
        }
    }

    #[test]
    fn gamma_has_the_right_mean() {
        let mut rng = Rng::new(9);
        for alpha in [0.25, 1.0, 3.0] {
            let mean: f64 = (0..20_000).map(|_| gamma(alpha, &mut rng)).sum::<f64>() / 20_000.0;
            assert!(
                (mean - alpha).abs() < 0.05 * alpha.max(1.0),
                "alpha {alpha}: {mean}"
            );
        }
    }
}
