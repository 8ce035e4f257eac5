//! Monte Carlo tree search with PUCT (AlphaGo's selection rule), generic over
//! [`Game`], with pluggable leaf evaluation: a network's priors and value, or random
//! playouts with uniform priors.
//!
//! One iteration, as seed 004 does it: **select** from the root down to a leaf, at each node
//! the child with the highest `Q + c · P · √N / (1 + n)` (`N` the node's visits, `n`, `P`
//! the child's visits and prior; ties go to the first child in move order); **expand** the
//! leaf unless the game is over there, giving each child its prior; **evaluate** the leaf:
//! the evaluator's value, or the value of a finished game (the sign of its score, +1, 0,
//! −1, unless the evaluator values finished games too: [`Evaluator::terminal`]); **back up**:
//! every node on the path gains a visit and the value, its sign flipping at each level.
//! The root is expanded first and starts with one visit; the move played is the most
//! visited child of the root (or, with [`Settings::lcb`], the one whose value is highest
//! at a lower confidence bound). An unvisited child's `Q` is 0 (a draw) unless
//! [`Settings::first_play`] asks for first-play urgency ([`FirstPlay::Reduced`]).
//!
//! **Signs.** A node's total value is kept from the point of view of the player to move
//! *at that node*. Choosing among children, the player at the parent must therefore use
//! `Q = −(child total / child visits)`: what the child is worth to *them*. That is
//! [`Signs::Negamax`], the default. Seed 004 uses the child's total as it stands, so every
//! choice favours the opponent's best replies; [`Signs::Seed`] keeps that, only to reproduce
//! the seed's output.

use crate::rng::Rng;
use crate::search::Game;

// The seed's network as an evaluator (for its game and for 7×7 Go).
mod network;

/// How a parent reads its children's values; see the module docs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Signs {
    /// The parent uses minus the child's value (correct).
    Negamax,
    /// The parent uses the child's value as stored (seed 004, only to reproduce its output).
    Seed,
}

impl Signs {
    /// The factor a parent applies to a child's mean value to read it as its own.
    fn parent_sign(self) -> f64 {
        match self {
            Signs::Negamax => -1.0,
            Signs::Seed => 1.0,
        }
    }
}

/// Search settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    /// Iterations after the root's expansion.
    pub iterations: u32,
    /// The PUCT exploration constant `c`.
    pub c_puct: f64,
    /// How parents read children's values.
    pub signs: Signs,
    /// The value a parent gives a child it has not visited yet.
    pub first_play: FirstPlay,
    /// Proofs in the tree (MCTS-Solver, Winands et al. 2008, with score bounds as in
    /// Cazenave and Saffidine's score-bounded MCTS): every node keeps bounds on its exact
    /// score, finished games' scores at the leaves and negamax above, so that selection
    /// skips a child proven unable to beat what its parent already has, a solved node is a
    /// leaf worth its exact score, the values backed up are kept within what is proved, the
    /// search stops once the root is solved, and [`Tree::best_move`] never plays a move
    /// proven worse than another (a win by 2 where a win by 4 is proven). Off (`false`):
    /// the plain search, as seed 004.
    pub proofs: bool,
    /// How [`Tree::best_move`] chooses among the root's children: `None` (as seed 004 and
    /// AlphaZero), the most visited; `Some`, by a lower confidence bound on each one's
    /// value ([`Lcb`]).
    pub lcb: Option<Lcb>,
}

/// The move to play by a lower confidence bound on its value, as Leela Zero and KataGo
/// choose it: a move the search valued higher than the most visited one, but visited less
/// because its value showed late, is played when it was visited enough for its mean to be
/// trusted. Each candidate's bound is its mean value for the player choosing minus
/// `stdevs` standard errors of that mean (the spread of the values backed up through it
/// over √visits); the candidates are the moves with at least 2 visits and at least
/// `min_share` of the most visited one's (which is always one).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Lcb {
    /// How many standard errors below its mean a move's bound lies (KataGo: 5).
    pub stdevs: f64,
    /// The share of the most visited move's visits a candidate needs (KataGo: 0.15).
    pub min_share: f64,
}

impl Lcb {
    /// The candidate with the highest bound (the first of equals), given each move's
    /// visits, mean value and mean squared value for the player choosing, in move order;
    /// `None` when no move has been visited. With no other candidate, the most visited
    /// move (the first of equals).
    pub fn choose(self, moves: &[(u32, f64, f64)]) -> Option<usize> {
        let most = moves.iter().map(|m| m.0).max().filter(|&n| n > 0)?;
        let most_visited = moves.iter().position(|m| m.0 == most)?;
        let mut best = (f64::NEG_INFINITY, most_visited);
        for (i, &(visits, mean, squares)) in moves.iter().enumerate() {
            if visits < 2 || f64::from(visits) < self.min_share * f64::from(most) {
                continue;
            }
            let n = f64::from(visits);
            let variance = (squares - mean * mean).max(0.0) * n / (n - 1.0);
            let bound = mean - self.stdevs * (variance / n).sqrt();
            if bound > best.0 {
                best = (bound, i);
            }
        }
        Some(best.1)
    }
}

/// First-play urgency: the `Q` of an unvisited child in the selection rule.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum FirstPlay {
    /// 0, a draw (seed 004 and AlphaZero's pseudocode).
    Zero,
    /// The parent's own mean value minus `r · √(sum of the visited children's priors)`
    /// (Leela Zero's reduction): a move not yet tried is assumed a little worse than the
    /// position, more so the more of the policy's mass has already been looked at. With
    /// [`Signs::Seed`] it reads the parent's value with the seed's sign, as it reads `Q`.
    Reduced(f64),
}

impl Default for Settings {
    /// Seed 004's search: 500 iterations, `c = 2`, with the correct signs.
    fn default() -> Settings {
        Settings {
            iterations: 500,
            c_puct: 2.0,
            signs: Signs::Negamax,
            first_play: FirstPlay::Zero,
            proofs: false,
            lcb: None,
        }
    }
}

/// Leaf evaluation: priors for the moves of a position and its value for the side to move.
pub trait Evaluator<G: Game> {
    /// Fills `priors` (cleared first) with one probability per move of `moves`, in order,
    /// and returns the value of `game` for its side to move, in `[-1, 1]`.
    fn evaluate(&mut self, game: &G, moves: &[G::Move], priors: &mut Vec<f64>) -> f64;

    /// The value of `game` for its side to move if the game is over there (`None` while it
    /// goes on): [`Evaluator::exact`] of its score.
    fn terminal(&mut self, game: &G) -> Option<f64> {
        game.score().map(|score| self.exact(game, score))
    }

    /// The value for its side to move of `game`, whose exact score (final, or proved by
    /// [`Settings::proofs`]) is `score`: by default the sign, +1, 0 or −1. An evaluator
    /// whose values carry more than the result (a score utility) adds the same to it.
    fn exact(&mut self, game: &G, score: i32) -> f64 {
        let _ = game;
        f64::from(score.signum())
    }

    /// Called by [`Tree::start`] before anything is evaluated: a search is starting from
    /// `root`. An evaluator whose values depend on the root (a score utility centred on the
    /// margin expected there) sets itself up here; by default nothing happens. A caller
    /// that grows a kept tree from a new root calls it itself.
    fn root(&mut self, root: &G) {
        let _ = root;
    }
}

/// PUCT's exploration term for a child of prior `prior` and `visits` visits under a parent
/// of √N = `sqrt_n`, in the seed's order of operations: c · P · √N / (1 + n).
fn exploration(c: f64, prior: f64, sqrt_n: f64, visits: u32) -> f64 {
    c * prior * sqrt_n / (1.0 + f64::from(visits))
}

/// A finished game's value for the side to move: the sign of its score.
fn terminal_value<G: Game>(game: &G) -> Option<f64> {
    game.score().map(|s| f64::from(s.signum()))
}

/// Uniform priors and the result of one random playout: uniformly random moves until the
/// game ends, or a game-specific rollout (light playouts for Go).
pub struct Playouts<G: Game> {
    rng: Rng,
    rollout: fn(&G, &mut Rng) -> f64,
}

impl<G: Game> Playouts<G> {
    /// Playouts of uniformly random legal moves, seeded with `seed`.
    pub fn new(seed: u64) -> Playouts<G> {
        Playouts {
            rng: Rng::new(seed),
            rollout: random_rollout::<G>,
        }
    }

    /// Playouts by `rollout`, which returns a position's result for its side to move.
    pub fn with_rollout(seed: u64, rollout: fn(&G, &mut Rng) -> f64) -> Playouts<G> {
        Playouts {
            rng: Rng::new(seed),
            rollout,
        }
    }
}

/// The result, for the side to move in `game`, of uniformly random moves to the end.
pub fn random_rollout<G: Game>(game: &G, rng: &mut Rng) -> f64 {
    let mut position = game.clone();
    let mut flips = 1.0;
    loop {
        if let Some(value) = terminal_value(&position) {
            return flips * value;
        }
        let moves = position.moves();
        let mv = moves[rng.below(moves.len())];
        position = position.after(mv).expect("a listed move is legal");
        flips = -flips;
    }
}

impl<G: Game> Evaluator<G> for Playouts<G> {
    fn evaluate(&mut self, game: &G, moves: &[G::Move], priors: &mut Vec<f64>) -> f64 {
        priors.clear();
        priors.resize(moves.len(), 1.0 / moves.len() as f64);
        (self.rollout)(game, &mut self.rng)
    }
}

/// A node of the search tree. Children are stored together in the tree's arena.
#[derive(Clone, Debug)]
pub struct Node<G: Game> {
    /// The position, made when the node is first reached.
    state: Option<G>,
    /// The move that led here (`None` at the root).
    pub mv: Option<G::Move>,
    /// The prior probability of that move.
    pub prior: f64,
    /// Visits.
    pub visits: u32,
    /// Sum of the values backed up through this node, for the player to move here.
    pub total: f64,
    /// Sum of the squares of those values, for their spread ([`Settings::lcb`]).
    pub squares: f64,
    /// Bounds on the exact score of this node's position for the player to move here
    /// ([`Game::score`]'s scale), with [`Settings::proofs`]; `(-UNKNOWN, UNKNOWN)` until
    /// something is proved, equal once the node is solved.
    pub bounds: (i32, i32),
    /// Once the node is solved ([`Node::proved`]), its value for the player to move here:
    /// the evaluator's [`Evaluator::exact`] of the proved score, on the scale of `total`.
    pub exact: f64,
    children: std::ops::Range<u32>,
}

/// The bound of a score nothing is known about (any real score lies within).
pub const UNKNOWN: i32 = i32::MAX;

impl<G: Game> Node<G> {
    /// Mean value for the player to move at this node (0 before any visit).
    pub fn q(&self) -> f64 {
        self.total / f64::from(self.visits.max(1))
    }

    /// The exact score for the player to move here, once [`Settings::proofs`] proved it.
    pub fn proved(&self) -> Option<i32> {
        (self.bounds.0 == self.bounds.1).then_some(self.bounds.0)
    }

    /// A new, unvisited node.
    fn fresh(state: Option<G>, mv: Option<G::Move>, prior: f64) -> Node<G> {
        Node {
            state,
            mv,
            prior,
            visits: 0,
            total: 0.0,
            squares: 0.0,
            bounds: (-UNKNOWN, UNKNOWN),
            exact: 0.0,
            children: 0..0,
        }
    }
}

/// A search tree: the nodes in one arena, the root first.
pub struct Tree<G: Game> {
    nodes: Vec<Node<G>>,
    settings: Settings,
    priors: Vec<f64>,
    path: Vec<u32>,
    /// KataGo's forced playouts at the root: the `k` of [`Tree::force_root_playouts`]
    /// (0: none).
    forced: f64,
}

impl<G: Game> Tree<G> {
    /// Searches from `root` with `settings`, evaluating leaves with `evaluator`.
    ///
    /// # Complexity
    ///
    /// One evaluation per iteration; the arena grows by the moves of each expanded node.
    pub fn search(root: &G, settings: Settings, evaluator: &mut impl Evaluator<G>) -> Tree<G> {
        let mut tree = Tree::start(root, settings, evaluator);
        tree.grow(settings.iterations, evaluator);
        tree
    }

    /// A tree with only the root, expanded (unless the game is over there); grow it with
    /// [`Tree::grow`]. `settings.iterations` is not used: the caller decides how long to
    /// search, for example until a clock runs out.
    pub fn start(root: &G, settings: Settings, evaluator: &mut impl Evaluator<G>) -> Tree<G> {
        evaluator.root(root);
        let mut root_node = Node::fresh(Some(root.clone()), None, 0.0);
        root_node.visits = 1;
        if settings.proofs {
            if let Some(score) = root.score() {
                root_node.bounds = (score, score);
            }
        }
        let mut tree = Tree {
            nodes: vec![root_node],
            settings,
            priors: Vec::new(),
            path: Vec::new(),
            forced: 0.0,
        };
        if terminal_value(root).is_none() {
            tree.expand(0, evaluator);
        }
        tree
    }

    /// Runs `iterations` more iterations (none once the root's game is over, or with
    /// [`Settings::proofs`] once the root is solved).
    pub fn grow(&mut self, iterations: u32, evaluator: &mut impl Evaluator<G>) {
        if self.nodes[0].children.is_empty() {
            return;
        }
        for _ in 0..iterations {
            if self.settings.proofs && self.nodes[0].proved().is_some() {
                return;
            }
            self.iterate(evaluator);
        }
    }

    /// Mixes `noise` (one weight per root child, in move order) into the root's priors:
    /// `P ← (1 − ε) · P + ε · noise`, AlphaZero's exploration at the root of self-play.
    ///
    /// # Panics
    ///
    /// If `noise` does not have one weight per child.
    pub fn mix_root_priors(&mut self, noise: &[f64], epsilon: f64) {
        let r = self.nodes[0].children.clone();
        assert_eq!(noise.len(), r.len(), "one noise weight per root child");
        for (child, &x) in self.nodes[r.start as usize..r.end as usize]
            .iter_mut()
            .zip(noise)
        {
            child.prior = (1.0 - epsilon) * child.prior + epsilon * x;
        }
    }

    /// KataGo's forced playouts (Wu 2019, "Accelerating Self-Play Learning in Go", 3.1):
    /// from now on, a root child that has been visited but has fewer than
    /// `√(k · P · n)` visits (`P` its prior, noise included, `n` the root's children's
    /// visits together) is searched next, whatever PUCT says (the first such child in move
    /// order). A move that root noise lifted gets enough visits to show what it is worth,
    /// instead of one that its bad first value ends. `k` = 0 turns it off; KataGo uses 2.
    /// The visits this adds are taken out of the policy target by [`Tree::root_target`].
    pub fn force_root_playouts(&mut self, k: f64) {
        self.forced = k.max(0.0);
    }

    /// The root's visits per child (move order) as a policy target: [`Tree::children`]'s
    /// visits, less KataGo's policy target pruning when [`Tree::force_root_playouts`] is on.
    /// From every child but the most visited (the first of equals), up to `⌊√(k · P · n)⌋`
    /// visits are taken away, as long as its PUCT score at the final visit counts stays
    /// below the most visited child's (so that the visits PUCT alone would have given it
    /// stay); a child cut down to one visit is dropped. The most visited child keeps all
    /// its visits, so the move played is the same.
    pub fn root_target(&self) -> Vec<u32> {
        let children = self.children();
        let mut visits: Vec<u32> = children.iter().map(|c| c.visits).collect();
        if self.forced <= 0.0 {
            return visits;
        }
        let total: f64 = visits.iter().map(|&v| f64::from(v)).sum();
        let most = visits.iter().copied().max().unwrap_or(0);
        let Some(best) = visits.iter().position(|&v| v == most) else {
            return visits;
        };
        let sqrt_n = f64::from(self.nodes[0].visits).sqrt();
        let c = self.settings.c_puct;
        let sign = self.settings.signs.parent_sign();
        let puct =
            |child: &Node<G>, n: u32| sign * child.q() + exploration(c, child.prior, sqrt_n, n);
        let bar = puct(&children[best], most);
        for (i, child) in children.iter().enumerate() {
            let n = visits[i];
            if i == best || n == 0 {
                continue;
            }
            let forced = self.forced_visits(child.prior, total).floor() as u32;
            let floor = n.saturating_sub(forced);
            let mut kept = n;
            while kept > floor && puct(child, kept - 1) < bar {
                kept -= 1;
            }
            visits[i] = if kept == 1 && kept < n { 0 } else { kept };
        }
        visits
    }

    /// The root.
    pub fn root(&self) -> &Node<G> {
        &self.nodes[0]
    }

    /// The root's children, in move order.
    pub fn children(&self) -> &[Node<G>] {
        let r = &self.nodes[0].children;
        &self.nodes[r.start as usize..r.end as usize]
    }

    /// The most visited child's move (the first of equals), or `None` if the game is over.
    /// With [`Settings::lcb`], the child [`Lcb::choose`] picks instead.
    ///
    /// With [`Settings::proofs`], first what is proved: a move proved at least as good as
    /// every other could be, if there is one; never a move proved worse than another. Among
    /// the rest, the search stops visiting a move once it is proved, so visits cannot
    /// compare it with the moves still open: the best proved move is played when its exact
    /// value ([`Node::exact`]) is at least the mean value of the most visited open move,
    /// and that open move otherwise.
    pub fn best_move(&self) -> Option<G::Move> {
        let children = self.children();
        let sign = self.settings.signs.parent_sign();
        // The move to play among the children `allowed`: the most visited (the first of
        // equals, the first allowed if none was visited), or the one Lcb chooses.
        let most_visited = |allowed: &dyn Fn(usize) -> bool| {
            if let Some(lcb) = self.settings.lcb {
                let stats: Vec<(u32, f64, f64)> = children
                    .iter()
                    .enumerate()
                    .map(|(i, c)| {
                        let n = f64::from(c.visits.max(1));
                        let visits = if allowed(i) { c.visits } else { 0 };
                        (visits, sign * c.total / n, c.squares / n)
                    })
                    .collect();
                if let Some(i) = lcb.choose(&stats) {
                    return Some(&children[i]);
                }
            }
            let mut best: Option<&Node<G>> = None;
            for (i, child) in children.iter().enumerate() {
                if allowed(i) && best.map_or(true, |b| child.visits > b.visits) {
                    best = Some(child);
                }
            }
            best
        };
        if !self.settings.proofs {
            return most_visited(&|_| true).and_then(|b| b.mv);
        }
        // A child's bounds for the player choosing here: minus its own, swapped.
        let low = |c: &Node<G>| -c.bounds.1;
        let high = |c: &Node<G>| -c.bounds.0;
        let floor = children.iter().map(low).max().unwrap_or(-UNKNOWN);
        let proved_best = children.iter().enumerate().find(|&(i, c)| {
            children
                .iter()
                .enumerate()
                .all(|(j, d)| j == i || high(d) <= low(c))
        });
        if let Some((_, c)) = proved_best {
            return c.mv;
        }
        let open = most_visited(&|i| children[i].proved().is_none() && high(&children[i]) >= floor);
        let proved = children
            .iter()
            .filter(|c| c.proved().is_some() && high(c) >= floor)
            .max_by_key(|c| low(c));
        let pick = match (proved, open) {
            (Some(p), Some(o)) if -p.exact < -o.q() => o,
            (Some(p), _) => p,
            (None, Some(o)) => o,
            (None, None) => return None,
        };
        pick.mv
    }

    /// The subtree under the node that `moves` lead to from the root, as a tree of its own
    /// that the search can go on growing: the visits and values found below that node are
    /// kept, as AlphaGo Zero keeps them from one move to the next. `None` when a move is
    /// not a child of the node before it, or the node it reaches was never expanded (then
    /// there is nothing to keep: start afresh).
    ///
    /// # Complexity
    ///
    /// Linear in the nodes kept (their positions are cloned).
    pub fn descend(&self, moves: &[G::Move]) -> Option<Tree<G>> {
        let mut at = 0;
        for &mv in moves {
            let r = self.nodes[at].children.clone();
            at = (r.start..r.end).find(|&i| self.nodes[i as usize].mv == Some(mv))? as usize;
        }
        if self.nodes[at].children.is_empty() || self.nodes[at].state.is_none() {
            return None;
        }
        // Breadth first, so that each node's children stay together in the new arena.
        let mut root = self.nodes[at].clone();
        root.mv = None;
        root.prior = 0.0;
        let mut nodes = vec![root];
        let mut queue = std::collections::VecDeque::from([(at, 0)]);
        while let Some((old, new)) = queue.pop_front() {
            let r = self.nodes[old].children.clone();
            let first = nodes.len() as u32;
            for i in r.clone() {
                queue.push_back((i as usize, nodes.len()));
                nodes.push(self.nodes[i as usize].clone());
            }
            nodes[new].children = first..first + (r.end - r.start);
        }
        Some(Tree {
            nodes,
            settings: self.settings,
            priors: Vec::new(),
            path: Vec::new(),
            forced: self.forced,
        })
    }

    /// Expands node `n`; returns the evaluator's value of its position.
    fn expand(&mut self, n: usize, evaluator: &mut impl Evaluator<G>) -> f64 {
        let state = self.nodes[n]
            .state
            .as_ref()
            .expect("an expanded node has its position");
        let moves = state.moves();
        let value = evaluator.evaluate(state, &moves, &mut self.priors);
        let first = self.nodes.len() as u32;
        for (mv, &prior) in moves.iter().zip(&self.priors) {
            self.nodes.push(Node::fresh(None, Some(*mv), prior));
        }
        self.nodes[n].children = first..self.nodes.len() as u32;
        value
    }

    /// The visits forced playouts give a tried root child: √(k · P · N), N the root's
    /// children's visits together.
    fn forced_visits(&self, prior: f64, total: f64) -> f64 {
        (self.forced * prior * total).sqrt()
    }

    /// The child of `n` that PUCT selects: the first with the highest score.
    fn select(&self, n: usize) -> usize {
        let node = &self.nodes[n];
        if n == 0 && self.forced > 0.0 {
            let children = &self.nodes[node.children.start as usize..node.children.end as usize];
            let total: f64 = children.iter().map(|c| f64::from(c.visits)).sum();
            if let Some(i) = children.iter().position(|c| {
                c.visits > 0 && f64::from(c.visits) < self.forced_visits(c.prior, total)
            }) {
                return node.children.start as usize + i;
            }
        }
        let sqrt_n = f64::from(node.visits).sqrt();
        let c = self.settings.c_puct;
        let sign = self.settings.signs.parent_sign();
        let unvisited = match self.settings.first_play {
            FirstPlay::Zero => 0.0,
            FirstPlay::Reduced(r) => {
                let seen: f64 = self.nodes
                    [node.children.start as usize..node.children.end as usize]
                    .iter()
                    .filter(|child| child.visits > 0)
                    .map(|child| child.prior)
                    .sum();
                -sign * node.q() - r * seen.sqrt()
            }
        };
        let mut best = (f64::NEG_INFINITY, 0);
        for i in node.children.clone() {
            let child = &self.nodes[i as usize];
            // With proofs, a child whose best for the player here (minus its lower bound)
            // cannot beat what the node already has proved is not searched again.
            if self.settings.proofs && -child.bounds.0 <= node.bounds.0 {
                continue;
            }
            let q = if child.visits == 0 {
                unvisited
            } else {
                sign * child.q()
            };
            // The seed's order: U (see `exploration`), then Q + U.
            let score = q + exploration(c, child.prior, sqrt_n, child.visits);
            if score > best.0 {
                best = (score, i as usize);
            }
        }
        // Every child closed (the node is solved): any will do; the first.
        if best.0 == f64::NEG_INFINITY {
            return node.children.start as usize;
        }
        best.1
    }

    fn iterate(&mut self, evaluator: &mut impl Evaluator<G>) {
        self.path.clear();
        let mut n = 0;
        self.path.push(0);
        // With proofs, a solved node is a leaf: its exact score is its value.
        let solved = |node: &Node<G>| {
            if self.settings.proofs {
                node.proved()
            } else {
                None
            }
        };
        while !self.nodes[n].children.is_empty() && solved(&self.nodes[n]).is_none() {
            let child = self.select(n);
            if self.nodes[child].state.is_none() {
                let mv = self.nodes[child].mv.expect("a child has a move");
                let parent = self.nodes[n]
                    .state
                    .as_ref()
                    .expect("a parent has its position");
                self.nodes[child].state = Some(parent.after(mv).expect("a listed move is legal"));
            }
            n = child;
            self.path.push(n as u32);
        }
        let state = self.nodes[n]
            .state
            .as_ref()
            .expect("a reached node has its position");
        let mut value = if let Some(score) = solved(&self.nodes[n]) {
            evaluator.exact(state, score)
        } else {
            let finished = if self.settings.proofs {
                state.score()
            } else {
                None
            };
            let value = match evaluator.terminal(state) {
                Some(v) => v,
                None => self.expand(n, evaluator),
            };
            if let Some(score) = finished {
                self.nodes[n].bounds = (score, score);
            }
            value
        };
        if self.settings.proofs {
            for k in (0..self.path.len().saturating_sub(1)).rev() {
                self.tighten(self.path[k] as usize);
            }
        }
        for &i in self.path.iter().rev() {
            let node = &mut self.nodes[i as usize];
            if self.settings.proofs {
                // A value outside what is proved of the node is brought within it: a node
                // proved to win by 2 or more is worth at least a win by 2, whatever the
                // siblings of the child that proved it (searched since) bring back.
                let state = node
                    .state
                    .as_ref()
                    .expect("a node on the path has its position");
                let (low, high) = node.bounds;
                if low > -UNKNOWN {
                    value = value.max(evaluator.exact(state, low));
                }
                if high < UNKNOWN {
                    value = value.min(evaluator.exact(state, high));
                }
                if low == high {
                    node.exact = value;
                }
            }
            node.visits += 1;
            node.total += value;
            node.squares += value * value;
            value = -value;
        }
    }

    /// Negamax over node `n`'s children's bounds: `n` is worth at least the best a child
    /// is proved to give, and at most the best a child could give.
    fn tighten(&mut self, n: usize) {
        let (mut low, mut high) = (-UNKNOWN, -UNKNOWN);
        for child in
            &self.nodes[self.nodes[n].children.start as usize..self.nodes[n].children.end as usize]
        {
            low = low.max(-child.bounds.1);
            high = high.max(-child.bounds.0);
        }
        self.nodes[n].bounds = (low, high);
    }
}
