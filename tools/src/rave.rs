//! A Monte Carlo tree search for Go with RAVE and tactical priors, in the manner of michi
//! (Petr Baudiš's minimal engine, whose constants these are): what the engine plays with
//! `--evaluator rave`, with light or heavy playouts.
//!
//! Each node keeps, for the player who made its move: visits and wins of the playouts
//! through it; *prior* visits and wins, given when it is created (an even 10 visits at 50%;
//! captures, self-ataris, the distance to the last move, 3×3 shapes and the lines of an
//! empty area add won or lost visits); and *AMAF* visits and wins: every playout through its
//! parent in which its move's point was first played by that player counts, whenever it was
//! played (all moves as first). A child is chosen by
//!
//! `(1 − β) · (w + w₀) / (v + v₀) + β · w_amaf / v_amaf`, with
//! `β = v_amaf / (v_amaf + v + v₀ + (v + v₀) · v_amaf / 3500)`:
//!
//! early on the AMAF statistics, plentiful but biased, decide; the node's own take over as
//! its visits grow. No exploration term: the priors and AMAF explore. A leaf is expanded once
//! it has 8 visits; the tree never plays into the mover's own eye and passes as
//! [`Careful`] does. The engine grows one tree per thread and adds up the roots' visits, or
//! one tree with a walker per thread (`--tree-parallel`), and keeps its trees for the next
//! move ([`Rave::descend`]).

use crate::engine::{Careful, ChainMap};
use games::go::playout::{playout_heavy_recorded, playout_recorded};
use games::go::{Move, Point, Position};
use games::mcts::Evaluator;
use games::nn::{Inference, Net};
use games::rng::Rng;
use games::search::Game;
use games::Color;
use std::sync::Mutex;
use std::time::Instant;

/// β falls to a half when the node's visits reach about this many (michi's RAVE_EQUIV).
const RAVE_EQUIV: f64 = 3500.0;
/// Visits before a leaf is expanded.
const EXPAND_VISITS: u32 = 8;
/// Prior visits at 50% for every move.
const PRIOR_EVEN: f64 = 10.0;
/// Prior lost visits for a self-atari.
const PRIOR_SELF_ATARI: f64 = 10.0;
/// Prior won visits for capturing one stone, or more.
const PRIOR_CAPTURE_ONE: f64 = 15.0;
const PRIOR_CAPTURE_MANY: f64 = 30.0;
/// Prior won visits by distance (1, 2, 3) to the last move.
const PRIOR_NEAR_LAST: [f64; 3] = [24.0, 22.0, 8.0];
/// Prior visits (lost on the first two lines, won on the third) in an empty area.
const PRIOR_EMPTY_AREA: f64 = 10.0;
/// Prior won visits for a move that fits one of the 3×3 shapes ([`games::go::Board::fits_shape`]).
const PRIOR_SHAPE: f64 = 10.0;

/// A trained network's policy as prior visits (`--evaluator rave-net`), as AlphaGo's
/// policy network biased its tree while playouts still judged the leaves: when a node is
/// expanded every child gets `visits` more prior visits, won in proportion to its move's
/// probability over the most probable one's (the network's favourite: all won).
#[derive(Clone, Copy, Debug)]
pub struct NetPrior<'a> {
    /// The network (for the tree's board size).
    pub net: &'a Net,
    /// Prior visits per child.
    pub visits: f64,
}

#[derive(Clone, Debug)]
struct Node {
    mv: Move,
    visits: u32,
    wins: f64,
    prior_visits: f64,
    prior_wins: f64,
    amaf_visits: u32,
    amaf_wins: f64,
    children: std::ops::Range<u32>,
    expanded: bool,
}

impl Node {
    fn new(mv: Move, prior_visits: f64, prior_wins: f64) -> Node {
        Node {
            mv,
            visits: 0,
            wins: 0.0,
            prior_visits,
            prior_wins,
            amaf_visits: 0,
            amaf_wins: 0.0,
            children: 0..0,
            expanded: false,
        }
    }

    fn urgency(&self) -> f64 {
        let v = f64::from(self.visits) + self.prior_visits;
        let own = if v > 0.0 {
            (self.wins + self.prior_wins) / v
        } else {
            0.5
        };
        if self.amaf_visits == 0 {
            return own;
        }
        let av = f64::from(self.amaf_visits);
        let beta = av / (av + v + v * av / RAVE_EQUIV);
        beta * (self.amaf_wins / av) + (1.0 - beta) * own
    }
}

/// One search tree, grown by one or more walkers: one per thread, sharing the tree (tree
/// parallelism). A walker marks the nodes of its path as visited (a *virtual loss*: a visit
/// without a win until its playout is counted) so that the others try other lines.
pub struct Rave {
    tree: Tree,
    walkers: Vec<Walker>,
}

/// The nodes and what every walker needs to read them.
struct Tree {
    nodes: Vec<Node>,
    root: Careful,
    /// The last move played before the root, for the distance prior.
    last: Option<Point>,
}

/// One thread's playouts and scratch: the path of one iteration with the colour to move at
/// each of its nodes, the playout's stones, and per point the colour that first played
/// there (0 for none).
struct Walker {
    rng: Rng,
    /// Heavy playouts ([`playout_heavy_recorded`]) rather than light ones.
    heavy: bool,
    path: Vec<(u32, Color)>,
    played: Vec<(Color, Point)>,
    first: Vec<u8>,
}

impl Rave {
    /// A tree for `root`, whose last move was `last`, grown by `threads` walkers with
    /// seeds `seed`, `seed + 1`, ..., with heavy playouts when `heavy`, and the network's
    /// priors when `prior` is given.
    ///
    /// # Panics
    ///
    /// If `threads` is 0, or if `prior`'s network is for another board size.
    pub fn new(
        root: Careful,
        last: Option<Point>,
        seed: u64,
        heavy: bool,
        threads: usize,
        prior: Option<NetPrior>,
    ) -> Rave {
        assert!(threads > 0, "a tree needs a walker");
        let cells = {
            let board = root.position().board();
            board.points().map(|p| p.index() + 1).max().unwrap_or(0)
        };
        let mut tree = Tree {
            nodes: vec![Node::new(Move::Pass, 0.0, 0.0)],
            root,
            last,
        };
        let root = tree.root.clone();
        tree.expand(0, &root, last, prior);
        let walkers = (0..threads)
            .map(|i| Walker {
                rng: Rng::new(seed.wrapping_add(i as u64)),
                heavy,
                path: Vec::new(),
                played: Vec::new(),
                first: vec![0; cells],
            })
            .collect();
        Rave { tree, walkers }
    }

    /// The tree under the moves `moves` played from the root, re-rooted at `root` (the
    /// position they lead to, whose last move was `last`): what the last search learnt
    /// about the position now on the board. `None` when the tree never reached it. `prior`
    /// is the network for a new root's expansion, as in [`Rave::new`].
    ///
    /// # Complexity
    ///
    /// Linear in the size of the subtree kept.
    pub fn descend(
        self,
        moves: &[Move],
        root: Careful,
        last: Option<Point>,
        prior: Option<NetPrior>,
    ) -> Option<Rave> {
        let from = &self.tree.nodes;
        let mut n = 0;
        for &mv in moves {
            let node = &from[n];
            if !node.expanded {
                return None;
            }
            let children = node.children.start as usize..node.children.end as usize;
            n = children.into_iter().find(|&c| from[c].mv == mv)?;
        }
        // Copy the subtree breadth first, so that each node's children stay together.
        let mut nodes = vec![from[n].clone()];
        let mut old = vec![n];
        let mut i = 0;
        while i < nodes.len() {
            let range = from[old[i]].children.clone();
            let start = nodes.len() as u32;
            for c in range {
                nodes.push(from[c as usize].clone());
                old.push(c as usize);
            }
            nodes[i].children = start..nodes.len() as u32;
            i += 1;
        }
        let mut tree = Tree { nodes, root, last };
        if !tree.nodes[0].expanded {
            let root = tree.root.clone();
            tree.expand(0, &root, last, prior);
        }
        Some(Rave {
            tree,
            walkers: self.walkers,
        })
    }

    /// Playouts through the root so far.
    pub fn visits(&self) -> u32 {
        self.tree.nodes[0].visits
    }

    /// Runs about `iterations` more playouts, or until the deadline, with every walker on
    /// its own thread (one walker: on this one, and the same playouts for the same seed),
    /// with the network's priors on the nodes expanded when `prior` is given.
    pub fn grow(&mut self, iterations: u32, deadline: Option<Instant>, prior: Option<NetPrior>) {
        if self.tree.nodes[0].children.is_empty() {
            return;
        }
        let Rave { tree, walkers } = self;
        if let [walker] = walkers.as_mut_slice() {
            let mut done = 0;
            while done < iterations {
                let step = (iterations - done).min(64);
                for _ in 0..step {
                    tree.iterate(walker, prior);
                }
                done += step;
                if deadline.is_some_and(|d| Instant::now() >= d) {
                    break;
                }
            }
            return;
        }
        // Shared: the playouts run outside the lock, selection and backup inside it.
        let share = iterations / walkers.len() as u32 + 1;
        let shared = Mutex::new(tree);
        std::thread::scope(|scope| {
            for walker in walkers.iter_mut() {
                let shared = &shared;
                scope.spawn(move || {
                    let mut done = 0;
                    while done < share {
                        let (game, last) = lock(shared).walk(walker, prior);
                        let margin = walker.finish(game.position(), last);
                        lock(shared).back_up(walker, margin);
                        done += 1;
                        if done % 16 == 0 && deadline.is_some_and(|d| Instant::now() >= d) {
                            break;
                        }
                    }
                });
            }
        });
    }

    /// The root's children: (move, visits, wins) for the player to move at the root.
    pub fn children(&self) -> Vec<(Move, u32, f64)> {
        let nodes = &self.tree.nodes;
        let r = &nodes[0].children;
        nodes[r.start as usize..r.end as usize]
            .iter()
            .map(|c| (c.mv, c.visits, c.wins))
            .collect()
    }
}

/// The tree behind the lock; a walker that panicked holding it leaves it as sound as any
/// (every update is a few counters), so a poisoned lock is taken over.
fn lock<'a, 'b>(tree: &'a Mutex<&'b mut Tree>) -> std::sync::MutexGuard<'a, &'b mut Tree> {
    tree.lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl Tree {
    fn expand(&mut self, n: usize, game: &Careful, last: Option<Point>, prior: Option<NetPrior>) {
        let moves = game.moves();
        // The network's probabilities over `moves`, scaled so that its favourite has 1.
        let mut policy = Vec::new();
        if let Some(prior) = prior {
            // The network as MCTS's evaluator: its priors over `moves`, in their order.
            Inference::new(prior.net).evaluate(game.position(), &moves, &mut policy);
            let top = policy.iter().copied().fold(0.0, f64::max);
            for p in &mut policy {
                *p = if top > 0.0 { *p / top } else { 0.0 };
            }
        }
        let position = game.position();
        let board = position.board();
        let me = position.side_to_move();
        let chains = ChainMap::new(board);
        let (rows, cols) = (board.rows(), board.cols());
        let first = self.nodes.len() as u32;
        for (k, mv) in moves.into_iter().enumerate() {
            let (mut pv, mut pw) = (PRIOR_EVEN, PRIOR_EVEN / 2.0);
            if let (Some(prior), Some(&p)) = (prior, policy.get(k)) {
                pv += prior.visits;
                pw += prior.visits * p;
            }
            if let Move::Play(p) = mv {
                let t = chains.tactics(board, me, p);
                if t.captures == 1 {
                    pv += PRIOR_CAPTURE_ONE;
                    pw += PRIOR_CAPTURE_ONE;
                } else if t.captures > 1 {
                    pv += PRIOR_CAPTURE_MANY;
                    pw += PRIOR_CAPTURE_MANY;
                }
                if t.captures == 0 && t.liberties <= 1 {
                    pv += PRIOR_SELF_ATARI;
                }
                let (r, c) = board.coords(p);
                if let Some(l) = last {
                    let (lr, lc) = board.coords(l);
                    let d = r.abs_diff(lr) + c.abs_diff(lc);
                    if (1..=3).contains(&d) {
                        pv += PRIOR_NEAR_LAST[d - 1];
                        pw += PRIOR_NEAR_LAST[d - 1];
                    }
                }
                if board.fits_shape(p) {
                    pv += PRIOR_SHAPE;
                    pw += PRIOR_SHAPE;
                }
                if empty_area(board, r, c) {
                    let line = r.min(c).min(rows - 1 - r).min(cols - 1 - c);
                    if line <= 1 {
                        pv += PRIOR_EMPTY_AREA;
                    } else if line == 2 {
                        pv += PRIOR_EMPTY_AREA;
                        pw += PRIOR_EMPTY_AREA;
                    }
                }
            }
            self.nodes.push(Node::new(mv, pv, pw));
        }
        self.nodes[n].children = first..self.nodes.len() as u32;
        self.nodes[n].expanded = true;
    }

    fn select(&self, n: usize) -> usize {
        let mut best = (f64::NEG_INFINITY, 0);
        for i in self.nodes[n].children.clone() {
            let u = self.nodes[i as usize].urgency();
            if u > best.0 {
                best = (u, i as usize);
            }
        }
        best.1
    }

    /// One playout, on this thread: [`Tree::walk`], [`Walker::finish`], [`Tree::back_up`].
    fn iterate(&mut self, walker: &mut Walker, prior: Option<NetPrior>) {
        let (game, last) = self.walk(walker, prior);
        let margin = walker.finish(game.position(), last);
        self.back_up(walker, margin);
    }

    /// Walks down from the root to a leaf, expanding a leaf with enough visits, counting a
    /// visit on every node passed (the virtual loss), and noting the path and the first
    /// player of each point in `walker`. Returns the leaf's position and its last move.
    fn walk(&mut self, walker: &mut Walker, prior: Option<NetPrior>) -> (Careful, Option<Point>) {
        let mut game = self.root.clone();
        walker.path.clear();
        walker.first.fill(0);
        let mut n = 0;
        let mut last = self.last;
        loop {
            let mover = game.side();
            walker.path.push((n as u32, mover));
            if !self.nodes[n].expanded && self.nodes[n].visits + 1 >= EXPAND_VISITS {
                self.expand(n, &game, last, prior);
            }
            self.nodes[n].visits += 1;
            if !self.nodes[n].expanded || self.nodes[n].children.is_empty() {
                break;
            }
            let child = self.select(n);
            let mv = self.nodes[child].mv;
            if game.play(mv).is_err() {
                // Careful lists only legal moves; a refusal would be a bug, not an input.
                break;
            }
            match mv {
                Move::Play(p) => {
                    let i = p.index();
                    if walker.first[i] == 0 {
                        walker.first[i] = code(mover);
                    }
                    last = Some(p);
                }
                Move::Pass => last = None,
            }
            n = child;
        }
        (game, last)
    }

    /// Counts the playout of `walker`'s path, whose result is Black's `black_margin`: a
    /// node's wins are its mover's (the colour to move at its parent; its visit was counted
    /// on the way down), and a child's AMAF statistics count when its player was the first
    /// to play its point, in the tree or the playout.
    fn back_up(&mut self, walker: &Walker, black_margin: f64) {
        for k in 0..walker.path.len() {
            let (i, to_move) = walker.path[k];
            if k > 0 {
                let parent_to_move = walker.path[k - 1].1;
                self.nodes[i as usize].wins += win_for(parent_to_move, black_margin);
            }
            let win = win_for(to_move, black_margin);
            let mark = code(to_move);
            for c in self.nodes[i as usize].children.clone() {
                let child = &mut self.nodes[c as usize];
                if let Move::Play(p) = child.mv {
                    if walker.first[p.index()] == mark {
                        child.amaf_visits += 1;
                        child.amaf_wins += win;
                    }
                }
            }
        }
    }
}

impl Walker {
    /// Black's area margin (komi included) at the end of a playout from `position`, whose
    /// last move was `last`, with the playout's stones added to `first`.
    fn finish(&mut self, position: &Position, last: Option<Point>) -> f64 {
        if position.is_over() {
            return position.margin();
        }
        let mut board = position.board().clone();
        let cells = board.rows() * board.cols();
        let (color, limit) = (position.side_to_move(), 4 * cells + 16);
        if self.heavy {
            playout_heavy_recorded(
                &mut board,
                color,
                last,
                &mut self.rng,
                limit,
                &mut self.played,
            );
        } else {
            playout_recorded(&mut board, color, &mut self.rng, limit, &mut self.played);
        }
        for &(color, p) in &self.played {
            let i = p.index();
            if self.first[i] == 0 {
                self.first[i] = code(color);
            }
        }
        let (black, white) = board.area_score();
        black as f64 - white as f64 - position.komi()
    }
}

fn code(color: Color) -> u8 {
    match color {
        Color::Black => 1,
        Color::White => 2,
    }
}

/// 1 for a win of `color` given Black's margin, ½ for a tie, 0 for a loss.
fn win_for(color: Color, black_margin: f64) -> f64 {
    let margin = match color {
        Color::Black => black_margin,
        Color::White => -black_margin,
    };
    if margin > 0.0 {
        1.0
    } else if margin < 0.0 {
        0.0
    } else {
        0.5
    }
}

/// Whether no stone lies within Manhattan distance 3 of (r, c).
fn empty_area(board: &games::go::Board, r: usize, c: usize) -> bool {
    let (rows, cols) = (board.rows() as isize, board.cols() as isize);
    let (r, c) = (r as isize, c as isize);
    for dr in -3isize..=3 {
        for dc in -3isize..=3 {
            if dr.abs() + dc.abs() > 3 {
                continue;
            }
            let (nr, nc) = (r + dr, c + dc);
            if nr < 0 || nc < 0 || nr >= rows || nc >= cols {
                continue;
            }
            let p = board
                .point(nr as usize, nc as usize)
                .expect("inside the board");
            if board.at(p).is_some() {
                return false;
            }
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use games::go::{Board, KoRule};

    fn root() -> Careful {
        let board: Board = "
            . . . . . . .
            . . . . . . .
            . . X O . . .
            . . X O . . .
            . . . . . . .
            . . . . . . .
            . . . . . . ."
            .parse()
            .expect("a board");
        Careful::new(
            Position::new(board, KoRule::PositionalSuperko).with_komi(9.0),
            false,
        )
    }

    #[test]
    fn a_network_adds_its_policy_as_prior_visits_won_by_its_favourite() {
        let shape = games::nn::Shape {
            size: 7,
            planes: games::nn::PLANES,
            width: 8,
            blocks: 1,
            hidden: 8,
            value_channels: 1,
            score: false,
        };
        let net = Net::random(shape, 5).expect("a valid shape");
        let plain = Rave::new(root(), None, 7, false, 1, None);
        let prior = NetPrior {
            net: &net,
            visits: 20.0,
        };
        let guided = Rave::new(root(), None, 7, false, 1, Some(prior));
        // The policy, read here through the network's own inference.
        let game = root();
        let moves = game.moves();
        let mut inference = Inference::new(&net);
        let (p, _) = inference.policy_value(game.position(), &moves);
        let probs: Vec<f64> = moves
            .iter()
            .map(|&mv| {
                f64::from(p[<Position as games::nn::Encode>::move_index(game.position(), mv)])
            })
            .collect();
        let top = probs.iter().copied().fold(0.0, f64::max);
        let children = |t: &Rave| {
            t.tree.nodes[t.tree.nodes[0].children.clone().start as usize
                ..t.tree.nodes[0].children.end as usize]
                .to_vec()
        };
        let (a, b) = (children(&plain), children(&guided));
        assert_eq!(a.len(), moves.len());
        assert_eq!(b.len(), moves.len());
        let mut favourites = 0;
        for (k, (a, b)) in a.iter().zip(&b).enumerate() {
            assert_eq!(a.mv, b.mv);
            assert!((b.prior_visits - a.prior_visits - 20.0).abs() < 1e-9);
            let won = b.prior_wins - a.prior_wins;
            assert!((won - 20.0 * probs[k] / top).abs() < 1e-6, "{k}: {won}");
            favourites += usize::from((won - 20.0).abs() < 1e-6);
        }
        assert!(favourites >= 1);
        // And the tree grows with it, the same for the same seed.
        let grow = || {
            let mut t = Rave::new(root(), None, 7, false, 1, Some(prior));
            t.grow(500, None, Some(prior));
            t.children()
        };
        let once = grow();
        assert_eq!(once.iter().map(|c| c.1).sum::<u32>(), 500);
        assert_eq!(once, grow());
    }

    /// The most visited child of node `n`.
    fn best(tree: &Rave, n: usize) -> usize {
        let r = tree.tree.nodes[n].children.clone();
        (r.start as usize..r.end as usize)
            .max_by_key(|&c| tree.tree.nodes[c].visits)
            .expect("children")
    }

    /// Nodes in the subtree under `n`, itself included.
    fn size(tree: &Rave, n: usize) -> usize {
        let r = tree.tree.nodes[n].children.clone();
        1 + (r.start as usize..r.end as usize)
            .map(|c| size(tree, c))
            .sum::<usize>()
    }

    #[test]
    fn descending_keeps_the_subtree_of_the_line_played() {
        for heavy in [false, true] {
            let mut tree = Rave::new(root(), None, 7, heavy, 1, None);
            tree.grow(3000, None, None);
            assert_eq!(tree.visits(), 3000);
            let a = best(&tree, 0);
            let b = best(&tree, a);
            let line = [tree.tree.nodes[a].mv, tree.tree.nodes[b].mv];
            let (visits, nodes) = (tree.tree.nodes[b].visits, size(&tree, b));
            assert!(visits > 20, "{visits}");
            let mut game = root();
            for mv in line {
                game.play(mv).expect("legal");
            }
            let kept = tree
                .descend(&line, game.clone(), None, None)
                .expect("the line was grown");
            assert_eq!(kept.visits(), visits);
            assert_eq!(kept.tree.nodes.len(), nodes.max(1 + game.moves().len()));
            // The root's children are the moves of the position now, as a fresh tree has them.
            let fresh = Rave::new(game, None, 7, heavy, 1, None);
            let moves = |t: &Rave| t.children().iter().map(|c| c.0).collect::<Vec<_>>();
            assert_eq!(moves(&kept), moves(&fresh));
            let mut kept = kept;
            kept.grow(100, None, None);
            assert_eq!(kept.visits(), visits + 100);
        }
    }

    #[test]
    fn two_walkers_share_one_tree() {
        let mut tree = Rave::new(root(), None, 7, true, 2, None);
        tree.grow(2000, None, None);
        // Each walker runs its half and one more; every playout passed a root child.
        assert_eq!(tree.visits(), 2002);
        let through: u32 = tree.children().iter().map(|c| c.1).sum();
        assert_eq!(through, tree.visits());
        // Wins stay within visits everywhere.
        assert!(tree
            .tree
            .nodes
            .iter()
            .all(|n| n.wins <= f64::from(n.visits)));
        assert!(tree.tree.nodes.len() > 100, "{}", tree.tree.nodes.len());
    }

    #[test]
    fn a_line_the_tree_never_reached_is_not_kept() {
        let mut tree = Rave::new(root(), None, 7, false, 1, None);
        tree.grow(50, None, None);
        // Fifty playouts expand only the root's most visited children, not their children
        // with the pass of both sides below.
        let a = best(&tree, 0);
        let mv = tree.tree.nodes[a].mv;
        let mut game = root();
        for m in [mv, Move::Pass, Move::Pass] {
            game.play(m).expect("legal");
        }
        assert!(tree
            .descend(&[mv, Move::Pass, Move::Pass], game, None, None)
            .is_none());
        let fresh = Rave::new(root(), None, 7, false, 1, None);
        let same = fresh
            .descend(&[], root(), None, None)
            .expect("the root itself");
        assert_eq!(same.visits(), 0);
    }
}
