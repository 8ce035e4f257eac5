//! The seed's network as a leaf evaluator: for its own game, and for real 7×7 Go.

use crate::alphago::{Network, SeedGame, CELLS, SIDE};
use crate::go::{Move, Position};
use crate::mcts::Evaluator;

impl Evaluator<SeedGame> for Network {
    /// The policy's probability for each empty point, and the value head.
    fn evaluate(&mut self, game: &SeedGame, moves: &[usize], priors: &mut Vec<f64>) -> f64 {
        let (policy, value) = self.policy_value(&game.planes(), &game.empty_mask());
        priors.clear();
        priors.extend(moves.iter().map(|&k| policy[k]));
        value
    }
}

impl Evaluator<Position> for Network {
    /// The policy over the legal points and the value head, for 7×7 Go. The network has no
    /// output for passing: the pass gets an equal share, `1 / moves`, and the points share
    /// the rest in proportion to the policy.
    ///
    /// # Panics
    ///
    /// If the board is not 7×7.
    fn evaluate(&mut self, game: &Position, moves: &[Move], priors: &mut Vec<f64>) -> f64 {
        let board = game.board();
        assert!(
            board.rows() == SIDE && board.cols() == SIDE,
            "the network plays 7x7"
        );
        let me = game.side_to_move();
        let mut planes = [[0.0; 3]; CELLS];
        for (plane, p) in planes.iter_mut().zip(board.points()) {
            match board.at(p) {
                None => plane[2] = 1.0,
                Some(c) if c == me => plane[0] = 1.0,
                Some(_) => plane[1] = 1.0,
            }
        }
        let index = |p| {
            let (r, c) = board.coords(p);
            r * SIDE + c
        };
        let mut legal = [false; CELLS];
        for mv in moves {
            if let Move::Play(p) = mv {
                legal[index(*p)] = true;
            }
        }
        let (policy, value) = self.policy_value(&planes, &legal);
        let pass_share = 1.0 / moves.len() as f64;
        let points: f64 = (0..CELLS).filter(|&k| legal[k]).map(|k| policy[k]).sum();
        priors.clear();
        priors.extend(moves.iter().map(|mv| match mv {
            Move::Play(p) => policy[index(*p)] * (1.0 - pass_share) / points,
            Move::Pass => pass_share,
        }));
        value
    }
}
