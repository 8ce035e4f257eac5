//! Self-play workers and the trainer as separate processes, exchanging files through one
//! directory (as minigo and KataGo do): the trainer publishes `weights.net`, each worker
//! reads the newest one, plays a batch of games and writes them as one file under `games/`;
//! the trainer absorbs the files it finds, trains, publishes again. Every file is written
//! to a temporary name and renamed, so nobody reads half a file; the directory may be on a
//! shared filesystem, so many workers on many machines (a Slurm array, Kubernetes Jobs)
//! feed one trainer with no cluster code here.
//!
//! A games file: magic `GAMESGMS`, version u32 (6; 2 to 5 are still read), game name (16
//! bytes), board size u32, games u32; per game its result for Black (i8), from version 6
//! its komi for Black (i8; before, 0), its network
//! evaluations u64 (new in version 2, for the trainer's rate) and positions u32, each
//! position in the checkpoint's layout (with q from version 3 on, with the final margin
//! from version 4 on, with the final owners from version 5 on, with the komi from version
//! 6 on); FNV-1a 64 of all before it.
//! Little-endian.

use super::checkpoint::{header, open, put_sample, seal, Layout, Since};
use super::{write_atomically, CheckpointError, Played};
use std::path::{Path, PathBuf};

const MAGIC: &[u8; 8] = b"GAMESGMS";
const VERSION: u32 = 6;
/// When the positions of games files gained q, the final margin, the final owners and the
/// komi.
const SINCE: Since = Since {
    q: 3,
    margin: 4,
    owner: 5,
    komi: 6,
};

/// The folder of games files in a run directory.
pub fn games_dir(dir: &Path) -> PathBuf {
    dir.join("games")
}

/// Where absorbed games files are moved.
pub fn used_dir(dir: &Path) -> PathBuf {
    games_dir(dir).join("used")
}

/// A batch of games as a file's bytes.
pub fn to_bytes(game: &str, size: usize, games: &[Played]) -> Vec<u8> {
    to_bytes_as(VERSION, game, size, games)
}

/// [`to_bytes`] as a file of `version` (older versions only to test reading them).
fn to_bytes_as(version: u32, game: &str, size: usize, games: &[Played]) -> Vec<u8> {
    let layout = Layout::of(version, SINCE);
    let mut out = header(MAGIC, version, game);
    out.extend_from_slice(&(size as u32).to_le_bytes());
    out.extend_from_slice(&(games.len() as u32).to_le_bytes());
    for Played {
        samples,
        black,
        komi,
        evaluations,
    } in games
    {
        out.push(*black as u8);
        if layout >= Layout::WithKomi {
            out.push(*komi as u8);
        }
        out.extend_from_slice(&evaluations.to_le_bytes());
        out.extend_from_slice(&(samples.len() as u32).to_le_bytes());
        for s in samples {
            put_sample(&mut out, s, layout);
        }
    }
    seal(out)
}

/// The games of a file written by [`to_bytes`] for `game` on a `size`×`size` board.
///
/// # Errors
///
/// A [`CheckpointError`] if the file is cut short, corrupt, or for another game or size.
pub fn from_bytes(bytes: &[u8], game: &str, size: usize) -> Result<Vec<Played>, CheckpointError> {
    // Version 1 had no evaluation counts.
    let (mut r, name) = open(bytes, MAGIC, 2..=VERSION, SINCE)?;
    let found = r.u32("header")? as usize;
    if name != game || found != size {
        return Err(CheckpointError::Mismatch(format!(
            "games of {name} on {found}x{found}, not {game} on {size}x{size}"
        )));
    }
    let count = r.count(13, "games")?;
    let mut games = Vec::with_capacity(count);
    for _ in 0..count {
        let black = r.take(1, "games")?[0] as i8;
        let komi = if r.layout() >= Layout::WithKomi {
            r.take(1, "games")?[0] as i8
        } else {
            0
        };
        let mut evaluations = [0; 8];
        evaluations.copy_from_slice(r.take(8, "games")?);
        let evaluations = u64::from_le_bytes(evaluations);
        let n = r.count(r.sample_bytes(size), "positions")?;
        let mut samples = Vec::with_capacity(n);
        for _ in 0..n {
            samples.push(r.sample(size)?);
        }
        games.push(Played {
            samples,
            black,
            komi,
            evaluations,
        });
    }
    if !r.done() {
        return Err(CheckpointError::Corrupt(
            "bytes left after the games".into(),
        ));
    }
    Ok(games)
}

/// Writes worker `worker`'s batch `batch` into the run directory, atomically.
///
/// # Errors
///
/// The I/O error, if any.
pub fn publish(dir: &Path, worker: u32, batch: u64, bytes: &[u8]) -> std::io::Result<PathBuf> {
    std::fs::create_dir_all(games_dir(dir))?;
    let path = games_dir(dir).join(format!("w{worker:04}-{batch:08}.games"));
    write_atomically(&path, bytes)?;
    Ok(path)
}

/// The games files waiting in the run directory, oldest name first (temporary files of
/// writes in progress are not listed).
///
/// # Errors
///
/// The I/O error, if the folder cannot be read.
pub fn pending(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let folder = games_dir(dir);
    if !folder.exists() {
        return Ok(Vec::new());
    }
    let mut files: Vec<PathBuf> = std::fs::read_dir(folder)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "games"))
        .collect();
    files.sort();
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::alphazero::{play, Config};
    use games::nn::Net;
    use games::tictactoe::Board;

    #[test]
    fn games_files_of_versions_2_to_5_read_what_they_lack_as_unknown_and_1_is_refused() {
        let config = Config {
            simulations: 8,
            ..Config::preset("tictactoe").expect("a preset")
        };
        let start = Board::new(3).expect("a board");
        let net = Net::random(config.shape(3), 5).expect("a shape");
        let games: Vec<Played> = (0..3).map(|g| play(&start, &net, &config, g)).collect();
        let now = from_bytes(&to_bytes("tictactoe", 3, &games), "tictactoe", 3);
        assert_eq!(now.expect("this version reads back"), games);
        let old = from_bytes(&to_bytes_as(2, "tictactoe", 3, &games), "tictactoe", 3)
            .expect("version 2 reads");
        for (a, b) in old.iter().zip(&games) {
            assert_eq!(a.samples.len(), b.samples.len());
            for (x, y) in a.samples.iter().zip(&b.samples) {
                assert_eq!(x.q, f32::from(y.z));
                assert_eq!(x.margin, i16::from(y.z) * 9);
                assert_eq!((&x.cells, &x.pi, x.z), (&y.cells, &y.pi, y.z));
            }
        }
        let three = from_bytes(&to_bytes_as(3, "tictactoe", 3, &games), "tictactoe", 3)
            .expect("version 3 reads");
        for (a, b) in three.iter().zip(&games) {
            for (x, y) in a.samples.iter().zip(&b.samples) {
                assert_eq!((x.q, x.margin), (y.q, i16::from(y.z) * 9));
            }
        }
        let four = from_bytes(&to_bytes_as(4, "tictactoe", 3, &games), "tictactoe", 3)
            .expect("version 4 reads");
        for (a, b) in four.iter().zip(&games) {
            for (x, y) in a.samples.iter().zip(&b.samples) {
                assert_eq!((x.q, x.margin), (y.q, y.margin));
                assert!(x.owner.is_empty() && y.owner.len() == 9, "{x:?} {y:?}");
            }
        }
        // Version 5 had no komi: every game then was played at 0, as these were.
        let five = from_bytes(&to_bytes_as(5, "tictactoe", 3, &games), "tictactoe", 3);
        assert_eq!(five.expect("version 5 reads"), games);
        let err = from_bytes(&to_bytes_as(1, "tictactoe", 3, &games), "tictactoe", 3);
        let err = err.expect_err("version 1 had no evaluation counts");
        assert!(err.to_string().contains("version 1"), "{err}");
    }
}
