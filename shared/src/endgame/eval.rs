//! A pattern evaluation of Othello positions, for the endgame solver's move ordering: the
//! predicted final disc margin for the side to move, as a sum of learnt weights, one per
//! configuration of each pattern (a line or a corner region of squares, each empty, own or
//! the opponent's), per game stage, plus a weight on mobility and a bias.
//!
//! The patterns, for an `n`×`n` board: the rows 1 to ⌊n/2⌋ counted from the edge (the edge
//! itself first), the 3×3 corner, and the diagonals of length `n` down to 4; from format
//! version 2 on also the edge with its two X-squares (the edge row, then (1, 1) and
//! (1, n − 2)) and, from 6×6 up, the 2×5 corner (the first five squares of rows 1 and 2),
//! the two patterns Edax and Zebra add for the edges and corners. Every pattern
//! is read in all 8 orientations of the board (so the evaluation of a position and of its
//! mirror images is the same) with one weight table shared by them. A configuration's index
//! is base 3, first square most significant: 0 empty, 1 the mover's disc, 2 the
//! opponent's. The stage is the number of empty squares divided by the stage width
//! (the last stage takes the rest).
//!
//! The weights are fitted by `endgame_fit` (tools) on positions labelled with their exact
//! score by this solver, and loaded at run time; the judge solvers never need them.
//!
//! # The file
//!
//! ```text
//! offset  bytes  field
//!      0      8  magic "GAMESPAT"
//!      8      4  format version, u32 (1 or 2: the pattern sets above)
//!     12      4  board size (4, 6 or 8)
//!     16      4  stages
//!     20      4  empty squares per stage
//!     24      4  weights per stage (must equal what the size implies)
//!     28      4  (version 2 only) the fit's rms error on held-out positions, in discs,
//!                f32: the solver's probcut margins are counted in it (0 < error ≤ 64)
//!  28/32  4·count  weights, f32 little-endian: stage by stage, the patterns in the order
//!                   above with 3^squares entries each, then mobility, then the bias
//!    end      8  FNV-1a 64 of every byte before it, little-endian
//! ```
//!
//! All integers are little-endian `u32`. A reader checks the length covers a header, the
//! magic, the version, the size, the stages, the count against the size, the file's length
//! against the count (before allocating), the checksum, and that every weight is finite.

use crate::checksum::fnv1a;
use crate::othello::{board_mask, moves};
use std::fmt;

/// The first eight bytes of a patterns file.
pub const MAGIC: [u8; 8] = *b"GAMESPAT";
/// The format version this code writes (it reads 1 too).
pub const VERSION: u32 = 2;
/// Most stages a file may hold.
pub const MAX_STAGES: usize = 64;
/// The header's bytes in format 1; format 2 adds the error.
const HEADER: usize = 28;
const CHECKSUM: usize = 8;

/// Why a patterns file was refused, or a shape asked for.
#[derive(Clone, Debug, PartialEq)]
pub enum EvalError {
    /// Fewer bytes than a header and checksum.
    TooShort(usize),
    /// The file does not start with [`MAGIC`].
    Magic,
    /// A version this code does not read.
    Version(u32),
    /// A board size other than 4, 6 or 8.
    Size(u32),
    /// Stages outside 1..=[`MAX_STAGES`], or a stage width of 0.
    Stages(u32, u32),
    /// Weights per stage other than the size implies.
    Count {
        /// What the size needs.
        expected: usize,
        /// What the header says.
        found: usize,
    },
    /// The file is longer or shorter than its header says.
    Length {
        /// Bytes the header implies.
        expected: usize,
        /// Bytes there are.
        found: usize,
    },
    /// The checksum does not match.
    Checksum,
    /// A weight is NaN or infinite.
    NotFinite(usize),
    /// The error field is not a number in 0 < error ≤ 64.
    Error(f32),
}

impl fmt::Display for EvalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EvalError::TooShort(n) => write!(f, "{n} bytes are too few for a patterns file"),
            EvalError::Magic => write!(f, "not a patterns file (no GAMESPAT magic)"),
            EvalError::Version(v) => {
                write!(f, "format version {v}, this program reads 1 to {VERSION}")
            }
            EvalError::Size(n) => write!(f, "board size {n} is not 4, 6 or 8"),
            EvalError::Stages(s, w) => write!(
                f,
                "{s} stages of {w} empty squares: stages are 1..={MAX_STAGES}, widths at least 1"
            ),
            EvalError::Count { expected, found } => write!(
                f,
                "{found} weights per stage, the board size needs {expected}"
            ),
            EvalError::Length { expected, found } => write!(
                f,
                "{found} bytes, the header says {expected} (truncated or padded)"
            ),
            EvalError::Checksum => write!(f, "the checksum does not match (a damaged file)"),
            EvalError::NotFinite(i) => write!(f, "weight {i} is not a finite number"),
            EvalError::Error(e) => write!(f, "the fit's error {e} is not in 0 < error <= 64"),
        }
    }
}

impl std::error::Error for EvalError {}

/// The pattern evaluation: its shape (board size, stages) and weights.
#[derive(Clone, Debug, PartialEq)]
pub struct Patterns {
    size: usize,
    /// The format version, which fixes the pattern set.
    version: u32,
    /// The board's squares.
    mask: u64,
    stages: usize,
    stage_width: usize,
    /// Every pattern instance: the offset of its pattern's table within a stage, and its
    /// squares (bit indices), most significant first. (The reference reading; the fast one
    /// is `readers`.)
    instances: Vec<(usize, Vec<u8>)>,
    /// The same instances in the same order, each as its pattern read from one of the 8
    /// views of the board (see [`views`]).
    readers: Vec<Reader>,
    /// `digits[len][m]`: the base-3 value of the `len` squares whose bits are set in `m`
    /// (bit `i` the `i`th square, the first most significant), each counted as 1.
    digits: Vec<Vec<u16>>,
    per_stage: usize,
    /// The fit's held-out rms error, in discs (format 2: 64, the most it may say, until a
    /// fit records its own; `None` in format 1).
    error: Option<f32>,
    weights: Vec<f32>,
}

/// How a pattern's squares are gathered from a board into a mask whose bit `i` is its
/// `i`th square.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Kind {
    /// Row `r`: squares (r, 0) … (r, n−1).
    Row(u8),
    /// The 3×3 corner: (0, 0), (0, 1), (0, 2), (1, 0), … (2, 2).
    Corner,
    /// The diagonal of `len` squares (i, n − len + i).
    Diagonal(u8),
    /// The edge row (0, 0) … (0, n − 1), then the X-squares (1, 1) and (1, n − 2).
    EdgeX,
    /// The 2×5 corner: (0, 0) … (0, 4), then (1, 0) … (1, 4).
    Corner2x5,
}

/// One pattern instance for the fast reading: its table's offset within a stage, its
/// shape, and the view of the board it is read from.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Reader {
    offset: u32,
    kind: Kind,
    view: u8,
    len: u8,
}

/// The patterns of an `n`×`n` board in format `version`, each as squares (row, column) in
/// one orientation, with how to gather them.
fn shapes(n: usize, version: u32) -> Vec<(Kind, Vec<(usize, usize)>)> {
    let mut shapes: Vec<(Kind, Vec<(usize, usize)>)> = (0..n / 2)
        .map(|r| (Kind::Row(r as u8), (0..n).map(|c| (r, c)).collect()))
        .collect();
    shapes.push((Kind::Corner, (0..9).map(|i| (i / 3, i % 3)).collect()));
    for len in (4..=n).rev() {
        shapes.push((
            Kind::Diagonal(len as u8),
            (0..len).map(|i| (i, n - len + i)).collect(),
        ));
    }
    if version >= 2 {
        let mut edge: Vec<(usize, usize)> = (0..n).map(|c| (0, c)).collect();
        edge.extend([(1, 1), (1, n - 2)]);
        shapes.push((Kind::EdgeX, edge));
        if n >= 6 {
            shapes.push((Kind::Corner2x5, (0..10).map(|i| (i / 5, i % 5)).collect()));
        }
    }
    shapes
}

/// The main diagonal's squares (i, i).
const DIAGONAL: u64 = 0x8040_2010_0804_0201;

impl Kind {
    /// The pattern's squares in `board` (an `n`×`n` board in the low rows and columns) as
    /// a mask: bit `i` set when its `i`th square is.
    #[inline(always)]
    fn gather(self, n: u32, board: u64) -> usize {
        match self {
            Kind::Row(r) => ((board >> (8 * u32::from(r))) & ((1 << n) - 1)) as usize,
            Kind::Corner => {
                ((board & 7) | ((board >> 5) & 0x38) | ((board >> 10) & 0x1c0)) as usize
            }
            Kind::Diagonal(len) => {
                let len = u32::from(len);
                let on = (board >> (n - len)) & DIAGONAL & (u64::MAX >> (63 - 9 * (len - 1)));
                (on.wrapping_mul(0x0101_0101_0101_0101) >> 56) as usize
            }
            Kind::EdgeX => {
                let x = ((board >> 9) & 1) | ((board >> (5 + n)) & 2);
                ((board & ((1 << n) - 1)) | (x << n)) as usize
            }
            Kind::Corner2x5 => ((board & 0x1f) | ((board >> 3) & 0x3e0)) as usize,
        }
    }
}

/// The rows of an `n`×`n` board upside down.
fn flip_rows(n: u32, b: u64) -> u64 {
    b.swap_bytes() >> (8 * (8 - n))
}

/// The columns of an `n`×`n` board right to left.
fn flip_columns(n: u32, b: u64) -> u64 {
    let b = ((b >> 1) & 0x5555_5555_5555_5555) | ((b & 0x5555_5555_5555_5555) << 1);
    let b = ((b >> 2) & 0x3333_3333_3333_3333) | ((b & 0x3333_3333_3333_3333) << 2);
    let b = ((b >> 4) & 0x0f0f_0f0f_0f0f_0f0f) | ((b & 0x0f0f_0f0f_0f0f_0f0f) << 4);
    b >> (8 - n)
}

/// Square (r, c) to (c, r).
fn transpose(b: u64) -> u64 {
    let t = 0x0f0f_0f0f_0000_0000 & (b ^ (b << 28));
    let b = b ^ t ^ (t >> 28);
    let t = 0x3333_0000_3333_0000 & (b ^ (b << 14));
    let b = b ^ t ^ (t >> 14);
    let t = 0x5500_5500_5500_5500 & (b ^ (b << 7));
    b ^ t ^ (t >> 7)
}

/// The board seen through each of the 8 symmetries: view `t` has at (r, c) what `board`
/// has at `orient(n, t, (r, c))`, so a pattern's instance in orientation `t` is the pattern
/// itself read from view `t`.
fn views(n: u32, board: u64) -> [u64; 8] {
    let v = flip_rows(n, board);
    let h = flip_columns(n, board);
    let vh = flip_rows(n, h);
    [
        board,
        v,
        h,
        vh,
        transpose(board),
        transpose(v),
        transpose(h),
        transpose(vh),
    ]
}

/// The 8 symmetries of an `n`×`n` board as maps of (row, column).
fn orient(n: usize, t: usize, (r, c): (usize, usize)) -> (usize, usize) {
    let (r, c) = if t & 4 != 0 { (c, r) } else { (r, c) };
    let r = if t & 1 != 0 { n - 1 - r } else { r };
    let c = if t & 2 != 0 { n - 1 - c } else { c };
    (r, c)
}

/// The base-3 index of one pattern instance: its squares, most significant first, each 0
/// empty, 1 the mover's, 2 the opponent's. The plain reading, square by square, that the
/// tests hold the fast one to.
#[cfg(test)]
fn index(squares: &[u8], p: u64, o: u64) -> usize {
    let mut index = 0usize;
    for &sq in squares {
        index = index * 3 + ((p >> sq) & 1) as usize + 2 * ((o >> sq) & 1) as usize;
    }
    index
}

impl Patterns {
    /// All-zero weights for an `size`×`size` board with `stages` stages of `stage_width`
    /// empty squares each, with the patterns of format [`VERSION`].
    ///
    /// # Errors
    ///
    /// A size other than 4, 6 or 8, or stages outside the limits.
    pub fn zeros(size: usize, stages: usize, stage_width: usize) -> Result<Patterns, EvalError> {
        Patterns::zeros_in(VERSION, size, stages, stage_width)
    }

    /// [`Patterns::zeros`] with the pattern set of format `version` (1 or 2).
    ///
    /// # Errors
    ///
    /// Another version, a size other than 4, 6 or 8, or stages outside the limits.
    pub fn zeros_in(
        version: u32,
        size: usize,
        stages: usize,
        stage_width: usize,
    ) -> Result<Patterns, EvalError> {
        if !(1..=VERSION).contains(&version) {
            return Err(EvalError::Version(version));
        }
        if ![4, 6, 8].contains(&size) {
            return Err(EvalError::Size(size as u32));
        }
        if !(1..=MAX_STAGES).contains(&stages) || stage_width == 0 || stage_width > 64 {
            return Err(EvalError::Stages(stages as u32, stage_width as u32));
        }
        let mut instances = Vec::new();
        let mut readers = Vec::new();
        let mut offset = 0;
        for (kind, shape) in shapes(size, version) {
            let mut seen: Vec<Vec<u8>> = Vec::new();
            for t in 0..8 {
                let squares: Vec<u8> = shape
                    .iter()
                    .map(|&rc| {
                        let (r, c) = orient(size, t, rc);
                        (r * 8 + c) as u8
                    })
                    .collect();
                if !seen.contains(&squares) {
                    seen.push(squares);
                    readers.push(Reader {
                        offset: offset as u32,
                        kind,
                        view: t as u8,
                        len: shape.len() as u8,
                    });
                }
            }
            instances.extend(seen.into_iter().map(|s| (offset, s)));
            offset += 3usize.pow(shape.len() as u32);
        }
        let digits = (0..=10u32)
            .map(|len| {
                (0..1usize << len)
                    .map(|m| {
                        (0..len)
                            .filter(|&i| m >> i & 1 == 1)
                            .map(|i| 3u16.pow(len - 1 - i))
                            .sum()
                    })
                    .collect()
            })
            .collect();
        let per_stage = offset + 2;
        Ok(Patterns {
            size,
            version,
            mask: board_mask(size as u8),
            stages,
            stage_width,
            instances,
            readers,
            digits,
            per_stage,
            error: (version >= 2).then_some(64.0),
            weights: vec![0.0; stages * per_stage],
        })
    }

    /// The board size.
    pub fn size(&self) -> usize {
        self.size
    }

    /// The format version, which fixes the pattern set.
    pub fn version(&self) -> u32 {
        self.version
    }

    /// The fit's rms error on held-out positions, in discs, when the file records it
    /// (format 2 does): the unit of the solver's probcut margins.
    pub fn error(&self) -> Option<f32> {
        self.error
    }

    /// Records the fit's held-out error (format 2 writes it; it must be in 0 < e ≤ 64).
    ///
    /// # Errors
    ///
    /// [`EvalError::Error`] outside that range, [`EvalError::Version`] in format 1.
    pub fn set_error(&mut self, error: f32) -> Result<(), EvalError> {
        if self.version < 2 {
            return Err(EvalError::Version(self.version));
        }
        if !(error > 0.0 && error <= 64.0) {
            return Err(EvalError::Error(error));
        }
        self.error = Some(error);
        Ok(())
    }

    /// The header's length in this format.
    fn header(version: u32) -> usize {
        if version >= 2 {
            HEADER + 4
        } else {
            HEADER
        }
    }

    /// The number of stages.
    pub fn stages(&self) -> usize {
        self.stages
    }

    /// Weights per stage: the pattern tables, then mobility, then the bias.
    pub fn per_stage(&self) -> usize {
        self.per_stage
    }

    /// The stage of a position with `empties` empty squares.
    pub fn stage(&self, empties: u32) -> usize {
        (empties as usize / self.stage_width).min(self.stages - 1)
    }

    /// All weights, stage by stage.
    pub fn weights(&self) -> &[f32] {
        &self.weights
    }

    /// All weights, for fitting.
    pub fn weights_mut(&mut self) -> &mut [f32] {
        &mut self.weights
    }

    /// The position's features for the side with `p` to move (`o` the opponent's discs):
    /// its stage, the index within the stage of every pattern
    /// instance's weight (into `active`), and the mobility (the mover's legal moves minus
    /// the opponent's).
    pub fn features(&self, p: u64, o: u64, active: &mut Vec<u32>) -> (usize, f32) {
        active.clear();
        let (mine, theirs) = (views(self.size as u32, p), views(self.size as u32, o));
        active.extend(
            self.readers
                .iter()
                .map(|r| r.offset + u32::from(self.read(r, &mine, &theirs))),
        );
        let empties = (self.mask & !(p | o)).count_ones();
        (
            self.stage(empties),
            self.mobility(p, o, moves(p, o, self.mask)),
        )
    }

    /// The prediction from a position's [`Patterns::features`], given its stage's weights
    /// (`weights()[stage · per_stage()..][..per_stage()]`): what [`Patterns::score`] gives,
    /// for fitting.
    pub fn predict(stage_weights: &[f32], active: &[u32], mobility: f32) -> f32 {
        let n = stage_weights.len();
        active
            .iter()
            .map(|&i| stage_weights[i as usize])
            .sum::<f32>()
            + stage_weights[n - 2] * mobility
            + stage_weights[n - 1]
    }

    /// The predicted final margin for the side with `p` to move.
    pub fn score(&self, p: u64, o: u64) -> f32 {
        self.score_with_moves(p, o, moves(p, o, self.mask))
    }

    /// [`Patterns::score`] for a caller that has the mover's legal moves `legal` at hand.
    pub fn score_with_moves(&self, p: u64, o: u64, legal: u64) -> f32 {
        let empties = (self.mask & !(p | o)).count_ones();
        let w = &self.weights[self.stage(empties) * self.per_stage..][..self.per_stage];
        self.table_sum(w, p, o)
            + w[self.per_stage - 2] * self.mobility(p, o, legal)
            + w[self.per_stage - 1]
    }

    /// The sum of the weights in `w` (one stage's) that the position's pattern instances
    /// read.
    fn table_sum(&self, w: &[f32], p: u64, o: u64) -> f32 {
        let (mine, theirs) = (views(self.size as u32, p), views(self.size as u32, o));
        let at = |r: &Reader| r.offset as usize + usize::from(self.read(r, &mine, &theirs));
        // Four sums side by side: one chain of dependent additions held the evaluation up
        // (the table reads do not depend on each other).
        let (mut a, mut b, mut c, mut d) = (0.0, 0.0, 0.0, 0.0);
        let mut quads = self.readers.chunks_exact(4);
        for quad in &mut quads {
            let (i, j, k, l) = (at(&quad[0]), at(&quad[1]), at(&quad[2]), at(&quad[3]));
            a += w[i];
            b += w[j];
            c += w[k];
            d += w[l];
        }
        let rest = quads.remainder().iter().fold(0.0, |sum, r| sum + w[at(r)]);
        (a + b) + (c + d) + rest
    }

    /// The index within its table of one instance's configuration, from the 8 views of the
    /// mover's discs and of the opponent's.
    #[inline(always)]
    fn read(&self, r: &Reader, mine: &[u64; 8], theirs: &[u64; 8]) -> u16 {
        let n = self.size as u32;
        let t = usize::from(r.view);
        let digits = &self.digits[usize::from(r.len)];
        ternary(digits, |b| r.kind.gather(n, b), mine[t], theirs[t])
    }

    /// The mover's legal moves (`legal`) minus the opponent's.
    fn mobility(&self, p: u64, o: u64, legal: u64) -> f32 {
        legal.count_ones() as f32 - moves(o, p, self.mask).count_ones() as f32
    }

    /// The file's bytes (format in the module docs).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out =
            Vec::with_capacity(Patterns::header(self.version) + 4 * self.weights.len() + CHECKSUM);
        out.extend_from_slice(&MAGIC);
        for v in [
            self.version,
            self.size as u32,
            self.stages as u32,
            self.stage_width as u32,
            self.per_stage as u32,
        ] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        if let Some(error) = self.error {
            out.extend_from_slice(&error.to_le_bytes());
        }
        for w in &self.weights {
            out.extend_from_slice(&w.to_le_bytes());
        }
        let sum = fnv1a(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// Reads a file written by [`Patterns::to_bytes`].
    ///
    /// # Errors
    ///
    /// An [`EvalError`] for the first check that fails (see the module docs).
    pub fn from_bytes(bytes: &[u8]) -> Result<Patterns, EvalError> {
        if bytes.len() < HEADER + CHECKSUM {
            return Err(EvalError::TooShort(bytes.len()));
        }
        if bytes[..8] != MAGIC {
            return Err(EvalError::Magic);
        }
        let word = |i: usize| {
            let at = 8 + 4 * i;
            u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
        };
        let version = word(0);
        if !(1..=VERSION).contains(&version) {
            return Err(EvalError::Version(version));
        }
        let (size, stages, width, count) = (word(1), word(2), word(3), word(4));
        if ![4, 6, 8].contains(&size) {
            return Err(EvalError::Size(size));
        }
        let mut patterns =
            Patterns::zeros_in(version, size as usize, stages as usize, width as usize)
                .map_err(|_| EvalError::Stages(stages, width))?;
        if count as usize != patterns.per_stage {
            return Err(EvalError::Count {
                expected: patterns.per_stage,
                found: count as usize,
            });
        }
        let header = Patterns::header(version);
        let expected = header + 4 * patterns.weights.len() + CHECKSUM;
        if bytes.len() != expected {
            return Err(EvalError::Length {
                expected,
                found: bytes.len(),
            });
        }
        let (body, sum) = bytes.split_at(expected - CHECKSUM);
        let mut stored = [0u8; 8];
        stored.copy_from_slice(sum);
        if u64::from_le_bytes(stored) != fnv1a(body) {
            return Err(EvalError::Checksum);
        }
        for (i, (w, b)) in patterns
            .weights
            .iter_mut()
            .zip(body[header..].chunks_exact(4))
            .enumerate()
        {
            *w = f32::from_le_bytes([b[0], b[1], b[2], b[3]]);
            if !w.is_finite() {
                return Err(EvalError::NotFinite(i));
            }
        }
        if version >= 2 {
            let at = HEADER;
            let error = f32::from_le_bytes([body[at], body[at + 1], body[at + 2], body[at + 3]]);
            patterns.set_error(error)?;
        }
        Ok(patterns)
    }
}

/// Units of a disc in a [`Scorer`]'s fixed-point weights.
const FIXED_ONE: f32 = 256.0;

/// The most a [`Scorer`] weight may be, in its units (32 discs): up to four fold into one
/// `i16` without saturating.
const FIXED_MAX: f32 = 8191.0;

/// The patterns made fast for the solver's move ordering, with the same sum as
/// [`Patterns::score`] but for rounding:
///
/// - **fixed point:** each weight an `i16` in 256ths of a disc (rounded, and saturated at
///   ±32 discs, far beyond any fitted weight: a margin is at most 64). Half the bytes of
///   `f32`: a stage of the 8×8 format-2 tables is 348 KB instead of 695 KB, within a 512 KB
///   L2 cache; the table reads were most of the evaluation's time.
/// - **folded:** many instances read the same squares as another in another order (a row
///   read from each end, the 3×3 corner across its diagonal). Their weights add up to one
///   table indexed by either reading, `w[i] + w[π(i)]`, so only one of them is read: 50
///   table reads instead of 92 on 8×8 (format 2). Exact in integers.
/// - **updated move by move:** the ordering search scores every child of a node one ply
///   above its leaves. [`Scorer::indices`] reads the node's board once;
///   [`Scorer::eighths_after`] then scores each child from those indices, changed only at
///   the squares its move fills and flips (a few of the 50 reads each), as Edax and Zebra
///   update their patterns.
///
/// So the sum differs from [`Patterns::score`] only by the weights' rounding (at most 1/512
/// disc each).
#[derive(Clone, Debug)]
pub struct Scorer {
    patterns: std::sync::Arc<Patterns>,
    /// The folded tables, then mobility and the bias, in the layout of the patterns'
    /// weights.
    weights: Vec<i16>,
    /// The instances still read, by shape: each shape's instances read in one loop whose
    /// gathering is known at compile time, not chosen per instance.
    groups: Vec<Group>,
    /// Per instance read (in the order of `groups`), its table's offset within a stage.
    offsets: Vec<u32>,
    /// Per square, the instances that read it and the place value of its digit there
    /// (`touches[from[sq]..from[sq + 1]]`).
    touches: Vec<(u8, u16)>,
    from: Vec<u16>,
}

/// The most instances a [`Scorer`] reads (8×8, format 2: 50).
const MAX_READS: usize = 64;

/// A position's pattern indices, per instance a [`Scorer`] reads, from both sides: what
/// [`Scorer::eighths_after`] updates for each move.
#[derive(Clone, Copy, Debug)]
pub struct Indices {
    /// The mover's discs counting 1, the opponent's 2.
    mover: [u16; MAX_READS],
    /// The opponent's discs counting 1, the mover's 2: the indices one move later start
    /// from these.
    other: [u16; MAX_READS],
}

/// The base-3 index of a shape's squares, `gather` taking them from a view into a mask:
/// the mover's discs count 1, the opponent's 2 (`digits` the masks to base 3).
#[inline(always)]
fn ternary(digits: &[u16], gather: impl Fn(u64) -> usize, mine: u64, theirs: u64) -> u16 {
    digits[gather(mine)] + 2 * digits[gather(theirs)]
}

/// Instances of one shape, for [`Scorer::indices`]: the view each is read from.
#[derive(Clone, Debug)]
struct Group {
    kind: Kind,
    len: u8,
    views: Vec<u8>,
}

/// The indices of the instances of one shape read from `views` (one per instance), into
/// `mover` and `other` (see [`Indices`]); `gather` takes the shape's squares from a view
/// into a mask and `digits` the mask to base 3.
#[inline(always)]
fn group_indices(
    views: &[u8],
    digits: &[u16],
    (mine, theirs): (&[u64; 8], &[u64; 8]),
    gather: impl Fn(u64) -> usize,
    (mover, other): (&mut [u16], &mut [u16]),
) {
    for ((&view, m), t) in views.iter().zip(mover).zip(other) {
        let v = usize::from(view & 7);
        let (a, b) = (digits[gather(mine[v])], digits[gather(theirs[v])]);
        *m = a + 2 * b;
        *t = b + 2 * a;
    }
}

/// For each instance of `patterns` that is read, the permutations that give the instances
/// reading the same squares (itself included): instance `b` with permutation `π` reads at
/// position `k` the square the kept one reads at `π(k)`. `None` for an instance folded
/// into another. A pattern is folded only when every group of its instances has the same
/// permutations (so one table serves them all); otherwise each instance stays.
fn folds(patterns: &Patterns) -> Vec<Option<Vec<Vec<usize>>>> {
    let instances = &patterns.instances;
    let mut group = vec![usize::MAX; instances.len()];
    let mut perms: Vec<Vec<Vec<usize>>> = Vec::new();
    for a in 0..instances.len() {
        if group[a] != usize::MAX {
            continue;
        }
        let (offset, first) = &instances[a];
        let mut sorted = first.clone();
        sorted.sort_unstable();
        let mut found = Vec::new();
        for (b, (other_offset, squares)) in instances.iter().enumerate().skip(a) {
            let mut other = squares.clone();
            other.sort_unstable();
            if group[b] == usize::MAX && other_offset == offset && other == sorted {
                group[b] = perms.len();
                let perm = squares
                    .iter()
                    .map(|sq| first.iter().position(|f| f == sq).unwrap_or(0))
                    .collect();
                found.push(perm);
            }
        }
        found.sort_unstable();
        perms.push(found);
    }
    // Per pattern (table offset): do all its groups fold alike?
    let alike = |offset: usize| {
        let mut of_pattern = (0..instances.len())
            .filter(|&i| instances[i].0 == offset)
            .map(|i| &perms[group[i]]);
        let first = of_pattern.next();
        of_pattern.all(|p| Some(p) == first)
    };
    (0..instances.len())
        .map(|i| {
            let leader = (0..i).all(|j| group[j] != group[i]);
            if !alike(instances[i].0) {
                Some(vec![(0..instances[i].1.len()).collect()])
            } else if leader {
                Some(perms[group[i]].clone())
            } else {
                None
            }
        })
        .collect()
}

/// The index of configuration `index` of a `len`-square pattern read in the order `perm`:
/// its `k`th digit is digit `perm[k]` of `index` (first most significant).
fn permuted(index: usize, len: usize, perm: &[usize]) -> usize {
    let mut digits = [0; 16];
    let mut rest = index;
    for d in digits[..len].iter_mut().rev() {
        *d = rest % 3;
        rest /= 3;
    }
    perm.iter().fold(0, |acc, &j| acc * 3 + digits[j])
}

impl Scorer {
    /// The fast form of `patterns`.
    pub fn new(patterns: std::sync::Arc<Patterns>) -> Scorer {
        let fixed = |w: f32| (w * FIXED_ONE).round().clamp(-FIXED_MAX, FIXED_MAX) as i16;
        let per = patterns.per_stage;
        let plan = folds(&patterns);
        let mut weights: Vec<i16> = patterns.weights.iter().map(|&w| fixed(w)).collect();
        let mut kept = Vec::new();
        let mut done = Vec::new();
        for (i, perms) in plan.iter().enumerate() {
            let Some(perms) = perms else { continue };
            kept.push(i);
            let (offset, squares) = &patterns.instances[i];
            if done.contains(offset) || perms.len() == 1 {
                continue;
            }
            done.push(*offset);
            let len = squares.len();
            let sources: Vec<Vec<usize>> = perms
                .iter()
                .map(|p| {
                    (0..3usize.pow(len as u32))
                        .map(|i| permuted(i, len, p))
                        .collect()
                })
                .collect();
            for stage in weights.chunks_exact_mut(per) {
                let table = &mut stage[*offset..][..3usize.pow(len as u32)];
                let raw = table.to_vec();
                for (index, w) in table.iter_mut().enumerate() {
                    let sum: i32 = sources.iter().map(|s| i32::from(raw[s[index]])).sum();
                    // Groups are of two readings on every board here; more would saturate.
                    *w = sum.clamp(-32767, 32767) as i16;
                }
            }
        }
        // The pattern sets are fixed by the format version; none reads more.
        assert!(kept.len() <= MAX_READS, "{} pattern reads", kept.len());
        let mut groups: Vec<Group> = Vec::new();
        for &i in &kept {
            let r = patterns.readers[i];
            match groups.last_mut() {
                Some(g) if g.kind == r.kind && g.len == r.len => g.views.push(r.view),
                _ => groups.push(Group {
                    kind: r.kind,
                    len: r.len,
                    views: vec![r.view],
                }),
            }
        }
        // `groups` keeps the instances in order, so read `k` is instance `kept[k]`.
        let offsets = kept.iter().map(|&i| patterns.readers[i].offset).collect();
        let (mut touches, mut from) = (Vec::new(), vec![0u16]);
        for sq in 0..64u8 {
            for (k, &i) in kept.iter().enumerate() {
                let squares = &patterns.instances[i].1;
                if let Some(at) = squares.iter().position(|&s| s == sq) {
                    let place = 3u16.pow((squares.len() - 1 - at) as u32);
                    touches.push((k as u8, place));
                }
            }
            from.push(touches.len() as u16);
        }
        Scorer {
            patterns,
            weights,
            groups,
            offsets,
            touches,
            from,
        }
    }

    /// The patterns this scores with.
    pub fn patterns(&self) -> &Patterns {
        &self.patterns
    }

    /// How many table reads one evaluation makes.
    pub fn reads(&self) -> usize {
        self.offsets.len()
    }

    /// The predicted final margin for the side with `p` to move, whose legal moves are
    /// `legal`, in eighths of a disc (rounded half up).
    pub fn eighths(&self, p: u64, o: u64, legal: u64) -> i32 {
        self.total(p, o, legal, &self.indices(p, o).mover)
    }

    /// The pattern indices of the position with `p` to move, from both sides.
    pub fn indices(&self, p: u64, o: u64) -> Indices {
        let patterns = &*self.patterns;
        let n = patterns.size as u32;
        let views = (&views(n, p), &views(n, o));
        let mut out = Indices {
            mover: [0; MAX_READS],
            other: [0; MAX_READS],
        };
        let mut first = 0;
        for g in &self.groups {
            let (v, digits) = (&g.views[..], &patterns.digits[usize::from(g.len)][..]);
            let end = first + v.len();
            let to = (&mut out.mover[first..end], &mut out.other[first..end]);
            // Each arm names its shape, so its gathering is compiled for that shape alone.
            match g.kind {
                Kind::Row(r) => group_indices(v, digits, views, |b| Kind::Row(r).gather(n, b), to),
                Kind::Corner => group_indices(v, digits, views, |b| Kind::Corner.gather(n, b), to),
                Kind::Diagonal(len) => {
                    group_indices(v, digits, views, |b| Kind::Diagonal(len).gather(n, b), to);
                }
                Kind::EdgeX => group_indices(v, digits, views, |b| Kind::EdgeX.gather(n, b), to),
                Kind::Corner2x5 => {
                    group_indices(v, digits, views, |b| Kind::Corner2x5.gather(n, b), to);
                }
            }
            first = end;
        }
        out
    }

    /// [`Scorer::eighths`] of the position after a move, from the indices of the position
    /// before it (`before`, [`Scorer::indices`]): the move put a disc on `sq` and flipped
    /// `flipped`; `p` and `o` are the discs after it, `p` the new mover's (the one who did
    /// not move), and `legal` its legal moves. The board is not read again: only the
    /// instances through the squares that changed are.
    pub fn eighths_after(
        &self,
        before: &Indices,
        sq: u32,
        flipped: u64,
        (p, o): (u64, u64),
        legal: u64,
    ) -> i32 {
        // The new mover was the opponent before: its discs count 1, the other side's 2.
        let mut index = before.other;
        let mut add = |sq: u32, digit: u16| {
            let sq = sq as usize;
            let (a, b) = (usize::from(self.from[sq]), usize::from(self.from[sq + 1]));
            for &(k, place) in &self.touches[a..b] {
                index[usize::from(k)] += digit * place;
            }
        };
        // The new disc is the other side's (0 to 2); each flipped disc was the mover's
        // and is now the other side's (1 to 2).
        add(sq, 2);
        let mut rest = flipped;
        while rest != 0 {
            add(rest.trailing_zeros(), 1);
            rest &= rest - 1;
        }
        self.total(p, o, legal, &index)
    }

    /// The margin from the position's indices (`index`, the mover's discs counting 1),
    /// its mobility and the bias, in eighths.
    fn total(&self, p: u64, o: u64, legal: u64, index: &[u16; MAX_READS]) -> i32 {
        let patterns = &*self.patterns;
        let empties = (patterns.mask & !(p | o)).count_ones();
        let per = patterns.per_stage;
        let w = &self.weights[patterns.stage(empties) * per..][..per];
        let (mobility, bias) = (i32::from(w[per - 2]), i32::from(w[per - 1]));
        let moves = patterns.mobility(p, o, legal) as i32;
        let at = |k: usize| i32::from(w[self.offsets[k] as usize + usize::from(index[k])]);
        // Two sums side by side: the table reads do not depend on each other.
        let (mut a, mut b) = (0, 0);
        let reads = self.offsets.len();
        let mut k = 0;
        while k + 1 < reads {
            a += at(k);
            b += at(k + 1);
            k += 2;
        }
        if k < reads {
            a += at(k);
        }
        // 256ths to eighths: 32 to one.
        (mobility * moves + bias + a + b + 16).div_euclid(32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    fn random(size: usize, seed: u64) -> Patterns {
        random_in(VERSION, size, seed)
    }

    fn random_in(version: u32, size: usize, seed: u64) -> Patterns {
        let mut patterns = Patterns::zeros_in(version, size, 5, 4).expect("a valid shape");
        let mut rng = Rng::new(seed);
        for w in patterns.weights_mut() {
            *w = rng.below(2001) as f32 / 100.0 - 10.0;
        }
        patterns
    }

    /// A position with about a third of the squares of each kind.
    fn position(size: usize, rng: &mut Rng) -> (u64, u64) {
        let (mut p, mut o) = (0, 0);
        for r in 0..size {
            for c in 0..size {
                match rng.below(3) {
                    0 => p |= 1u64 << (r * 8 + c),
                    1 => o |= 1u64 << (r * 8 + c),
                    _ => {}
                }
            }
        }
        (p, o)
    }

    fn mirror(size: usize, t: usize, bits: u64) -> u64 {
        let mut out = 0;
        for r in 0..size {
            for c in 0..size {
                if bits >> (r * 8 + c) & 1 == 1 {
                    let (r2, c2) = orient(size, t, (r, c));
                    out |= 1u64 << (r2 * 8 + c2);
                }
            }
        }
        out
    }

    #[test]
    fn the_score_is_the_same_for_every_mirror_image_and_is_the_sum_of_the_features() {
        for size in [6, 8] {
            let patterns = random(size, 3);
            let mut rng = Rng::new(4);
            let mut active = Vec::new();
            for _ in 0..50 {
                let (p, o) = position(size, &mut rng);
                let score = patterns.score(p, o);
                for t in 1..8 {
                    let image = patterns.score(mirror(size, t, p), mirror(size, t, o));
                    assert!((image - score).abs() < 1e-3, "{size}: {t}: {image} {score}");
                }
                let (stage, mobility) = patterns.features(p, o, &mut active);
                let w = &patterns.weights()[stage * patterns.per_stage()..][..patterns.per_stage()];
                let n = patterns.per_stage();
                let sum: f32 = active.iter().map(|&i| w[i as usize]).sum::<f32>()
                    + w[n - 2] * mobility
                    + w[n - 1];
                assert!((sum - score).abs() < 1e-3);
                assert!(active.iter().all(|&i| (i as usize) < n - 2));
            }
        }
    }

    #[test]
    fn the_fast_reading_gives_every_instance_the_index_of_reading_it_square_by_square() {
        for (version, size) in (1..=VERSION).flat_map(|v| [(v, 4), (v, 6), (v, 8)]) {
            let patterns = random_in(version, size, 5);
            assert_eq!(patterns.readers.len(), patterns.instances.len());
            let mut rng = Rng::new(6);
            let mut active = Vec::new();
            // 300 random positions, the full and the empty board, one square at a time.
            let random: Vec<(u64, u64)> = (0..300).map(|_| position(size, &mut rng)).collect();
            let single = (0..64)
                .filter(|sq| patterns.mask >> sq & 1 == 1)
                .map(|sq| (1u64 << sq, 0));
            for (p, o) in random
                .into_iter()
                .chain([(patterns.mask, 0), (0, patterns.mask), (0, 0)])
                .chain(single)
            {
                patterns.features(p, o, &mut active);
                let plain: Vec<u32> = patterns
                    .instances
                    .iter()
                    .map(|(offset, squares)| (offset + index(squares, p, o)) as u32)
                    .collect();
                assert_eq!(active, plain, "{version} {size}: {p:#x} {o:#x}");
            }
        }
    }

    #[test]
    fn eight_by_eight_has_the_patterns_the_docs_list() {
        let patterns = Patterns::zeros_in(1, 8, 1, 64).unwrap();
        // Rows 1-4 (3^8 each), the 3x3 corner, diagonals of 8 down to 4 squares; then
        // mobility and the bias.
        let tables = 4 * 6561 + 19683 + 6561 + 2187 + 729 + 243 + 81;
        assert_eq!(patterns.per_stage(), tables + 2);
        // 8 orientations of each row and corner, 4 of the long diagonal, 8 of the others.
        assert_eq!(patterns.instances.len(), 4 * 8 + 8 + 4 + 4 * 8);
        assert_eq!(patterns.stage(60), 0);
        // Version 2 adds the edge with its X-squares and the 2x5 corner, 8 of each.
        let two = Patterns::zeros_in(2, 8, 1, 64).unwrap();
        assert_eq!(two.per_stage(), tables + 2 * 59049 + 2);
        assert_eq!(two.instances.len(), patterns.instances.len() + 16);
        // 4x4 has no room for the 2x5 corner: the edge with X-squares is 6 squares.
        let small = Patterns::zeros_in(2, 4, 1, 64).unwrap();
        let small_one = Patterns::zeros_in(1, 4, 1, 64).unwrap();
        assert_eq!(small.per_stage(), small_one.per_stage() + 729);
    }

    #[test]
    fn the_scorer_sums_the_rounded_weights_of_every_instance_exactly() {
        for (version, size) in (1..=VERSION).flat_map(|v| [(v, 4), (v, 6), (v, 8)]) {
            let patterns = std::sync::Arc::new(random_in(version, size, 11));
            let scorer = Scorer::new(std::sync::Arc::clone(&patterns));
            let fixed = |w: f32| (w * FIXED_ONE).round() as i32;
            let mut rng = Rng::new(12);
            for _ in 0..300 {
                let (p, o) = position(size, &mut rng);
                let legal = moves(p, o, patterns.mask);
                let empties = (patterns.mask & !(p | o)).count_ones();
                let per = patterns.per_stage();
                let w = &patterns.weights()[patterns.stage(empties) * per..][..per];
                // Every instance read square by square, in integers.
                let mobility =
                    legal.count_ones() as i32 - moves(o, p, patterns.mask).count_ones() as i32;
                let sum: i32 = patterns
                    .instances
                    .iter()
                    .map(|(offset, squares)| fixed(w[offset + index(squares, p, o)]))
                    .sum::<i32>()
                    + fixed(w[per - 2]) * mobility
                    + fixed(w[per - 1]);
                assert_eq!(
                    scorer.eighths(p, o, legal),
                    (sum + 16).div_euclid(32),
                    "{version} {size}: {p:#x} {o:#x}"
                );
                // And the float score, within the rounding of 100 weights.
                let eighths = scorer.eighths(p, o, legal) as f32;
                let score = patterns.score_with_moves(p, o, legal);
                assert!((eighths - 8.0 * score).abs() <= 0.5 + 8.0 * 100.0 / 512.0);
            }
        }
        // Rows, the 3x3 corner, the diagonals and the edge with its X-squares are each read
        // once per pair of readings: on 8x8, 38 reads of 76 in format 1, 50 of 92 in 2 (the
        // 2x5 corner has no such pair).
        let reads = |version| Scorer::new(std::sync::Arc::new(random_in(version, 8, 1))).reads();
        assert_eq!((reads(1), reads(2)), (38, 50));
    }

    #[test]
    fn a_child_scored_from_its_parents_indices_scores_as_read_from_its_board() {
        for (version, size) in (1..=VERSION).flat_map(|v| [(v, 4), (v, 6), (v, 8)]) {
            let patterns = std::sync::Arc::new(random_in(version, size, 13));
            let scorer = Scorer::new(std::sync::Arc::clone(&patterns));
            let mask = patterns.mask;
            let mut rng = Rng::new(14);
            let mut children = 0;
            for _ in 0..300 {
                let (p, o) = position(size, &mut rng);
                let before = scorer.indices(p, o);
                let mut rest = moves(p, o, mask);
                while rest != 0 {
                    let sq = rest.trailing_zeros();
                    rest &= rest - 1;
                    let f = crate::othello::flips(p, o, sq as usize);
                    let (np, no) = (o ^ f, p | f | (1u64 << sq));
                    let legal = moves(np, no, mask);
                    assert_eq!(
                        scorer.eighths_after(&before, sq, f, (np, no), legal),
                        scorer.eighths(np, no, legal),
                        "{version} {size}: {p:#x} {o:#x} {sq}"
                    );
                    children += 1;
                }
            }
            assert!(children > 300, "{version} {size}: {children} children");
        }
    }

    #[test]
    fn a_file_round_trips_and_every_damage_is_refused() {
        let mut patterns = random(6, 9);
        patterns.set_error(7.25).unwrap();
        let bytes = patterns.to_bytes();
        assert_eq!(Patterns::from_bytes(&bytes).as_ref(), Ok(&patterns));
        let old = random_in(1, 6, 9);
        assert_eq!(Patterns::from_bytes(&old.to_bytes()).as_ref(), Ok(&old));
        // A format-2 file no fit has recorded an error in says the most there is.
        let unfitted = random(6, 9);
        assert_eq!(unfitted.error(), Some(64.0));
        assert_eq!(Patterns::from_bytes(&unfitted.to_bytes()), Ok(unfitted));
        let damaged = |f: &dyn Fn(&mut Vec<u8>)| {
            let mut b = bytes.clone();
            f(&mut b);
            Patterns::from_bytes(&b).unwrap_err()
        };
        let word = |b: &mut Vec<u8>, i: usize, v: u32| {
            b[8 + 4 * i..12 + 4 * i].copy_from_slice(&v.to_le_bytes());
        };
        assert_eq!(damaged(&|b| b.truncate(20)), EvalError::TooShort(20));
        assert_eq!(damaged(&|b| b[0] = b'X'), EvalError::Magic);
        assert_eq!(damaged(&|b| word(b, 0, 7)), EvalError::Version(7));
        assert_eq!(damaged(&|b| word(b, 1, 7)), EvalError::Size(7));
        assert_eq!(damaged(&|b| word(b, 2, 0)), EvalError::Stages(0, 4));
        assert_eq!(damaged(&|b| word(b, 3, 0)), EvalError::Stages(5, 0));
        assert!(matches!(
            damaged(&|b| word(b, 4, 12)),
            EvalError::Count { found: 12, .. }
        ));
        assert!(matches!(
            damaged(&|b| b.truncate(b.len() - 3)),
            EvalError::Length { .. }
        ));
        assert!(matches!(damaged(&|b| b.push(0)), EvalError::Length { .. }));
        assert_eq!(damaged(&|b| b[100] ^= 1), EvalError::Checksum);
        // An error field out of range, with a checksum that matches it.
        let mut wild = random(6, 9);
        wild.error = Some(-1.0);
        assert_eq!(
            Patterns::from_bytes(&wild.to_bytes()),
            Err(EvalError::Error(-1.0))
        );
        for e in [f32::NAN, 0.0, 65.0, f32::INFINITY] {
            assert!(matches!(
                patterns.clone().set_error(e),
                Err(EvalError::Error(_))
            ));
        }
        assert_eq!(
            random_in(1, 6, 9).set_error(5.0),
            Err(EvalError::Version(1))
        );
        // A NaN with a checksum that matches it.
        let mut nan = random(6, 9);
        nan.weights_mut()[5] = f32::NAN;
        assert_eq!(
            Patterns::from_bytes(&nan.to_bytes()),
            Err(EvalError::NotFinite(5))
        );
        // An absurd stage count is refused before anything is allocated.
        assert_eq!(
            damaged(&|b| word(b, 2, u32::MAX)),
            EvalError::Stages(u32::MAX, 4)
        );
        for e in [EvalError::Magic, EvalError::Checksum, EvalError::Size(3)] {
            assert_eq!(e.to_string().lines().count(), 1);
        }
    }
}
