//! The backward pass of [`games::nn::Net`], written by hand: the gradient of one position's
//! loss with respect to every parameter, from the activations its forward pass left.
//!
//! The loss of a position is AlphaZero's without the L2 term (the optimiser adds that):
//! `−Σ π_i log p_i` over the legal moves (`p` the softmax of the logits over the legal
//! moves, `π` the search's visit shares) plus `(v − z)²` (`v` the value head, `z` the
//! game's outcome for the side to move). `tests::gradients_match_finite_differences` checks
//! every parameter's gradient against the loss itself.
//!
//! [`backward_with`] adds, if asked, KataGo's ownership target: a head that exists only in
//! training ([`Ownership`]) and asks the trunk, at every point, who owns it when the game
//! ends — many labels per position where the value has one, all of them about the features
//! the value needs (Othello's stable discs, Go's safe groups); and, for a network with a
//! score head, that head's squared error against the final margin ([`ScoreTarget`]).

use games::nn::{conv3x3, masked_softmax, window, Activations, ConvLists, Layer, Net};

/// The two parts of a position's loss.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Loss {
    /// Policy cross-entropy.
    pub policy: f32,
    /// Value squared error.
    pub value: f32,
    /// Ownership squared error, the mean over the points (0 without the head), unweighted.
    pub ownership: f32,
    /// Score head squared error, in (margin over the points)² (0 without a target),
    /// unweighted.
    pub score: f32,
}

/// The score head's target: `weight · (s − margin)²` joins the loss, `s` the head's output
/// and `margin` the final margin over the board's points for the side to move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ScoreTarget {
    /// The final margin over the board's points, −1 to 1.
    pub margin: f32,
    /// The weight of the head's loss in the total.
    pub weight: f32,
}

/// The ownership head, in training only: a 1×1 convolution of the trunk's last output to
/// one number per point, then tanh, against the point's owner when the game ended (+1 the
/// side to move, −1 the opponent, 0 nobody). Its loss is `weight · mean over points of
/// (tanh(o) − owner)²`. The search never calls it, so it is not part of [`Net`] or of the
/// weights file; the trainer keeps its parameters beside the network.
#[derive(Debug)]
pub struct Ownership<'a> {
    /// The head's parameters: one weight per trunk channel, then the bias.
    pub params: &'a [f32],
    /// Per point, the owner at the game's end seen from the side to move: 1, −1 or 0.
    pub target: &'a [f32],
    /// The weight of the head's loss in the total.
    pub weight: f32,
    /// The head's gradient is added here, laid out as `params`.
    pub grad: &'a mut [f32],
}

/// Parameters of an ownership head on a trunk of `width` channels.
pub const fn ownership_params(width: usize) -> usize {
    width + 1
}

/// The ownership head's outputs (after tanh) for the trunk's last output `h`
/// (`[point][channel]`), into `out`.
fn ownership_forward(h: &[f32], params: &[f32], out: &mut [f32]) {
    let width = params.len() - 1;
    for (o, x) in out.iter_mut().zip(h.chunks_exact(width)) {
        let sum: f32 = x.iter().zip(params).map(|(x, w)| x * w).sum();
        *o = (sum + params[width]).tanh();
    }
}

/// Scratch space for [`backward`]: per-layer gradients of the activations.
#[derive(Clone, Debug)]
pub struct Scratch {
    probs: Vec<f32>,
    g_logits: Vec<f32>,
    g_policy_features: Vec<f32>,
    g_value_features: Vec<f32>,
    g_hidden: Vec<f32>,
    g_trunk: Vec<f32>,
    g_inner: Vec<f32>,
    g_pre: Vec<f32>,
    owned: Vec<f32>,
    conv: ConvScratch,
}

impl Scratch {
    /// Buffers for `net`.
    pub fn new(net: &Net) -> Scratch {
        let s = net.shape();
        let n = s.points();
        Scratch {
            probs: vec![0.0; n + 1],
            g_logits: vec![0.0; n + 1],
            g_policy_features: vec![0.0; 2 * n],
            g_value_features: vec![0.0; n * s.value_channels],
            g_hidden: vec![0.0; s.hidden],
            g_trunk: vec![0.0; n * s.width],
            g_inner: vec![0.0; n * s.width],
            g_pre: vec![0.0; n * s.width],
            owned: vec![0.0; n],
            conv: ConvScratch::default(),
        }
    }
}

/// The loss of the position whose forward pass left `act`, for targets `pi` (over all
/// outputs, 0 where illegal) and `z`; adds its gradient to `grad` (laid out as
/// `net.params`). A position with no legal output teaches no policy: its policy loss and
/// gradient are 0 ([`super::Sample::at_komi`]).
pub fn backward(
    net: &Net,
    act: &Activations,
    legal: &[bool],
    pi: &[f32],
    z: f32,
    scratch: &mut Scratch,
    grad: &mut [f32],
) -> Loss {
    backward_with(net, act, legal, pi, z, None, None, scratch, grad)
}

/// [`backward`], with the loss and gradient of the score head if the network has one and a
/// target is given, and of an [`Ownership`] head if one is given.
// The operands of backward and one more: grouping them would only rename them.
#[allow(clippy::too_many_arguments)]
pub fn backward_with(
    net: &Net,
    act: &Activations,
    legal: &[bool],
    pi: &[f32],
    z: f32,
    score: Option<ScoreTarget>,
    ownership: Option<Ownership<'_>>,
    scratch: &mut Scratch,
    grad: &mut [f32],
) -> Loss {
    let shape = net.shape();
    let (n, size) = (shape.points(), shape.size);
    let p = &net.params;
    let l = net.layout();
    let s = scratch;

    // Policy: d(cross-entropy)/d(logit) = p − π on the legal moves.
    masked_softmax(&act.logits, legal, &mut s.probs);
    let mut policy_loss = 0.0;
    for i in 0..=n {
        s.g_logits[i] = if legal[i] { s.probs[i] - pi[i] } else { 0.0 };
        if pi[i] > 0.0 {
            policy_loss -= pi[i] * s.probs[i].max(1e-30).ln();
        }
    }
    // Value: d((v − z)²)/d(pre-tanh) = 2 (v − z) (1 − v²).
    let v = act.value;
    let value_loss = (v - z) * (v - z);
    let mut g_value = [2.0 * (v - z) * (1.0 - v * v), 0.0];
    // Score: d(weight · (s − m)²)/d(pre-tanh) = weight · 2 (s − m) (1 − s²).
    let mut score_loss = 0.0;
    if let (true, Some(t)) = (shape.score, score) {
        let s = act.score;
        score_loss = (s - t.margin) * (s - t.margin);
        g_value[1] = t.weight * 2.0 * (s - t.margin) * (1.0 - s * s);
    }
    let g_value = &g_value[..l.value_out.outputs];

    s.g_trunk.fill(0.0);
    dense_back(
        &act.policy_features,
        p,
        &l.policy_dense,
        &s.g_logits,
        grad,
        Some(&mut s.g_policy_features),
    );
    relu_back(&act.policy_features, &mut s.g_policy_features);
    let h = &act.trunk[shape.blocks];
    points_back(
        h,
        p,
        &l.policy_conv,
        n,
        &s.g_policy_features,
        grad,
        &mut s.g_trunk,
    );

    dense_back(
        &act.hidden,
        p,
        &l.value_out,
        g_value,
        grad,
        Some(&mut s.g_hidden),
    );
    relu_back(&act.hidden, &mut s.g_hidden);
    dense_back(
        &act.value_features,
        p,
        &l.value_hidden,
        &s.g_hidden,
        grad,
        Some(&mut s.g_value_features),
    );
    relu_back(&act.value_features, &mut s.g_value_features);
    points_back(
        h,
        p,
        &l.value_conv,
        n,
        &s.g_value_features,
        grad,
        &mut s.g_trunk,
    );
    let mut ownership_loss = 0.0;
    if let Some(own) = ownership {
        // A 1×1 convolution to one channel, its parameters in a slice of their own.
        let head = Layer {
            w: 0,
            b: shape.width,
            inputs: shape.width,
            outputs: 1,
        };
        ownership_forward(h, own.params, &mut s.owned);
        for (y, &t) in s.owned.iter_mut().zip(own.target) {
            let e = *y - t;
            ownership_loss += e * e / n as f32;
            // d(weight · e² / n)/d(pre-tanh), in place of the output.
            *y = own.weight * 2.0 * e * (1.0 - *y * *y) / n as f32;
        }
        points_back(h, own.params, &head, n, &s.owned, own.grad, &mut s.g_trunk);
    }

    for b in (0..shape.blocks).rev() {
        // trunk[b + 1] = relu(trunk[b] + conv2(relu(conv1(trunk[b])))).
        s.g_pre.copy_from_slice(&s.g_trunk);
        relu_back(&act.trunk[b + 1], &mut s.g_pre);
        // The skip passes g_pre straight to trunk[b]; the convolutions add theirs.
        s.g_trunk.copy_from_slice(&s.g_pre);
        s.g_inner.fill(0.0);
        conv_back(
            &act.inner[b],
            p,
            &l.blocks[b][1],
            size,
            &s.g_pre,
            grad,
            Some(&mut s.g_inner),
            &mut s.conv,
        );
        relu_back(&act.inner[b], &mut s.g_inner);
        conv_back(
            &act.trunk[b],
            p,
            &l.blocks[b][0],
            size,
            &s.g_inner,
            grad,
            Some(&mut s.g_trunk),
            &mut s.conv,
        );
    }
    s.g_pre.copy_from_slice(&s.g_trunk);
    relu_back(&act.trunk[0], &mut s.g_pre);
    conv_back(
        &act.input,
        p,
        &l.stem,
        size,
        &s.g_pre,
        grad,
        None,
        &mut s.conv,
    );

    Loss {
        policy: policy_loss,
        value: value_loss,
        ownership: ownership_loss,
        score: score_loss,
    }
}

/// Zeroes the gradient where the layer's output was clipped by ReLU.
fn relu_back(out: &[f32], g: &mut [f32]) {
    for (g, &o) in g.iter_mut().zip(out) {
        if o <= 0.0 {
            *g = 0.0;
        }
    }
}

/// Backward of `out = b + x · W`: adds to the weight and bias gradients, and (if asked)
/// *sets* `g_in` to `W · g_out`.
fn dense_back(
    x: &[f32],
    p: &[f32],
    layer: &Layer,
    g_out: &[f32],
    grad: &mut [f32],
    g_in: Option<&mut [f32]>,
) {
    let cout = layer.outputs;
    for (gb, g) in grad[layer.b..layer.b + cout].iter_mut().zip(g_out) {
        *gb += g;
    }
    for (i, &xv) in x.iter().enumerate() {
        if xv == 0.0 {
            continue;
        }
        let gw = &mut grad[layer.w + i * cout..][..cout];
        for (gw, g) in gw.iter_mut().zip(g_out) {
            *gw += xv * g;
        }
    }
    if let Some(g_in) = g_in {
        for (i, gi) in g_in.iter_mut().enumerate() {
            let w = &p[layer.w + i * cout..][..cout];
            *gi = w.iter().zip(g_out).map(|(w, g)| w * g).sum();
        }
    }
}

/// Backward of a 1×1 convolution over `n` points; *adds* the input gradient to `g_in`.
fn points_back(
    x: &[f32],
    p: &[f32],
    layer: &Layer,
    n: usize,
    g_out: &[f32],
    grad: &mut [f32],
    g_in: &mut [f32],
) {
    let (cin, cout) = (layer.inputs, layer.outputs);
    for k in 0..n {
        let go = &g_out[k * cout..][..cout];
        if go.iter().all(|&g| g == 0.0) {
            continue;
        }
        for (gb, g) in grad[layer.b..layer.b + cout].iter_mut().zip(go) {
            *gb += g;
        }
        for ci in 0..cin {
            let xv = x[k * cin + ci];
            let at = layer.w + ci * cout;
            let w = &p[at..at + cout];
            let mut dot = 0.0;
            for ((gw, w), g) in grad[at..at + cout].iter_mut().zip(w).zip(go) {
                *gw += xv * g;
                dot += w * g;
            }
            g_in[k * cin + ci] += dot;
        }
    }
}

/// Backward of a 3×3 same-padding convolution; *adds* the input gradient to `g_in`.
///
/// The weight gradient of tap `t`, input `ci`, output `co` is `Σ x[q][ci] · g_out[p][co]`
/// over the output points `p` whose window holds `q` at tap `t`. For each tap and input
/// channel the nonzero inputs are listed once with their output points; then blocks of 32
/// (then 16, 8, 1) outputs sum over that list in registers and are added to `grad` once.
/// The input gradient is itself a 3×3 convolution of `g_out` (whose ReLU zeros
/// [`conv3x3`] skips) with the kernel flipped (tap `8 − t`) and transposed
/// (`[tap][out][in]`), built in `scratch.kernel`.
// The layer's operands, its gradients and scratch: grouping them would only rename them.
#[allow(clippy::too_many_arguments)]
fn conv_back(
    x: &[f32],
    p: &[f32],
    layer: &Layer,
    size: usize,
    g_out: &[f32],
    grad: &mut [f32],
    g_in: Option<&mut [f32]>,
    scratch: &mut ConvScratch,
) {
    let (cin, cout) = (layer.inputs, layer.outputs);
    let n = size * size;
    let s = scratch;
    for (co, gb) in grad[layer.b..layer.b + cout].iter_mut().enumerate() {
        *gb += g_out.chunks_exact(cout).map(|g| g[co]).sum::<f32>();
    }
    // x's nonzero entries by input channel: (point, value).
    s.by_channel.resize(cin, Vec::new());
    s.by_channel.iter_mut().for_each(Vec::clear);
    for (q, xs) in x.chunks_exact(cin).enumerate() {
        for (ci, &xv) in xs.iter().enumerate() {
            if xv != 0.0 {
                s.by_channel[ci].push((q, xv));
            }
        }
    }
    s.live.clear();
    s.live.extend(
        g_out
            .chunks_exact(cout)
            .map(|g| g.iter().any(|&v| v != 0.0)),
    );
    for tap in 0..9 {
        // For each input point, the output point whose window holds it at this tap (if
        // that output has any gradient), as an offset into g_out.
        s.target.clear();
        s.target.resize(n, None);
        for r in 0..size {
            for c in 0..size {
                let pt = r * size + c;
                if s.live[pt] {
                    if let Some((_, q)) = window(size, r, c).find(|&(t, _)| t == tap) {
                        s.target[q] = Some(pt * cout);
                    }
                }
            }
        }
        for ci in 0..cin {
            s.pairs.clear();
            let target = &s.target;
            s.pairs.extend(
                s.by_channel[ci]
                    .iter()
                    .filter_map(|&(q, xv)| Some((target[q]?, xv))),
            );
            let row = &mut grad[layer.w + (tap * cin + ci) * cout..][..cout];
            let mut at = 0;
            at = weight_blocks::<32>(&s.pairs, g_out, row, at);
            at = weight_blocks::<16>(&s.pairs, g_out, row, at);
            at = weight_blocks::<8>(&s.pairs, g_out, row, at);
            weight_blocks::<1>(&s.pairs, g_out, row, at);
        }
    }
    if let Some(g_in) = g_in {
        s.kernel.resize(9 * cin * cout, 0.0);
        for tap in 0..9 {
            for ci in 0..cin {
                let w = &p[layer.w + (tap * cin + ci) * cout..][..cout];
                for (co, &w) in w.iter().enumerate() {
                    s.kernel[((8 - tap) * cout + co) * cin + ci] = w;
                }
            }
        }
        s.zeros.clear();
        s.zeros.resize(cin, 0.0);
        s.sum.resize(n * cin, 0.0);
        conv3x3(g_out, &s.kernel, &s.zeros, size, &mut s.sum, &mut s.lists);
        for (g, v) in g_in.iter_mut().zip(&s.sum) {
            *g += v;
        }
    }
}

/// Adds to `row` (one tap's and input channel's weight gradients) from output `at` on,
/// `L` outputs at a time, as many blocks as fit, the sum over `pairs` (an output point's
/// offset in `g_out`, the input's value); returns the first output not done.
fn weight_blocks<const L: usize>(
    pairs: &[(usize, f32)],
    g_out: &[f32],
    row: &mut [f32],
    mut at: usize,
) -> usize {
    while at + L <= row.len() {
        let mut sum = [0.0f32; L];
        for &(o, xv) in pairs {
            for (s, g) in sum.iter_mut().zip(&g_out[o + at..o + at + L]) {
                *s += xv * g;
            }
        }
        for (r, s) in row[at..at + L].iter_mut().zip(&sum) {
            *r += s;
        }
        at += L;
    }
    at
}

/// Scratch space of [`conv_back`].
#[derive(Clone, Debug, Default)]
pub(super) struct ConvScratch {
    by_channel: Vec<Vec<(usize, f32)>>,
    live: Vec<bool>,
    target: Vec<Option<usize>>,
    pairs: Vec<(usize, f32)>,
    kernel: Vec<f32>,
    zeros: Vec<f32>,
    sum: Vec<f32>,
    lists: ConvLists,
}

#[cfg(test)]
mod tests {
    use super::*;
    use games::nn::{Shape, PLANES};
    use games::rng::Rng;

    /// The ownership head of a test: parameters, targets, weight.
    type Head = (Vec<f32>, Vec<f32>, f32);

    fn loss(
        net: &Net,
        act: &mut Activations,
        legal: &[bool],
        pi: &[f32],
        z: f32,
        score: Option<ScoreTarget>,
        head: Option<&Head>,
    ) -> f64 {
        net.forward(act);
        let mut probs = vec![0.0; pi.len()];
        masked_softmax(&act.logits, legal, &mut probs);
        let ce: f64 = pi
            .iter()
            .zip(&probs)
            .filter(|(&t, _)| t > 0.0)
            .map(|(&t, &q)| -f64::from(t) * f64::from(q).ln())
            .sum();
        let mut total = ce + f64::from(act.value - z).powi(2);
        if let Some(t) = score {
            total += f64::from(t.weight) * f64::from(act.score - t.margin).powi(2);
        }
        if let Some((params, target, weight)) = head {
            // Written out again, not through ownership_forward: the test's own formula.
            let h = &act.trunk[net.shape().blocks];
            let width = net.shape().width;
            let n = target.len() as f64;
            for (k, &t) in target.iter().enumerate() {
                let o: f64 = (0..width)
                    .map(|c| f64::from(h[k * width + c]) * f64::from(params[c]))
                    .sum::<f64>()
                    + f64::from(params[width]);
                total += f64::from(*weight) * (o.tanh() - f64::from(t)).powi(2) / n;
            }
        }
        total
    }

    #[test]
    fn gradients_match_finite_differences() {
        // The last: a position without a policy target (no legal output, as
        // Sample::at_komi makes), whose policy layers must learn nothing.
        for (value_channels, ownership, score, policy) in [
            (1, false, false, true),
            (3, false, false, true),
            (1, true, false, true),
            (1, false, true, true),
            (1, false, true, false),
        ] {
            gradients_match_finite_differences_with(value_channels, ownership, score, policy);
        }
    }

    fn gradients_match_finite_differences_with(
        value_channels: usize,
        ownership: bool,
        score: bool,
        policy: bool,
    ) {
        let shape = Shape {
            size: 3,
            planes: PLANES,
            width: 4,
            blocks: 1,
            hidden: 5,
            value_channels,
            score,
        };
        let target = score.then_some(ScoreTarget {
            margin: 0.4,
            weight: 2.5,
        });
        let mut net = Net::random(shape, 11).unwrap();
        // Biases away from zero so that ReLUs are not all on a kink.
        let mut rng = Rng::new(5);
        for w in &mut net.params {
            *w += (rng.unit() as f32 - 0.5) * 0.2;
        }
        let mut act = Activations::new(&shape);
        for cell in act.input.chunks_mut(PLANES) {
            cell[rng.below(PLANES)] = 1.0;
        }
        let mut head: Option<Head> = ownership.then(|| {
            let params = (0..ownership_params(4))
                .map(|_| rng.unit() as f32 - 0.5)
                .collect();
            let target = (0..9).map(|k| [1.0, -1.0, 0.0][k % 3]).collect();
            (params, target, 1.5)
        });
        let legal: Vec<bool> = (0..10).map(|i| policy && i % 3 != 1).collect();
        let mut pi = vec![0.0; 10];
        for (i, t) in pi.iter_mut().enumerate() {
            if legal[i] {
                *t = 1.0 + i as f32;
            }
        }
        let total: f32 = pi.iter().sum();
        pi.iter_mut().for_each(|t| *t /= total.max(1.0));
        let z = -1.0;

        net.forward(&mut act);
        let mut grad = vec![0.0; net.params.len()];
        let mut scratch = Scratch::new(&net);
        let mut head_grad = vec![0.0; ownership_params(4)];
        let own = head.as_ref().map(|(params, target, weight)| Ownership {
            params,
            target,
            weight: *weight,
            grad: &mut head_grad,
        });
        let parts = backward_with(
            &net,
            &act,
            &legal,
            &pi,
            z,
            target,
            own,
            &mut scratch,
            &mut grad,
        );
        assert_eq!(parts.ownership > 0.0, ownership, "{parts:?}");
        assert_eq!(parts.score > 0.0, score, "{parts:?}");
        assert_eq!(parts.policy > 0.0, policy, "{parts:?}");

        let eps = 5e-4;
        let mut bad = Vec::new();
        let close = |numeric: f64, analytic: f64| {
            (numeric - analytic).abs() <= 2e-3 + 2e-2 * numeric.abs().max(analytic.abs())
        };
        for (i, &analytic) in grad.iter().enumerate() {
            let keep = net.params[i];
            net.params[i] = keep + eps;
            let up = loss(&net, &mut act, &legal, &pi, z, target, head.as_ref());
            net.params[i] = keep - eps;
            let down = loss(&net, &mut act, &legal, &pi, z, target, head.as_ref());
            net.params[i] = keep;
            let numeric = (up - down) / (2.0 * f64::from(eps));
            let analytic = f64::from(analytic);
            if !close(numeric, analytic) {
                bad.push((i, analytic, numeric));
            }
        }
        // A step of eps may cross a ReLU kink for a few parameters; a wrong formula fails
        // for whole layers.
        assert!(
            bad.len() * 100 <= net.params.len(),
            "{} of {} gradients off: {:?}",
            bad.len(),
            net.params.len(),
            &bad[..bad.len().min(10)]
        );
        if let Some(h) = head.as_mut() {
            // The head's own parameters: no ReLU after them, so every one must match.
            for (i, &analytic) in head_grad.iter().enumerate() {
                let keep = h.0[i];
                h.0[i] = keep + eps;
                let up = loss(&net, &mut act, &legal, &pi, z, target, Some(h));
                h.0[i] = keep - eps;
                let down = loss(&net, &mut act, &legal, &pi, z, target, Some(h));
                h.0[i] = keep;
                let numeric = (up - down) / (2.0 * f64::from(eps));
                assert!(
                    close(numeric, f64::from(analytic)) && analytic.abs() > 1e-6,
                    "ownership parameter {i}: {analytic} against {numeric}"
                );
            }
        }
        // Every layer takes part: a gradient that stopped at some layer would pass above.
        let l = net.layout();
        let mut layers = vec![l.stem, l.value_conv, l.value_hidden, l.value_out];
        layers.extend(l.blocks.iter().flatten());
        for layer in [l.policy_conv, l.policy_dense] {
            if policy {
                layers.push(layer);
            } else {
                assert!(
                    grad[layer.w..layer.b + layer.outputs]
                        .iter()
                        .all(|&g| g == 0.0),
                    "a position without a policy target trains {layer:?}"
                );
            }
        }
        for layer in layers {
            assert!(
                grad[layer.w..layer.b].iter().any(|g| g.abs() > 1e-6),
                "no gradient reaches {layer:?}"
            );
        }
        // The score output's own weights (stored [in][out], its column the second) learn.
        let out = l.value_out;
        assert_eq!(out.outputs, 1 + usize::from(score));
        if score {
            assert!(
                (0..out.inputs).any(|i| grad[out.w + i * 2 + 1].abs() > 1e-6),
                "no gradient reaches the score output"
            );
        }
    }
}
