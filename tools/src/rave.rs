//! A Monte Carlo tree search for Go with RAVE and tactical priors, in the manner of michi
//! (Petr Baudiš's minimal engine, whose constants these are): what the engine plays with
//! `--search rave`.
//!
//! Each node keeps, for the player who made its move: visits and wins of the playouts
//! through it; *prior* visits and wins, given when it is created (an even 10 visits at 50%;
//! captures, self-ataris, the distance to the last move and the lines of an empty area add
//! won or lost visits); and *AMAF* visits and wins: every playout through its parent in
//! which its move's point was first played by that player counts, whenever it was played
//! (all moves as first). A child is chosen by
//!
//! `(1 − β) · (w + w₀) / (v + v₀) + β · w_amaf / v_amaf`, with
//! `β = v_amaf / (v_amaf + v + v₀ + (v + v₀) · v_amaf / 3500)`:
//!
//! early on the AMAF statistics, plentiful but biased, decide; the node's own take over as
//! its visits grow. No exploration term: the priors and AMAF explore. A leaf is expanded once
//! it has 8 visits; the tree never plays into the mover's own eye and passes as
//! [`Careful`] does. One tree per thread; the engine adds up the roots' visits.

use crate::engine::{Careful, ChainMap};
use games::go::playout::playout_recorded;
use games::go::{Move, Point, Position};
use games::rng::Rng;
use games::search::Game;
use games::Color;
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

/// One search tree.
pub struct Rave {
    nodes: Vec<Node>,
    root: Careful,
    rng: Rng,
    /// The last move played before the root, for the distance prior.
    last: Option<Point>,
    /// Scratch: the path of one iteration, the colour to move at each of its nodes, the
    /// playout's stones, and per point the colour that first played there (0 for none).
    path: Vec<(u32, Color)>,
    played: Vec<(Color, Point)>,
    first: Vec<u8>,
}

impl Rave {
    /// A tree for `root`, whose last move was `last`; playouts seeded with `seed`.
    pub fn new(root: Careful, last: Option<Point>, seed: u64) -> Rave {
        let cells = {
            let board = root.position().board();
            board.points().map(|p| p.index() + 1).max().unwrap_or(0)
        };
        let mut tree = Rave {
            nodes: vec![Node::new(Move::Pass, 0.0, 0.0)],
            root,
            rng: Rng::new(seed),
            last,
            path: Vec::new(),
            played: Vec::new(),
            first: vec![0; cells],
        };
        let root = tree.root.clone();
        tree.expand(0, &root, last);
        tree
    }

    /// Runs iterations until `iterations` or the deadline.
    pub fn grow(&mut self, iterations: u32, deadline: Option<Instant>) {
        if self.nodes[0].children.is_empty() {
            return;
        }
        let mut done = 0;
        while done < iterations {
            let step = (iterations - done).min(64);
            for _ in 0..step {
                self.iterate();
            }
            done += step;
            if deadline.is_some_and(|d| Instant::now() >= d) {
                break;
            }
        }
    }

    /// The root's children: (move, visits, wins) for the player to move at the root.
    pub fn children(&self) -> Vec<(Move, u32, f64)> {
        let r = &self.nodes[0].children;
        self.nodes[r.start as usize..r.end as usize]
            .iter()
            .map(|c| (c.mv, c.visits, c.wins))
            .collect()
    }

    fn expand(&mut self, n: usize, game: &Careful, last: Option<Point>) {
        let moves = game.moves();
        let position = game.position();
        let board = position.board();
        let me = position.side_to_move();
        let chains = ChainMap::new(board);
        let (rows, cols) = (board.rows(), board.cols());
        let first = self.nodes.len() as u32;
        for mv in moves {
            let (mut pv, mut pw) = (PRIOR_EVEN, PRIOR_EVEN / 2.0);
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

    fn iterate(&mut self) {
        let mut game = self.root.clone();
        self.path.clear();
        self.first.fill(0);
        let mut n = 0;
        let mut last = self.last;
        loop {
            let mover = game.side();
            self.path.push((n as u32, mover));
            if !self.nodes[n].expanded {
                if self.nodes[n].visits + 1 < EXPAND_VISITS {
                    break;
                }
                self.expand(n, &game, last);
            }
            if self.nodes[n].children.is_empty() {
                break;
            }
            let child = self.select(n);
            let mv = self.nodes[child].mv;
            if game.play(mv).is_err() {
                // Careful lists only legal moves; a refusal would be a bug, not an input.
                break;
            }
            if let Move::Play(p) = mv {
                let i = p.index();
                if self.first[i] == 0 {
                    self.first[i] = code(mover);
                }
                last = Some(p);
            }
            n = child;
        }
        let black_margin = self.finish(game.position());
        // Back up: a node's wins are its mover's (the colour to move at its parent).
        for k in 0..self.path.len() {
            let (i, to_move) = self.path[k];
            let win = win_for(to_move, black_margin);
            if k > 0 {
                let parent_to_move = self.path[k - 1].1;
                let node = &mut self.nodes[i as usize];
                node.visits += 1;
                node.wins += win_for(parent_to_move, black_margin);
            } else {
                self.nodes[0].visits += 1;
            }
            // All moves as first: the children of this node whose point its mover played first.
            let mark = code(to_move);
            for c in self.nodes[i as usize].children.clone() {
                let child = &mut self.nodes[c as usize];
                if let Move::Play(p) = child.mv {
                    if self.first[p.index()] == mark {
                        child.amaf_visits += 1;
                        child.amaf_wins += win;
                    }
                }
            }
        }
    }

    /// Black's area margin (komi included) at the end of a playout from `position`, with the
    /// playout's stones added to `first`.
    fn finish(&mut self, position: &Position) -> f64 {
        if position.is_over() {
            return position.margin();
        }
        let mut board = position.board().clone();
        let cells = board.rows() * board.cols();
        playout_recorded(
            &mut board,
            position.side_to_move(),
            &mut self.rng,
            4 * cells + 16,
            &mut self.played,
        );
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
