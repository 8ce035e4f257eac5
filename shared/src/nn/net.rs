//! The network's shape, its parameters in one flat array, and the forward pass.

use crate::rng::Rng;

/// Limits a shape must keep: they bound what a weights file may ask us to allocate.
pub const MAX_SIZE: usize = 19;
/// Most input planes.
pub const MAX_PLANES: usize = 16;
/// Most channels in the trunk.
pub const MAX_WIDTH: usize = 256;
/// Most residual blocks.
pub const MAX_BLOCKS: usize = 20;
/// Most units in the value head's hidden layer.
pub const MAX_HIDDEN: usize = 1024;
/// Most channels of the value head's 1×1 convolution.
pub const MAX_VALUE_CHANNELS: usize = 32;

/// What a network looks like: the board side, the input planes per point, the trunk's
/// channels (`width`) and residual blocks, and the value head's channels and hidden units.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    /// Rows (= columns) of the board.
    pub size: usize,
    /// Input planes per point.
    pub planes: usize,
    /// Channels of every trunk convolution.
    pub width: usize,
    /// Residual blocks after the first convolution (two convolutions each).
    pub blocks: usize,
    /// Hidden units of the value head.
    pub hidden: usize,
    /// Channels of the value head's 1×1 convolution: AlphaZero's 1, or more, so that the
    /// dense layers above see more than one number per point.
    pub value_channels: usize,
    /// A score head: a second output of the value head's last dense layer (tanh), the
    /// expected final margin over the board's points for the side to move (KataGo's score
    /// head, for its score utility). `false`: AlphaZero's value alone.
    pub score: bool,
}

/// A shape outside the limits ([`MAX_SIZE`] and the others), naming the field.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShapeError(pub String);

impl std::fmt::Display for ShapeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ShapeError {}

/// Where one layer's weights and biases sit in the flat parameter array.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layer {
    /// Offset of the weights.
    pub w: usize,
    /// Offset of the biases (right after the weights).
    pub b: usize,
    /// Inputs (per kernel tap, for a convolution).
    pub inputs: usize,
    /// Outputs.
    pub outputs: usize,
}

/// The layers in parameter order. Convolutions store weights as `[tap][in][out]` (tap
/// `3 · dr + dc` of the 3×3 window), dense layers as `[in][out]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    /// The first 3×3 convolution, planes to width.
    pub stem: Layer,
    /// Two 3×3 convolutions per residual block, width to width.
    pub blocks: Vec<[Layer; 2]>,
    /// Policy head: a 1×1 convolution to 2 channels.
    pub policy_conv: Layer,
    /// Policy head: dense from `2 · points` to `points + 1` logits (the last one passes).
    pub policy_dense: Layer,
    /// Value head: a 1×1 convolution to `value_channels` channels.
    pub value_conv: Layer,
    /// Value head: dense from `value_channels · points` to `hidden`.
    pub value_hidden: Layer,
    /// Value head: dense from `hidden` to 1 (then tanh: the value), or to 2 with the score
    /// head (the second, after tanh, the expected margin over the points).
    pub value_out: Layer,
    /// Parameters in all.
    pub len: usize,
}

impl Shape {
    /// Checks the limits.
    ///
    /// # Errors
    ///
    /// A [`ShapeError`] naming the first field outside its range.
    pub fn check(&self) -> Result<(), ShapeError> {
        let fields = [
            ("board size", self.size, 1, MAX_SIZE),
            ("input planes", self.planes, 1, MAX_PLANES),
            ("width", self.width, 1, MAX_WIDTH),
            ("blocks", self.blocks, 0, MAX_BLOCKS),
            ("value hidden units", self.hidden, 1, MAX_HIDDEN),
            ("value channels", self.value_channels, 1, MAX_VALUE_CHANNELS),
        ];
        for (name, value, low, high) in fields {
            if !(low..=high).contains(&value) {
                return Err(ShapeError(format!(
                    "{name} {value} is outside {low}..={high}"
                )));
            }
        }
        Ok(())
    }

    /// Points of the board.
    pub const fn points(&self) -> usize {
        self.size * self.size
    }

    /// Policy outputs: one per point, and the pass.
    pub const fn outputs(&self) -> usize {
        self.points() + 1
    }

    /// Where every layer's parameters are.
    pub fn layout(&self) -> Layout {
        let mut at = 0;
        let mut layer = |taps: usize, inputs: usize, outputs: usize| {
            let w = at;
            let b = w + taps * inputs * outputs;
            at = b + outputs;
            Layer {
                w,
                b,
                inputs,
                outputs,
            }
        };
        let n = self.points();
        let stem = layer(9, self.planes, self.width);
        let blocks = (0..self.blocks)
            .map(|_| {
                [
                    layer(9, self.width, self.width),
                    layer(9, self.width, self.width),
                ]
            })
            .collect();
        let policy_conv = layer(1, self.width, 2);
        let policy_dense = layer(1, 2 * n, n + 1);
        let value_conv = layer(1, self.width, self.value_channels);
        let value_hidden = layer(1, self.value_channels * n, self.hidden);
        let value_out = layer(1, self.hidden, 1 + usize::from(self.score));
        Layout {
            stem,
            blocks,
            policy_conv,
            policy_dense,
            value_conv,
            value_hidden,
            value_out,
            len: at,
        }
    }
}

/// A policy/value network: the shape and its parameters.
///
/// The trunk is a 3×3 convolution from the input planes to `width` channels with ReLU
/// (the seed's first layer, any board size), then `blocks` residual blocks
/// (`h ← relu(h + conv(relu(conv(h))))`). The policy head is a 1×1 convolution to 2
/// channels, ReLU, and a dense layer to one logit per point plus one for passing; the value
/// head a 1×1 convolution to `value_channels` channels (AlphaZero's 1 by default), ReLU, a
/// dense hidden layer with ReLU and a dense output with tanh: the value for the side to
/// move in `(-1, 1)`; with [`Shape::score`] that layer has a second output, the expected
/// final margin. (AlphaZero's heads, without batch normalisation.)
#[derive(Clone, Debug, PartialEq)]
pub struct Net {
    shape: Shape,
    layout: Layout,
    /// Every weight and bias, in [`Layout`] order.
    pub params: Vec<f32>,
}

/// Every intermediate result of one forward pass, kept for the backward pass of training;
/// allocate once per shape and reuse.
#[derive(Clone, Debug)]
pub struct Activations {
    /// The input planes, `[point][plane]`.
    pub input: Vec<f32>,
    /// The trunk after the stem and after each block, `[point][channel]`.
    pub trunk: Vec<Vec<f32>>,
    /// Inside each block: after its first convolution and ReLU.
    pub inner: Vec<Vec<f32>>,
    /// The policy head's two channels after ReLU.
    pub policy_features: Vec<f32>,
    /// The logits, one per point and the pass (no masking).
    pub logits: Vec<f32>,
    /// The value head's channels after ReLU, `[point][channel]`.
    pub value_features: Vec<f32>,
    /// The value head's hidden layer after ReLU.
    pub hidden: Vec<f32>,
    /// The value for the side to move.
    pub value: f32,
    /// The score head's expected final margin over the board's points, for the side to
    /// move (0 without the head).
    pub score: f32,
    /// The convolutions' lists of nonzero inputs.
    lists: ConvLists,
}

impl Activations {
    /// Buffers for a network of `shape`.
    pub fn new(shape: &Shape) -> Activations {
        let n = shape.points();
        let trunk = vec![0.0; n * shape.width];
        Activations {
            input: vec![0.0; n * shape.planes],
            trunk: vec![trunk.clone(); shape.blocks + 1],
            inner: vec![trunk; shape.blocks],
            policy_features: vec![0.0; 2 * n],
            logits: vec![0.0; n + 1],
            value_features: vec![0.0; n * shape.value_channels],
            hidden: vec![0.0; shape.hidden],
            value: 0.0,
            score: 0.0,
            lists: ConvLists::default(),
        }
    }
}

impl Net {
    /// A network of `shape` with He-initialised weights (normal, variance 2 / fan-in) drawn
    /// from `seed`, zero biases, and a value output scaled down so an untrained network
    /// starts near 0.
    ///
    /// # Errors
    ///
    /// A [`ShapeError`] if the shape is outside the limits.
    pub fn random(shape: Shape, seed: u64) -> Result<Net, ShapeError> {
        shape.check()?;
        let layout = shape.layout();
        let mut params = vec![0.0; layout.len];
        let mut rng = Rng::new(seed);
        let mut fill = |layer: &Layer, taps: usize, scale: f32| {
            let fan_in = (taps * layer.inputs) as f32;
            let sd = (2.0 / fan_in).sqrt() * scale;
            for w in &mut params[layer.w..layer.b] {
                *w = rng.normal() as f32 * sd;
            }
        };
        fill(&layout.stem, 9, 1.0);
        for block in &layout.blocks {
            fill(&block[0], 9, 1.0);
            // The second convolution starts small, so each block starts near the identity.
            fill(&block[1], 9, 0.1);
        }
        fill(&layout.policy_conv, 1, 1.0);
        fill(&layout.policy_dense, 1, 0.1);
        fill(&layout.value_conv, 1, 1.0);
        fill(&layout.value_hidden, 1, 1.0);
        fill(&layout.value_out, 1, 0.1);
        Ok(Net {
            shape,
            layout,
            params,
        })
    }

    /// A network of `shape` with the given parameters.
    ///
    /// # Errors
    ///
    /// A [`ShapeError`] if the shape is outside the limits or `params` has the wrong length.
    pub fn from_params(shape: Shape, params: Vec<f32>) -> Result<Net, ShapeError> {
        shape.check()?;
        let layout = shape.layout();
        if params.len() != layout.len {
            return Err(ShapeError(format!(
                "{} parameters for a shape that has {}",
                params.len(),
                layout.len
            )));
        }
        Ok(Net {
            shape,
            layout,
            params,
        })
    }

    /// The shape.
    pub fn shape(&self) -> &Shape {
        &self.shape
    }

    /// Where each layer's parameters are in [`Net::params`].
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// One forward pass over `act.input` (the caller fills it, `[point][plane]`), leaving
    /// every layer's output in `act`: the logits in `act.logits`, the value in `act.value`.
    ///
    /// # Complexity
    ///
    /// About `9 · points · width² · (2 · blocks + 1)` multiply-adds for the trunk; terms
    /// whose input is zero (empty planes, ReLU zeros) are skipped.
    pub fn forward(&self, act: &mut Activations) {
        let s = self.shape.size;
        let n = self.shape.points();
        let p = &self.params;
        let l = &self.layout;
        conv3x3(
            &act.input,
            weights(p, &l.stem),
            biases(p, &l.stem),
            s,
            &mut act.trunk[0],
            &mut act.lists,
        );
        relu(&mut act.trunk[0]);
        for (b, block) in l.blocks.iter().enumerate() {
            let (before, after) = act.trunk.split_at_mut(b + 1);
            let h = &before[b];
            conv3x3(
                h,
                weights(p, &block[0]),
                biases(p, &block[0]),
                s,
                &mut act.inner[b],
                &mut act.lists,
            );
            relu(&mut act.inner[b]);
            let next = &mut after[0];
            conv3x3(
                &act.inner[b],
                weights(p, &block[1]),
                biases(p, &block[1]),
                s,
                next,
                &mut act.lists,
            );
            for (o, x) in next.iter_mut().zip(h) {
                *o += x;
            }
            relu(next);
        }
        let h = &act.trunk[self.shape.blocks];
        dense_points(h, p, &l.policy_conv, n, &mut act.policy_features);
        relu(&mut act.policy_features);
        dense(&act.policy_features, p, &l.policy_dense, &mut act.logits);
        dense_points(h, p, &l.value_conv, n, &mut act.value_features);
        relu(&mut act.value_features);
        dense(&act.value_features, p, &l.value_hidden, &mut act.hidden);
        relu(&mut act.hidden);
        let mut out = [0.0; 2];
        let out = &mut out[..l.value_out.outputs];
        dense(&act.hidden, p, &l.value_out, out);
        act.value = out[0].tanh();
        act.score = out.get(1).map_or(0.0, |s| s.tanh());
    }
}

/// The softmax of `logits` over the entries `legal` allows (0 elsewhere), into `out`.
/// With nothing legal, `out` is all zeros.
pub fn masked_softmax(logits: &[f32], legal: &[bool], out: &mut [f32]) {
    let max = logits
        .iter()
        .zip(legal)
        .filter(|(_, &ok)| ok)
        .map(|(&z, _)| z)
        .fold(f32::NEG_INFINITY, f32::max);
    let mut total = 0.0;
    for ((o, &z), &ok) in out.iter_mut().zip(logits).zip(legal) {
        *o = if ok { (z - max).exp() } else { 0.0 };
        total += *o;
    }
    if total > 0.0 {
        for o in out.iter_mut() {
            *o /= total;
        }
    }
}

fn relu(xs: &mut [f32]) {
    for x in xs {
        *x = x.max(0.0);
    }
}

/// The points whose 3×3 window around `(r, c)` lies on a `size`×`size` board: `(tap,
/// point)` pairs, tap `3 · (dr + 1) + (dc + 1)` for the offset `(dr, dc)`.
pub fn window(size: usize, r: usize, c: usize) -> impl Iterator<Item = (usize, usize)> {
    (0..9).filter_map(move |tap| {
        let rr = (r + tap / 3).checked_sub(1)?;
        let cc = (c + tap % 3).checked_sub(1)?;
        (rr < size && cc < size).then_some((tap, rr * size + cc))
    })
}

/// A layer's weights in the flat parameter array.
fn weights<'a>(p: &'a [f32], layer: &Layer) -> &'a [f32] {
    &p[layer.w..layer.b]
}

/// A layer's biases in the flat parameter array.
fn biases<'a>(p: &'a [f32], layer: &Layer) -> &'a [f32] {
    &p[layer.b..layer.b + layer.outputs]
}

/// A 3×3 same-padding convolution on a `size`×`size` board: `out = bias + Σ x · w`,
/// `[point][channel]` in and out, `weights` stored `[tap][in][out]` (tap `3 · dr + dc` of
/// the window), as many output channels as `bias` has. The trainer's backward pass calls it
/// too, with the kernel flipped and transposed, for the gradient of the input.
///
/// The nonzero inputs (empty planes and ReLU zeros are about half) are listed once per
/// point, each with the offset of the weights it scales. Then each output point's channels
/// are summed in blocks of 32 (then 16, 8, 1) over its window's lists, a block's sums held
/// in registers throughout instead of going to memory and back for every input. Each
/// output is `bias + Σ x · w` in the order (tap, input channel), as a plain loop adds it.
///
/// # Panics
///
/// If the slices' lengths do not fit `size` and each other.
pub fn conv3x3(
    input: &[f32],
    weights: &[f32],
    bias: &[f32],
    size: usize,
    out: &mut [f32],
    lists: &mut ConvLists,
) {
    let n = size * size;
    let cout = bias.len();
    let cin = weights.len() / (9 * cout.max(1));
    assert!(
        cout > 0
            && weights.len() == 9 * cin * cout
            && input.len() == n * cin
            && out.len() == n * cout,
        "conv3x3: slices do not fit a {size}x{size} board with {cin} in and {cout} out"
    );
    let ConvLists { live, starts } = lists;
    live.clear();
    starts.clear();
    starts.push(0);
    for x in input.chunks_exact(cin) {
        for (ci, &xv) in x.iter().enumerate() {
            if xv != 0.0 {
                live.push((ci * cout, xv));
            }
        }
        starts.push(live.len());
    }
    let conv = Conv {
        weights,
        bias,
        tap_len: cin * cout,
        live,
        starts,
        size,
    };
    for r in 0..size {
        for c in 0..size {
            let o = &mut out[(r * size + c) * cout..][..cout];
            let mut at = 0;
            at = conv.blocks::<32>(r, c, o, at);
            at = conv.blocks::<16>(r, c, o, at);
            at = conv.blocks::<8>(r, c, o, at);
            conv.blocks::<1>(r, c, o, at);
        }
    }
}

/// Scratch space of [`conv3x3`], kept between calls so that they allocate nothing: each
/// input point's nonzero channels, `live[starts[q]..starts[q + 1]]` for point `q`, as
/// (channel · outputs, value).
#[derive(Clone, Debug, Default)]
pub struct ConvLists {
    live: Vec<(usize, f32)>,
    starts: Vec<usize>,
}

/// One 3×3 convolution's operands, for [`conv3x3`].
struct Conv<'a> {
    weights: &'a [f32],
    bias: &'a [f32],
    tap_len: usize,
    live: &'a [(usize, f32)],
    starts: &'a [usize],
    size: usize,
}

impl Conv<'_> {
    /// Sums the output channels from `at` on at point `(r, c)` into `o`, `L` at a time, as
    /// many blocks as fit; returns the first channel not done.
    fn blocks<const L: usize>(&self, r: usize, c: usize, o: &mut [f32], mut at: usize) -> usize {
        while at + L <= o.len() {
            let mut sum = [0.0f32; L];
            sum.copy_from_slice(&self.bias[at..at + L]);
            for (tap, q) in window(self.size, r, c) {
                let w = &self.weights[tap * self.tap_len + at..];
                for &(row, xv) in &self.live[self.starts[q]..self.starts[q + 1]] {
                    for (s, w) in sum.iter_mut().zip(&w[row..row + L]) {
                        *s += xv * w;
                    }
                }
            }
            o[at..at + L].copy_from_slice(&sum);
            at += L;
        }
        at
    }
}

/// A 1×1 convolution: the same dense layer at each of `n` points.
fn dense_points(input: &[f32], p: &[f32], layer: &Layer, n: usize, out: &mut [f32]) {
    let (cin, cout) = (layer.inputs, layer.outputs);
    for k in 0..n {
        dense(
            &input[k * cin..][..cin],
            p,
            layer,
            &mut out[k * cout..][..cout],
        );
    }
}

/// `out = b + x · W` with `W` stored `[in][out]`.
fn dense(x: &[f32], p: &[f32], layer: &Layer, out: &mut [f32]) {
    let cout = layer.outputs;
    out.copy_from_slice(&p[layer.b..layer.b + cout]);
    for (i, &xv) in x.iter().enumerate() {
        if xv == 0.0 {
            continue;
        }
        let w = &p[layer.w + i * cout..][..cout];
        for (o, w) in out.iter_mut().zip(w) {
            *o += xv * w;
        }
    }
}
