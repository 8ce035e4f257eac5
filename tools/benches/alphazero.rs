//! The network's arithmetic at the sizes self-play uses: forward passes per second (what
//! MCTS calls) and forward + backward passes per second (what training does), one thread.
//!
//! ```text
//! cargo bench -p tools --bench alphazero
//! ```
//!
//! Also prints the multiply-adds of one forward pass counted from the shape (skipped zero
//! terms included), and the GFLOP/s they imply, to set against what a tensor crate on this
//! CPU could reach.

// A benchmark reports on stdout.
#![allow(clippy::print_stdout)]

use games::nn::{Activations, Net, Shape, PLANES};
use games::rng::Rng;
use std::time::Instant;
use tools::alphazero::{backward, Scratch};

/// Multiply-adds of one forward pass of `s`, every term counted.
fn macs(s: &Shape) -> u64 {
    let n = s.points() as u64;
    let w = s.width as u64;
    let trunk = 9 * n * (PLANES as u64) * w + 2 * (s.blocks as u64) * 9 * n * w * w;
    let heads = n * w * 3 + 2 * n * (n + 1) + n * s.hidden as u64 + s.hidden as u64;
    trunk + heads
}

fn main() {
    for (name, shape) in [
        (
            "tic-tac-toe 3x3, width 16, 1 block",
            Shape {
                size: 3,
                planes: PLANES,
                width: 16,
                blocks: 1,
                hidden: 32,
                value_channels: 1,
                score: false,
            },
        ),
        (
            "Othello 6x6, width 32, 2 blocks",
            Shape {
                size: 6,
                planes: PLANES,
                width: 32,
                blocks: 2,
                hidden: 64,
                value_channels: 1,
                score: false,
            },
        ),
        (
            "Othello 6x6, width 64, 2 blocks (weights/othello6.net's shape)",
            Shape {
                size: 6,
                planes: PLANES,
                width: 64,
                blocks: 2,
                hidden: 128,
                value_channels: 1,
                score: false,
            },
        ),
        (
            "Go 7x7, width 32, 2 blocks",
            Shape {
                size: 7,
                planes: PLANES,
                width: 32,
                blocks: 2,
                hidden: 64,
                value_channels: 1,
                score: false,
            },
        ),
    ] {
        let net = Net::random(shape, 1).expect("a valid shape");
        let mut rng = Rng::new(2);
        // Positions with about a third of the points of each kind, as in mid-game.
        let inputs: Vec<Vec<f32>> = (0..64)
            .map(|_| {
                let mut x = vec![0.0; shape.points() * PLANES];
                for cell in x.chunks_mut(PLANES) {
                    cell[rng.below(PLANES)] = 1.0;
                }
                x
            })
            .collect();
        let mut act = Activations::new(&shape);
        let rounds = 20_000 / shape.points();
        let clock = Instant::now();
        let mut sum = 0.0;
        for i in 0..rounds * 16 {
            act.input.copy_from_slice(&inputs[i % inputs.len()]);
            net.forward(&mut act);
            sum += act.value;
        }
        let forward = (rounds * 16) as f64 / clock.elapsed().as_secs_f64();
        let legal = vec![true; shape.outputs()];
        let pi = vec![1.0 / shape.outputs() as f32; shape.outputs()];
        let mut scratch = Scratch::new(&net);
        let mut grad = vec![0.0; net.params.len()];
        let clock = Instant::now();
        for i in 0..rounds * 4 {
            act.input.copy_from_slice(&inputs[i % inputs.len()]);
            net.forward(&mut act);
            backward(&net, &act, &legal, &pi, 0.0, &mut scratch, &mut grad);
        }
        let both = (rounds * 4) as f64 / clock.elapsed().as_secs_f64();
        let m = macs(&shape);
        println!(
            "{name}: {} parameters, {:.2} M multiply-adds per forward pass; forward {forward:.0}/s ({:.2} GFLOP/s), forward + backward {both:.0}/s (check {sum:.1})",
            net.params.len(),
            m as f64 / 1e6,
            2.0 * m as f64 * forward / 1e9,
        );
    }
}
