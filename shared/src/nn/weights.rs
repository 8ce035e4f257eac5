//! The weights file: a versioned header, the parameters as little-endian `f32`, a checksum.
//!
//! ```text
//! offset  bytes  field
//!      0      8  magic "GAMESNET"
//!      8      4  format version, u32 (1, 2 or 3)
//!     12     16  game name, ASCII, NUL-padded ("tictactoe", "othello", "go")
//!     28      4  board size (rows = columns)
//!     32      4  input planes per point
//!     36      4  trunk width (channels)
//!     40      4  residual blocks
//!     44      4  value head hidden units
//!     48      4  value head channels (from version 2; a version-1 file has 1)
//!     52      4  score head, 0 or 1 (version 3 only; older files have none)
//! 48/52/56    4  parameter count (must equal what the shape implies)
//! 52/56/60 4·count  parameters, f32 little-endian, in the network's layout order
//!    end      8  FNV-1a 64 of every byte before it, little-endian
//! ```
//!
//! All integers are little-endian `u32`. A network is written in the oldest version that
//! holds its shape, so files stay byte for byte what this code wrote before the newer
//! versions existed: version 1 with AlphaZero's one value channel, version 2 with more, and
//! version 3 only with a score head ([`Shape::score`]). A reader checks, in this order: the
//! length covers a header, the magic, the version, the game name, the score field (0 or 1),
//! the shape's limits, the count against the shape, the file's length against the count
//! (before allocating anything), the checksum, and that every parameter is finite.

use super::{Net, Shape};
use std::fmt;

/// The first eight bytes of a weights file.
pub const MAGIC: [u8; 8] = *b"GAMESNET";
/// The newest format version, which this code writes for a network with a score head; it
/// reads this one and every older one.
pub const VERSION: u32 = 3;
const NAME_BYTES: usize = 16;
/// The header's bytes in version 1; versions 2 and 3 add one field each.
const HEADER_1: usize = 52;
const CHECKSUM: usize = 8;

/// Header bytes of a format version.
const fn header(version: u32) -> usize {
    HEADER_1 + 4 * (version as usize - 1)
}

/// The oldest format version that holds `shape`.
const fn version_for(shape: &Shape) -> u32 {
    if shape.score {
        3
    } else if shape.value_channels == 1 {
        1
    } else {
        2
    }
}

/// Why a weights file was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WeightsError {
    /// Fewer bytes than a header and checksum.
    TooShort(usize),
    /// The file does not start with [`MAGIC`].
    Magic,
    /// A version this code does not read.
    Version(u32),
    /// The game name is not ASCII text.
    GameName,
    /// Weights for another game than the one asked for.
    WrongGame {
        /// The game the caller plays.
        expected: String,
        /// The game the file is for.
        found: String,
    },
    /// The shape is outside the limits, or not the one the caller needs.
    Shape(String),
    /// The parameter count does not match the shape.
    Count {
        /// What the shape needs.
        expected: usize,
        /// What the header says.
        found: usize,
    },
    /// The file's length does not match its parameter count.
    Length {
        /// Bytes the header implies.
        expected: usize,
        /// Bytes there are.
        found: usize,
    },
    /// The checksum does not match the contents.
    Checksum,
    /// A parameter is NaN or infinite.
    NotFinite(usize),
}

impl fmt::Display for WeightsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WeightsError::TooShort(n) => write!(
                f,
                "{n} bytes is too short for a weights file (a header and a checksum take {} \
                 bytes, {} in version 2, {} in version 3)",
                header(1) + CHECKSUM,
                header(2) + CHECKSUM,
                header(3) + CHECKSUM
            ),
            WeightsError::Magic => f.write_str("not a weights file (no GAMESNET magic)"),
            WeightsError::Version(v) => {
                write!(
                    f,
                    "weights format version {v}; this program reads 1 to {VERSION}"
                )
            }
            WeightsError::GameName => f.write_str("the game name in the header is not text"),
            WeightsError::WrongGame { expected, found } => {
                write!(f, "weights for {found}, not {expected}")
            }
            WeightsError::Shape(why) => write!(f, "bad shape: {why}"),
            WeightsError::Count { expected, found } => write!(
                f,
                "the header says {found} parameters; its shape has {expected}"
            ),
            WeightsError::Length { expected, found } => write!(
                f,
                "truncated or padded: {found} bytes, the header implies {expected}"
            ),
            WeightsError::Checksum => f.write_str("checksum mismatch: the file is corrupt"),
            WeightsError::NotFinite(i) => write!(f, "parameter {i} is not a finite number"),
        }
    }
}

impl std::error::Error for WeightsError {}

/// The checksum of a weights file (and of the trainer's checkpoints).
pub use crate::checksum::fnv1a;

fn u32_at(bytes: &[u8], at: usize) -> u32 {
    let mut b = [0; 4];
    b.copy_from_slice(&bytes[at..at + 4]);
    u32::from_le_bytes(b)
}

impl Net {
    /// The network as a weights file for `game`.
    ///
    /// # Panics
    ///
    /// If `game` is longer than 16 bytes or not ASCII.
    pub fn to_bytes(&self, game: &str) -> Vec<u8> {
        assert!(
            game.is_ascii() && game.len() <= NAME_BYTES,
            "a game name is at most 16 ASCII bytes"
        );
        let s = self.shape();
        let version = version_for(s);
        let mut out = Vec::with_capacity(header(version) + 4 * self.params.len() + CHECKSUM);
        out.extend_from_slice(&MAGIC);
        out.extend_from_slice(&version.to_le_bytes());
        let mut name = [0u8; NAME_BYTES];
        name[..game.len()].copy_from_slice(game.as_bytes());
        out.extend_from_slice(&name);
        let mut fields = vec![s.size, s.planes, s.width, s.blocks, s.hidden];
        if version >= 2 {
            fields.push(s.value_channels);
        }
        if version >= 3 {
            fields.push(usize::from(s.score));
        }
        fields.push(self.params.len());
        for v in fields {
            out.extend_from_slice(&(v as u32).to_le_bytes());
        }
        for p in &self.params {
            out.extend_from_slice(&p.to_le_bytes());
        }
        let sum = fnv1a(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// Reads a weights file, with the game it is for.
    ///
    /// # Errors
    ///
    /// A [`WeightsError`] for the first check that fails (see the module docs).
    pub fn from_bytes(bytes: &[u8]) -> Result<(Net, String), WeightsError> {
        if bytes.len() < HEADER_1 + CHECKSUM {
            return Err(WeightsError::TooShort(bytes.len()));
        }
        if bytes[..8] != MAGIC {
            return Err(WeightsError::Magic);
        }
        let version = u32_at(bytes, 8);
        if !(1..=VERSION).contains(&version) {
            return Err(WeightsError::Version(version));
        }
        let head = header(version);
        if bytes.len() < head + CHECKSUM {
            return Err(WeightsError::TooShort(bytes.len()));
        }
        let name = &bytes[12..12 + NAME_BYTES];
        let end = name.iter().position(|&b| b == 0).unwrap_or(NAME_BYTES);
        if end == 0
            || !name[..end].iter().all(u8::is_ascii_graphic)
            || name[end..].iter().any(|&b| b != 0)
        {
            return Err(WeightsError::GameName);
        }
        let game = String::from_utf8_lossy(&name[..end]).into_owned();
        let field = |i: usize| u32_at(bytes, 28 + 4 * i) as usize;
        let score = if version >= 3 { field(6) } else { 0 };
        if score > 1 {
            return Err(WeightsError::Shape(format!(
                "score head {score} is outside 0..=1"
            )));
        }
        let shape = Shape {
            size: field(0),
            planes: field(1),
            width: field(2),
            blocks: field(3),
            hidden: field(4),
            value_channels: if version >= 2 { field(5) } else { 1 },
            score: score == 1,
        };
        shape.check().map_err(|e| WeightsError::Shape(e.0))?;
        let expected = shape.layout().len;
        let found = field(4 + version as usize);
        if found != expected {
            return Err(WeightsError::Count { expected, found });
        }
        let length = head + 4 * expected + CHECKSUM;
        if bytes.len() != length {
            return Err(WeightsError::Length {
                expected: length,
                found: bytes.len(),
            });
        }
        let body = &bytes[..length - CHECKSUM];
        let mut sum = [0; 8];
        sum.copy_from_slice(&bytes[length - CHECKSUM..]);
        if fnv1a(body) != u64::from_le_bytes(sum) {
            return Err(WeightsError::Checksum);
        }
        let mut params = Vec::with_capacity(expected);
        for (i, chunk) in body[head..].chunks_exact(4).enumerate() {
            let mut b = [0; 4];
            b.copy_from_slice(chunk);
            let v = f32::from_le_bytes(b);
            if !v.is_finite() {
                return Err(WeightsError::NotFinite(i));
            }
            params.push(v);
        }
        let net = Net::from_params(shape, params).map_err(|e| WeightsError::Shape(e.0))?;
        Ok((net, game))
    }

    /// [`Net::from_bytes`] for a caller that plays `game` with a number of input planes in
    /// `planes` ([`crate::nn::planes_for`] gives the game's), on a `size`×`size` board
    /// (`None`: whatever size the file is for).
    ///
    /// # Errors
    ///
    /// As [`Net::from_bytes`], and [`WeightsError::WrongGame`] or [`WeightsError::Shape`]
    /// when the file is for another game or board.
    pub fn from_bytes_for(
        bytes: &[u8],
        game: &str,
        size: Option<usize>,
        planes: std::ops::RangeInclusive<usize>,
    ) -> Result<Net, WeightsError> {
        let (net, found) = Net::from_bytes(bytes)?;
        if found != game {
            return Err(WeightsError::WrongGame {
                expected: game.to_string(),
                found,
            });
        }
        let s = net.shape();
        let size = size.unwrap_or(s.size);
        if s.size != size || !planes.contains(&s.planes) {
            let planes = if planes.start() == planes.end() {
                planes.start().to_string()
            } else {
                format!("{}-{}", planes.start(), planes.end())
            };
            return Err(WeightsError::Shape(format!(
                "the file is for a {0}x{0} board with {1} planes, not {2}x{2} with {3}",
                s.size, s.planes, size, planes
            )));
        }
        Ok(net)
    }
}
