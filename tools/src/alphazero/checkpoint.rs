//! A trainer's whole state in one file, written atomically (a temporary file, then a
//! rename), so a run stopped at any moment resumes from its last generation.
//!
//! ```text
//! magic "GAMESCKP", version u32 (5; 1 to 4 are still read), game name (16 bytes, NUL-padded)
//! settings: u32 length, UTF-8 text (the Config as Debug prints it, with the learning-rate
//!   drops begun by the checkpoint's generation; resuming checks it, leaving later drops
//!   free; files written before this recorded all planned drops, and still resume)
//! generation u32, games u64, positions u64, seconds f64
//! network: u64 length, a weights file (games::nn's format, with its own checksum)
//! momentum: u32 count, f32 each
//! ownership head (from version 4): u32 count (0 without the head), that many f32
//!   parameters, then as many f32 momentum values
//! replay window: u32 count; per position: z (i8), q (f32, the search's value; not in
//!   version 1, where it reads as z), the final margin (i16, the game's score for the side
//!   to move; not before version 3, where it reads as z times the board's points), from
//!   version 5 the komi (i8, added to the side to move's score; z and the margin count
//!   it; before, 0), one byte
//!   per point (0 mine, 1 theirs, 2 empty), from version 4 one byte per point for the
//!   final owner (the same codes; 3 at every point: not known), the legal mask as bits
//!   (outputs / 8 rounded up), π as f32 per output
//! FNV-1a 64 of every byte before it
//! ```
//!
//! Everything is little-endian.

use super::{ownership_params, Config, Sample, Trainer};
use games::nn::{fnv1a, Encode, Net, WeightsError};
use std::collections::VecDeque;
use std::fmt;
use std::path::Path;

const MAGIC: &[u8; 8] = b"GAMESCKP";
const VERSION: u32 = 5;
/// When the checkpoint's positions gained q, the final margin, the final owners and the
/// komi.
const SINCE: Since = Since {
    q: 2,
    margin: 3,
    owner: 4,
    komi: 5,
};
/// The owner byte of every point of a position whose owners are not known.
const UNKNOWN_OWNER: u8 = 3;

/// Why a checkpoint could not be read or written.
#[derive(Debug)]
pub enum CheckpointError {
    /// Reading or writing the file failed.
    Io(std::io::Error),
    /// The file is not a checkpoint of this version, or is cut short or corrupt.
    Corrupt(String),
    /// The network inside is refused.
    Weights(WeightsError),
    /// The checkpoint was made for another game or with other settings.
    Mismatch(String),
}

impl fmt::Display for CheckpointError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CheckpointError::Io(e) => write!(f, "{e}"),
            CheckpointError::Corrupt(why) => write!(f, "not a usable checkpoint: {why}"),
            CheckpointError::Weights(e) => write!(f, "the network inside: {e}"),
            CheckpointError::Mismatch(why) => write!(f, "{why}"),
        }
    }
}

impl std::error::Error for CheckpointError {}

/// Writes `bytes` to `path` through a temporary file in the same folder and a rename, so
/// readers never see half a file.
///
/// # Errors
///
/// The I/O error, if any.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(format!(".tmp{}", std::process::id()));
    std::fs::write(&tmp, bytes)?;
    std::fs::rename(&tmp, path)
}

pub(super) struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
    /// Whether the file's positions carry q (see [`Layout`]).
    layout: Layout,
}

/// How a file lays out one position: with the search's value q, the final margin, the
/// final owners and the komi; without the komi; without the owners either; with q only;
/// or (the oldest files) with none. Each layout holds all that the one before it does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Layout {
    WithoutQ,
    WithQ,
    WithMargin,
    WithOwner,
    WithKomi,
}

/// The versions of a format from which its positions carry q, the margin, the owners and
/// the komi.
#[derive(Clone, Copy, Debug)]
pub(super) struct Since {
    pub(super) q: u32,
    pub(super) margin: u32,
    pub(super) owner: u32,
    pub(super) komi: u32,
}

impl Layout {
    /// The layout of a file of `version` in a format whose fields arrived as `since` says.
    pub(super) fn of(version: u32, since: Since) -> Layout {
        if version >= since.komi {
            Layout::WithKomi
        } else if version >= since.owner {
            Layout::WithOwner
        } else if version >= since.margin {
            Layout::WithMargin
        } else if version >= since.q {
            Layout::WithQ
        } else {
            Layout::WithoutQ
        }
    }
}

impl<'a> Reader<'a> {
    pub(super) fn new(bytes: &'a [u8], at: usize, layout: Layout) -> Reader<'a> {
        Reader { bytes, at, layout }
    }

    /// Bytes of one position on a `size`×`size` board in this file.
    pub(super) fn sample_bytes(&self, size: usize) -> usize {
        sample_bytes(size, self.layout)
    }

    /// How the file lays out a position.
    pub(super) fn layout(&self) -> Layout {
        self.layout
    }

    /// Whether everything has been read.
    pub(super) fn done(&self) -> bool {
        self.at == self.bytes.len()
    }

    /// One position on a `size`×`size` board, checked.
    pub(super) fn sample(&mut self, size: usize) -> Result<Sample, CheckpointError> {
        let (n, outputs) = (size * size, size * size + 1);
        let z = self.take(1, "positions")?[0] as i8;
        let q = if self.layout >= Layout::WithQ {
            f32::from_le_bytes(self.array("positions")?)
        } else {
            f32::from(z)
        };
        let margin = if self.layout >= Layout::WithMargin {
            i16::from_le_bytes(self.array("positions")?)
        } else {
            // A win by the whole board: the margin's share of the value target is then
            // the outcome, as the file's trainer had it.
            i16::from(z) * n as i16
        };
        let komi = if self.layout >= Layout::WithKomi {
            self.take(1, "positions")?[0] as i8
        } else {
            0
        };
        let cells = self.take(n, "positions")?.to_vec();
        let mut owner = Vec::new();
        if self.layout >= Layout::WithOwner {
            let bytes = self.take(n, "positions")?;
            let unknown = bytes.iter().all(|&b| b == UNKNOWN_OWNER);
            if !unknown {
                if bytes.iter().any(|&b| b > 2) {
                    return Err(CheckpointError::Corrupt(
                        "a stored position's owners are not valid".into(),
                    ));
                }
                owner = bytes.to_vec();
            }
        }
        let bits = self.take(bit_bytes(outputs), "positions")?;
        let legal = (0..outputs)
            .map(|i| bits[i / 8] >> (i % 8) & 1 == 1)
            .collect();
        let pi = self.f32s(outputs, "positions")?;
        let n_points = n as i32;
        if !(-1..=1).contains(&z)
            || !(-1.0..=1.0).contains(&q)
            || i32::from(margin).signum() != i32::from(z)
            || i32::from(komi).abs() > n_points
            || i32::from(margin).abs() > n_points + i32::from(komi).abs()
            || cells.iter().any(|&c| c > 2)
        {
            return Err(CheckpointError::Corrupt(
                "a stored position is not valid".into(),
            ));
        }
        Ok(Sample {
            cells,
            legal,
            pi,
            z,
            q,
            margin,
            owner,
            komi,
        })
    }

    pub(super) fn take(&mut self, n: usize, what: &str) -> Result<&'a [u8], CheckpointError> {
        if self.bytes.len() - self.at < n {
            return Err(CheckpointError::Corrupt(format!("cut short in the {what}")));
        }
        let out = &self.bytes[self.at..self.at + n];
        self.at += n;
        Ok(out)
    }

    pub(super) fn array<const N: usize>(&mut self, what: &str) -> Result<[u8; N], CheckpointError> {
        let mut out = [0; N];
        out.copy_from_slice(self.take(N, what)?);
        Ok(out)
    }

    /// `n` little-endian `f32` values.
    pub(super) fn f32s(&mut self, n: usize, what: &str) -> Result<Vec<f32>, CheckpointError> {
        (0..n)
            .map(|_| self.array(what).map(f32::from_le_bytes))
            .collect()
    }

    pub(super) fn u32(&mut self, what: &str) -> Result<u32, CheckpointError> {
        self.array(what).map(u32::from_le_bytes)
    }

    pub(super) fn u64(&mut self, what: &str) -> Result<u64, CheckpointError> {
        self.array(what).map(u64::from_le_bytes)
    }

    /// A count of items of `each` bytes, checked against what is left before anything is
    /// allocated for it.
    pub(super) fn count(&mut self, each: usize, what: &str) -> Result<usize, CheckpointError> {
        let n = self.u32(what)? as usize;
        if n.saturating_mul(each) > self.bytes.len() - self.at {
            return Err(CheckpointError::Corrupt(format!(
                "{n} {what} do not fit in the file"
            )));
        }
        Ok(n)
    }
}

impl<G: Encode + Send + Sync> Trainer<G>
where
    G::Move: Send,
{
    /// The state as a checkpoint file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        self.to_bytes_as(VERSION)
    }

    /// The state as a checkpoint of `version` (older versions only to test reading them).
    fn to_bytes_as(&self, version: u32) -> Vec<u8> {
        // Only the drops already begun: those still to come are a plan, free to change.
        self.encode(version, &self.config.as_of(self.generation))
    }

    /// The state as a checkpoint of `version` that records the settings `config`.
    fn encode(&self, version: u32, config: &Config) -> Vec<u8> {
        let layout = Layout::of(version, SINCE);
        let mut out = header(MAGIC, version, G::NAME);
        let config = format!("{config:?}");
        out.extend_from_slice(&(config.len() as u32).to_le_bytes());
        out.extend_from_slice(config.as_bytes());
        out.extend_from_slice(&self.generation.to_le_bytes());
        out.extend_from_slice(&self.games.to_le_bytes());
        out.extend_from_slice(&self.positions.to_le_bytes());
        out.extend_from_slice(&self.seconds.to_le_bytes());
        let weights = self.net.to_bytes(G::NAME);
        out.extend_from_slice(&(weights.len() as u64).to_le_bytes());
        out.extend_from_slice(&weights);
        out.extend_from_slice(&(self.velocity.len() as u32).to_le_bytes());
        for v in &self.velocity {
            out.extend_from_slice(&v.to_le_bytes());
        }
        if layout >= Layout::WithOwner {
            out.extend_from_slice(&(self.ownership.len() as u32).to_le_bytes());
            for v in self.ownership.iter().chain(&self.ownership_velocity) {
                out.extend_from_slice(&v.to_le_bytes());
            }
        }
        out.extend_from_slice(&(self.window.len() as u32).to_le_bytes());
        for s in &self.window {
            put_sample(&mut out, s, layout);
        }
        seal(out)
    }

    /// Writes the checkpoint to `path` atomically.
    ///
    /// # Errors
    ///
    /// [`CheckpointError::Io`] if the file cannot be written.
    pub fn save(&self, path: &Path) -> Result<(), CheckpointError> {
        write_atomically(path, &self.to_bytes()).map_err(CheckpointError::Io)
    }

    /// A trainer from checkpoint `bytes`, for games from `start` with settings `config`:
    /// the checkpoint's own, except that the [`Config::lr_drops`] that begin after the
    /// checkpoint's generation may be added, moved or left out (a schedule decided on the
    /// way does not change the past). (Checkpoints written before they recorded only the
    /// drops begun also resume with the whole plan they recorded.)
    ///
    /// # Errors
    ///
    /// A [`CheckpointError`] naming what is wrong.
    pub fn from_bytes(
        bytes: &[u8],
        start: G,
        config: Config,
    ) -> Result<Trainer<G>, CheckpointError> {
        let (mut r, name) = open(bytes, MAGIC, 1..=VERSION, SINCE)?;
        if name != G::NAME {
            return Err(CheckpointError::Mismatch(format!(
                "the checkpoint is for {name}, not {}",
                G::NAME
            )));
        }
        let len = r.count(1, "settings bytes")?;
        let settings = String::from_utf8_lossy(r.take(len, "settings")?).into_owned();
        let generation = r.u32("counters")?;
        let wanted = format!("{config:?}");
        // Learning-rate drops for generations still to come are free; the past is not.
        if settings != format!("{:?}", config.as_of(generation)) && settings != wanted {
            return Err(CheckpointError::Mismatch(format!(
                "the checkpoint was made with other settings: {settings} (now: {wanted})"
            )));
        }
        let games = r.u64("counters")?;
        let positions = r.u64("counters")?;
        let seconds = f64::from_le_bytes(r.array("counters")?);
        let len = r.u64("network length")?;
        let len = usize::try_from(len)
            .ok()
            .filter(|&l| l <= r.bytes.len() - r.at)
            .ok_or_else(|| {
                CheckpointError::Corrupt("the network does not fit in the file".into())
            })?;
        let size = start.board_size();
        let net = Net::from_bytes_for(
            r.take(len, "network")?,
            G::NAME,
            Some(size),
            games::nn::planes_for(G::NAME),
        )
        .map_err(CheckpointError::Weights)?;
        if net.shape() != &config.shape(size) {
            return Err(CheckpointError::Mismatch(
                "the network's shape is not the settings' shape".into(),
            ));
        }
        let count = r.count(4, "momentum values")?;
        if count != net.params.len() {
            return Err(CheckpointError::Corrupt(format!(
                "{count} momentum values for {} parameters",
                net.params.len()
            )));
        }
        let velocity = r.f32s(count, "momentum")?;
        let head_len = if config.ownership > 0.0 {
            ownership_params(config.width)
        } else {
            0
        };
        let (mut ownership, mut ownership_velocity) = (Vec::new(), Vec::new());
        if r.layout >= Layout::WithOwner {
            let count = r.count(8, "ownership parameters")?;
            if count != head_len {
                return Err(CheckpointError::Corrupt(format!(
                    "{count} ownership head parameters, the settings need {head_len}"
                )));
            }
            ownership = r.f32s(count, "ownership head")?;
            ownership_velocity = r.f32s(count, "ownership head")?;
            if !ownership
                .iter()
                .chain(&ownership_velocity)
                .all(|v| v.is_finite())
            {
                return Err(CheckpointError::Corrupt(
                    "an ownership head parameter is not a finite number".into(),
                ));
            }
        } else if head_len > 0 {
            return Err(CheckpointError::Mismatch(
                "a checkpoint of this version has no ownership head".into(),
            ));
        }
        let count = r.count(r.sample_bytes(size), "replay positions")?;
        let mut window = VecDeque::with_capacity(count);
        for _ in 0..count {
            window.push_back(r.sample(size)?);
        }
        if !r.done() {
            return Err(CheckpointError::Corrupt(
                "bytes left after the replay window".into(),
            ));
        }
        Ok(Trainer {
            config,
            start,
            net,
            velocity,
            ownership,
            ownership_velocity,
            window,
            generation,
            games,
            positions,
            seconds,
        })
    }

    /// [`Trainer::from_bytes`] on the file at `path`.
    ///
    /// # Errors
    ///
    /// As [`Trainer::from_bytes`], and [`CheckpointError::Io`].
    pub fn load(path: &Path, start: G, config: Config) -> Result<Trainer<G>, CheckpointError> {
        let bytes = std::fs::read(path).map_err(CheckpointError::Io)?;
        Trainer::from_bytes(&bytes, start, config)
    }
}

/// The start of each of the trainer's files: the magic, the version and the game's name
/// (16 bytes, NUL-padded).
pub(super) fn header(magic: &[u8; 8], version: u32, game: &str) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(magic);
    out.extend_from_slice(&version.to_le_bytes());
    let mut name = [0u8; 16];
    name[..game.len()].copy_from_slice(game.as_bytes());
    out.extend_from_slice(&name);
    out
}

/// Appends the FNV-1a checksum of everything before it.
pub(super) fn seal(mut out: Vec<u8>) -> Vec<u8> {
    let sum = fnv1a(&out);
    out.extend_from_slice(&sum.to_le_bytes());
    out
}

/// Checks a file written by [`header`] … [`seal`]: the magic, the checksum, the version
/// (one of `versions`; the positions' fields arrived as `since` says). Returns a reader
/// placed after the header (the checksum left out) and the game's name.
pub(super) fn open<'a>(
    bytes: &'a [u8],
    magic: &[u8; 8],
    versions: std::ops::RangeInclusive<u32>,
    since: Since,
) -> Result<(Reader<'a>, String), CheckpointError> {
    let what = String::from_utf8_lossy(magic).into_owned();
    if bytes.len() < 16 || &bytes[..8] != magic {
        return Err(CheckpointError::Corrupt(format!("no {what} magic")));
    }
    let (body, sum) = bytes.split_at(bytes.len() - 8);
    let mut sum_bytes = [0; 8];
    sum_bytes.copy_from_slice(sum);
    if fnv1a(body) != u64::from_le_bytes(sum_bytes) {
        return Err(CheckpointError::Corrupt("checksum mismatch".into()));
    }
    let mut r = Reader::new(body, 8, Layout::WithoutQ);
    let found = r.u32("header")?;
    if !versions.contains(&found) {
        return Err(CheckpointError::Corrupt(format!(
            "{what} version {found}, this program reads {} to {}",
            versions.start(),
            versions.end()
        )));
    }
    r.layout = Layout::of(found, since);
    let name = r.take(16, "header")?;
    let end = name.iter().position(|&b| b == 0).unwrap_or(16);
    let name = String::from_utf8_lossy(&name[..end]).into_owned();
    Ok((r, name))
}

/// Appends one position in the checkpoint's layout (see the module docs).
pub(super) fn put_sample(out: &mut Vec<u8>, s: &Sample, layout: Layout) {
    out.push(s.z as u8);
    if layout >= Layout::WithQ {
        out.extend_from_slice(&s.q.to_le_bytes());
    }
    if layout >= Layout::WithMargin {
        out.extend_from_slice(&s.margin.to_le_bytes());
    }
    if layout >= Layout::WithKomi {
        out.push(s.komi as u8);
    }
    out.extend_from_slice(&s.cells);
    if layout >= Layout::WithOwner {
        if s.owner.is_empty() {
            out.extend(std::iter::repeat(UNKNOWN_OWNER).take(s.cells.len()));
        } else {
            out.extend_from_slice(&s.owner);
        }
    }
    let mut bits = vec![0u8; bit_bytes(s.legal.len())];
    for (i, &ok) in s.legal.iter().enumerate() {
        bits[i / 8] |= u8::from(ok) << (i % 8);
    }
    out.extend_from_slice(&bits);
    for p in &s.pi {
        out.extend_from_slice(&p.to_le_bytes());
    }
}

/// Bytes of one position on a `size`×`size` board in `layout`.
fn sample_bytes(size: usize, layout: Layout) -> usize {
    let (n, outputs) = (size * size, size * size + 1);
    let q = if layout >= Layout::WithQ { 4 } else { 0 };
    let margin = if layout >= Layout::WithMargin { 2 } else { 0 };
    let owner = if layout >= Layout::WithOwner { n } else { 0 };
    let komi = usize::from(layout >= Layout::WithKomi);
    1 + q + margin + komi + n + owner + bit_bytes(outputs) + 4 * outputs
}

/// Bytes that hold `bits` bits (`usize::div_ceil` is newer than our oldest compiler).
fn bit_bytes(bits: usize) -> usize {
    (bits + 7) / 8
}

#[cfg(test)]
mod tests {
    use super::*;
    use games::tictactoe::Board;

    /// Tic-tac-toe settings small enough for a generation in a test.
    fn small() -> Config {
        Config {
            games: 4,
            steps: 2,
            simulations: 8,
            ..Config::preset("tictactoe").expect("a preset")
        }
    }

    #[test]
    fn checkpoints_written_before_q_and_the_margin_were_kept_read_them_as_the_outcome() {
        let config = small();
        let start = Board::new(3).expect("a board");
        let mut trainer = Trainer::new(start, config.clone()).expect("a trainer");
        trainer.generation();
        // The search's values are kept, and they are not the outcomes.
        assert!(trainer.window.iter().any(|s| s.q != f32::from(s.z)));
        let now = Trainer::from_bytes(&trainer.to_bytes(), start, config.clone())
            .expect("this version reads back");
        assert_eq!(now.window, trainer.window);
        let three = trainer.to_bytes_as(3);
        // Version 4 adds the owners (a byte per point) and the ownership head's count,
        // version 5 the komi (a byte).
        let four = trainer.to_bytes_as(4);
        assert_eq!(three.len() + 9 * trainer.window.len() + 4, four.len());
        assert_eq!(four.len() + trainer.window.len(), trainer.to_bytes().len());
        let read = Trainer::from_bytes(&four, start, config.clone()).expect("version 4 reads");
        assert_eq!(read.window, trainer.window, "komi 0, as before it was kept");
        let old = trainer.to_bytes_as(1);
        // Six bytes fewer per position: no q, no margin.
        assert_eq!(old.len() + 6 * trainer.window.len(), three.len());
        let read = Trainer::from_bytes(&old, start, config.clone()).expect("version 1 reads");
        assert_eq!(read.net, trainer.net);
        assert_eq!(read.window.len(), trainer.window.len());
        for (a, b) in read.window.iter().zip(&trainer.window) {
            assert_eq!(a.q, f32::from(b.z));
            // The margin of a file without margins: a win by the whole board.
            assert_eq!(a.margin, i16::from(b.z) * 9);
            assert_eq!(
                (&a.cells, &a.legal, &a.pi, a.z),
                (&b.cells, &b.legal, &b.pi, b.z)
            );
            assert!(a.owner.is_empty() && b.owner.len() == 9);
        }
        let two = trainer.to_bytes_as(2);
        assert_eq!(two.len() + 2 * trainer.window.len(), three.len());
        let read = Trainer::from_bytes(&two, start, config.clone()).expect("version 2 reads");
        for (a, b) in read.window.iter().zip(&trainer.window) {
            assert_eq!((a.q, a.margin), (b.q, i16::from(b.z) * 9));
        }
        // A version-3 checkpoint resumes; its positions, without owners, are written back
        // as unknown and read back so.
        let read = Trainer::from_bytes(&three, start, config.clone()).expect("version 3 reads");
        assert!(read.window.iter().all(|s| s.owner.is_empty()));
        let again = Trainer::from_bytes(&read.to_bytes(), start, config.clone()).expect("reads");
        assert_eq!(again.window, read.window);
        // Nor can a version-3 checkpoint, which has no ownership head, resume with one.
        let with_head = Config {
            ownership: 1.0,
            ..config
        };
        let err = Trainer::from_bytes(&three, start, with_head).expect_err("no head in it");
        assert!(err.to_string().contains("other settings"), "{err}");
    }

    #[test]
    fn checkpoints_that_recorded_their_whole_drop_plan_resume_with_that_plan() {
        let small = small();
        let planned = Config {
            lr_drops: vec![(3, 0.005)],
            ..small.clone()
        };
        let start = Board::new(3).expect("a board");
        let mut trainer = Trainer::new(start, planned.clone()).expect("a trainer");
        trainer.generation();
        // Written as before: the drop still to come is in the settings.
        let old = trainer.encode(VERSION, &planned);
        assert_ne!(old, trainer.to_bytes());
        let read = Trainer::from_bytes(&old, start, planned).expect("the same plan resumes");
        assert_eq!(read.net, trainer.net);
        // Such a file cannot tell a plan changed from settings changed: refused.
        let err = Trainer::from_bytes(&old, start, small).expect_err("another plan");
        assert!(err.to_string().contains("other settings"), "{err}");
    }

    #[test]
    fn the_ownership_head_is_kept_and_checked_by_the_checkpoint() {
        let config = Config {
            ownership: 1.0,
            ..small()
        };
        let start = Board::new(3).expect("a board");
        let mut trainer = Trainer::new(start, config.clone()).expect("a trainer");
        let before = trainer.ownership.clone();
        assert_eq!(before.len(), ownership_params(config.width));
        trainer.generation();
        assert_ne!(trainer.ownership, before, "the head trains");
        let bytes = trainer.to_bytes();
        let read = Trainer::from_bytes(&bytes, start, config.clone()).expect("reads back");
        assert_eq!(
            (&read.ownership, &read.ownership_velocity, &read.window),
            (
                &trainer.ownership,
                &trainer.ownership_velocity,
                &trainer.window
            )
        );
        // Without the head in the settings, the settings differ: refused.
        let plain = Config {
            ownership: 0.0,
            ..config.clone()
        };
        assert!(Trainer::from_bytes(&bytes, start, plain).is_err());
        // An owner byte out of range is refused; so is a head parameter that is not finite.
        let mut bad = trainer.clone();
        bad.window[0].owner[0] = 7;
        let err = Trainer::from_bytes(&bad.to_bytes(), start, config.clone()).expect_err("bad");
        assert!(err.to_string().contains("owners"), "{err}");
        let mut bad = trainer.clone();
        bad.ownership[0] = f32::NAN;
        let err = Trainer::from_bytes(&bad.to_bytes(), start, config).expect_err("NaN");
        assert!(err.to_string().contains("finite"), "{err}");
    }
}
