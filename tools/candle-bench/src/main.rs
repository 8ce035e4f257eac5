//! Our network (`games::nn`, `tools::alphazero::backward`) against the same network built
//! in candle, at the sizes self-play trains: 6×6 Othello and 7×7 Go, width 32, 2 residual
//! blocks, value head 64. One thread each (run with `RAYON_NUM_THREADS=1`).
//!
//! Measured, in positions per second:
//! - forward, one position at a time (what MCTS asks for, leaf by leaf);
//! - forward over a batch of 128 (what batched inference could do);
//! - a training step over a minibatch of 128 (forward, policy cross-entropy + value MSE,
//!   backward; ours accumulates the gradient position by position, as az_train does).
//!
//! The two networks have the same layers (3×3 convolutions with biases and ReLU, two per
//! residual block, 1×1 convolution heads, dense layers, tanh value) and so the same
//! arithmetic; their weights are random, which does not change the time.

use candle_core::{DType, Device, Module, Tensor, D};
use candle_nn::{conv2d, linear, Conv2d, Conv2dConfig, Linear, Optimizer, VarBuilder, VarMap};
use games::nn::{Activations, Net, Shape, PLANES};
use games::rng::Rng;
use std::time::Instant;
use tools::alphazero::{backward, Scratch};

const BATCH: usize = 128;

/// The network of `games::nn::Net`, in candle.
struct CandleNet {
    stem: Conv2d,
    blocks: Vec<(Conv2d, Conv2d)>,
    policy_conv: Conv2d,
    policy_dense: Linear,
    value_conv: Conv2d,
    value_hidden: Linear,
    value_out: Linear,
}

impl CandleNet {
    fn new(s: &Shape, vb: &VarBuilder) -> candle_core::Result<CandleNet> {
        let pad = Conv2dConfig {
            padding: 1,
            ..Conv2dConfig::default()
        };
        let n = s.points();
        let blocks = (0..s.blocks)
            .map(|b| {
                Ok((
                    conv2d(s.width, s.width, 3, pad, vb.pp(format!("b{b}a")))?,
                    conv2d(s.width, s.width, 3, pad, vb.pp(format!("b{b}b")))?,
                ))
            })
            .collect::<candle_core::Result<Vec<_>>>()?;
        Ok(CandleNet {
            stem: conv2d(s.planes, s.width, 3, pad, vb.pp("stem"))?,
            blocks,
            policy_conv: conv2d(s.width, 2, 1, Conv2dConfig::default(), vb.pp("pc"))?,
            policy_dense: linear(2 * n, n + 1, vb.pp("pd"))?,
            value_conv: conv2d(s.width, 1, 1, Conv2dConfig::default(), vb.pp("vc"))?,
            value_hidden: linear(n, s.hidden, vb.pp("vh"))?,
            value_out: linear(s.hidden, 1, vb.pp("vo"))?,
        })
    }

    /// Logits `[batch, points + 1]` and values `[batch, 1]` of `x` (`[batch, planes, size, size]`).
    fn forward(&self, x: &Tensor) -> candle_core::Result<(Tensor, Tensor)> {
        let mut h = self.stem.forward(x)?.relu()?;
        for (a, b) in &self.blocks {
            let inner = a.forward(&h)?.relu()?;
            h = (b.forward(&inner)? + &h)?.relu()?;
        }
        let p = self.policy_conv.forward(&h)?.relu()?.flatten_from(1)?;
        let logits = self.policy_dense.forward(&p)?;
        let v = self.value_conv.forward(&h)?.relu()?.flatten_from(1)?;
        let v = self.value_hidden.forward(&v)?.relu()?;
        let value = self.value_out.forward(&v)?.tanh()?;
        Ok((logits, value))
    }
}

/// Positions per second of `f` run `rounds` times over `per_round` positions.
fn rate(rounds: usize, per_round: usize, mut f: impl FnMut(usize)) -> f64 {
    f(0); // warm up
    let clock = Instant::now();
    for i in 0..rounds {
        f(i);
    }
    (rounds * per_round) as f64 / clock.elapsed().as_secs_f64()
}

fn main() -> candle_core::Result<()> {
    let device = Device::Cpu;
    println!(
        "one thread each; positions per second (higher is better); RAYON_NUM_THREADS={}",
        std::env::var("RAYON_NUM_THREADS").unwrap_or_else(|_| "unset".into())
    );
    println!("| network | implementation | forward, 1 at a time | forward, batch {BATCH} | training step, batch {BATCH} |");
    println!("|---|---|---:|---:|---:|");
    for (name, size) in [("Othello 6x6", 6), ("Go 7x7", 7)] {
        let shape = Shape {
            size,
            planes: PLANES,
            width: 32,
            blocks: 2,
            hidden: 64,
            value_channels: 1,
            score: false,
        };
        let n = shape.points();
        let mut rng = Rng::new(2);
        // Inputs with one plane set per point, as positions have.
        let inputs: Vec<Vec<f32>> = (0..BATCH)
            .map(|_| {
                let mut x = vec![0.0; n * PLANES];
                for cell in x.chunks_mut(PLANES) {
                    cell[rng.below(PLANES)] = 1.0;
                }
                x
            })
            .collect();
        let pi = vec![1.0 / (n + 1) as f32; n + 1];
        let legal = vec![true; n + 1];

        // Ours.
        let net = Net::random(shape, 1).expect("a valid shape");
        let mut act = Activations::new(&shape);
        let ours_one = rate(4000, 1, |i| {
            act.input.copy_from_slice(&inputs[i % BATCH]);
            net.forward(&mut act);
        });
        let mut scratch = Scratch::new(&net);
        let mut grad = vec![0.0; net.params.len()];
        let ours_train = rate(8, BATCH, |_| {
            grad.fill(0.0);
            for x in &inputs {
                act.input.copy_from_slice(x);
                net.forward(&mut act);
                backward(&net, &act, &legal, &pi, 0.0, &mut scratch, &mut grad);
            }
        });
        println!(
            "| {name} | ours (games::nn, hand-written backward) | {ours_one:.0} | {:.0} (1 at a time) | {ours_train:.0} |",
            ours_one
        );

        // candle: the same layers, inputs as NCHW.
        let varmap = VarMap::new();
        let vb = VarBuilder::from_varmap(&varmap, DType::F32, &device);
        let cnet = CandleNet::new(&shape, &vb)?;
        let nchw = |x: &[f32]| -> Vec<f32> {
            let mut out = vec![0.0; x.len()];
            for p in 0..n {
                for c in 0..PLANES {
                    out[c * n + p] = x[p * PLANES + c];
                }
            }
            out
        };
        let singles: Vec<Tensor> = inputs
            .iter()
            .map(|x| Tensor::from_vec(nchw(x), (1, PLANES, size, size), &device))
            .collect::<candle_core::Result<_>>()?;
        let flat: Vec<f32> = inputs.iter().flat_map(|x| nchw(x)).collect();
        let batch = Tensor::from_vec(flat, (BATCH, PLANES, size, size), &device)?;
        let mut failure = None;
        let candle_one = rate(2000, 1, |i| {
            if let Err(e) = cnet.forward(&singles[i % BATCH]) {
                failure = Some(e);
            }
        });
        let candle_batch = rate(40, BATCH, |_| {
            if let Err(e) = cnet.forward(&batch) {
                failure = Some(e);
            }
        });
        let targets = Tensor::from_vec(pi.repeat(BATCH), (BATCH, n + 1), &device)?;
        let z = Tensor::zeros((BATCH, 1), DType::F32, &device)?;
        let mut sgd = candle_nn::SGD::new(varmap.all_vars(), 0.01)?;
        let mut step = || -> candle_core::Result<()> {
            let (logits, value) = cnet.forward(&batch)?;
            let log_p = candle_nn::ops::log_softmax(&logits, D::Minus1)?;
            let policy = (targets.mul(&log_p)?.sum_all()?.neg()? / BATCH as f64)?;
            let value = value.sub(&z)?.sqr()?.mean_all()?;
            sgd.backward_step(&(policy + value)?)
        };
        let candle_train = rate(8, BATCH, |_| {
            if let Err(e) = step() {
                failure = Some(e);
            }
        });
        if let Some(e) = failure {
            return Err(e);
        }
        println!(
            "| {name} | candle-core 0.9 (CPU) | {candle_one:.0} | {candle_batch:.0} | {candle_train:.0} |"
        );
        println!(
            "| {name} | ratio candle / ours | {:.2} | {:.2} | {:.2} |",
            candle_one / ours_one,
            candle_batch / ours_one,
            candle_train / ours_train
        );
    }
    Ok(())
}
