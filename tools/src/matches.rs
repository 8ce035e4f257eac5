//! Matches between GTP engines: a client for one engine process, one game played move by
//! move under the games crate's rules, and the statistics of a match.

use crate::gtp::{self, color_letter};
use crate::sgf::Record;
use games::go::{Board, KoRule, Move, Position};
use games::Color;
use std::io::{BufRead, BufReader, ErrorKind, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// How long an engine may take over one answer unless told otherwise: five minutes, far
/// above a genmove under any time setting this project uses.
pub const ANSWER_LIMIT: Duration = Duration::from_secs(300);

/// The most an engine may write in one answer (a 19×19 `showboard` takes under 1 kB).
const ANSWER_BYTES: u64 = 1 << 20;

/// A GTP engine running as a child process.
pub struct Client {
    /// The command line it was started with.
    pub command: String,
    child: Child,
    input: ChildStdin,
    /// The engine's output, line by line, from a thread that reads it: a wait for an
    /// answer can then end at the time limit, which a blocking read cannot.
    lines: Receiver<std::io::Result<String>>,
    limit: Duration,
}

/// Why an engine could not answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClientError {
    /// It could not be started.
    Start(String),
    /// It closed its output or the pipe broke: it crashed or quit.
    Gone(String),
    /// It answered `? message`.
    Refused(String),
    /// It did not answer within the time limit (it is then stopped).
    Silent(String),
    /// It wrote something that is not a GTP answer: other text, bytes that are not UTF-8,
    /// an endless answer (it is then stopped).
    Garbage(String),
}

impl std::fmt::Display for ClientError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ClientError::Start(e) => write!(f, "cannot start: {e}"),
            ClientError::Gone(e) => write!(f, "the engine is gone ({e})"),
            ClientError::Refused(e) => write!(f, "refused: {e}"),
            ClientError::Silent(e) => write!(f, "stopped: {e}"),
            ClientError::Garbage(e) => write!(f, "stopped, it sent garbage: {e}"),
        }
    }
}

impl Client {
    /// Starts `command` (split on spaces; the first word is the program) with GTP on its
    /// stdin and stdout; its stderr goes nowhere. Each answer may take [`ANSWER_LIMIT`]
    /// (see [`Client::answer_within`]).
    ///
    /// # Errors
    ///
    /// [`ClientError::Start`] when the program cannot be run.
    pub fn start(command: &str) -> Result<Client, ClientError> {
        let mut words = command.split_whitespace();
        let program = words
            .next()
            .ok_or_else(|| ClientError::Start("empty command".to_string()))?;
        let mut child = Command::new(program)
            .args(words)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| ClientError::Start(format!("{command}: {e}")))?;
        let input = child
            .stdin
            .take()
            .ok_or_else(|| ClientError::Start("no stdin".into()))?;
        let output = child
            .stdout
            .take()
            .ok_or_else(|| ClientError::Start("no stdout".into()))?;
        // A bounded queue: an engine that writes while nobody asks it anything (a referee
        // between games) waits instead of filling the memory.
        let (sender, lines) = mpsc::sync_channel(64);
        std::thread::spawn(move || {
            let mut output = BufReader::new(output);
            loop {
                let mut line = String::new();
                // An engine that writes without end and without a newline must not fill the
                // memory: a line stops at ANSWER_BYTES and counts as garbage.
                match (&mut output).take(ANSWER_BYTES).read_line(&mut line) {
                    // The end of the output: the sender is dropped, and the client sees
                    // the channel close as a read would see the pipe's end.
                    Ok(0) => return,
                    Ok(n) if n as u64 == ANSWER_BYTES && !line.ends_with('\n') => {
                        let long = format!("a line longer than {ANSWER_BYTES} bytes");
                        let _ = sender.send(Err(std::io::Error::new(ErrorKind::InvalidData, long)));
                        return;
                    }
                    Ok(_) => {
                        if sender.send(Ok(line)).is_err() {
                            return;
                        }
                    }
                    Err(e) => {
                        let _ = sender.send(Err(e));
                        return;
                    }
                }
            }
        });
        Ok(Client {
            command: command.to_string(),
            child,
            input,
            lines,
            limit: ANSWER_LIMIT,
        })
    }

    /// The same client, allowed `limit` for each answer.
    #[must_use]
    pub fn answer_within(mut self, limit: Duration) -> Client {
        self.limit = limit;
        self
    }

    /// Sends one command and reads its response: the text after `=` (lines joined by
    /// newlines).
    ///
    /// # Errors
    ///
    /// [`ClientError::Refused`] for `?`, [`ClientError::Gone`] when the engine is gone,
    /// [`ClientError::Silent`] when it has not answered within the limit and
    /// [`ClientError::Garbage`] for what is not an answer: in those two cases it is
    /// stopped, since what it writes next would be taken for the next command's answer.
    pub fn send(&mut self, command: &str) -> Result<String, ClientError> {
        if let Err(e) = writeln!(self.input, "{command}").and_then(|()| self.input.flush()) {
            // An engine whose garbage stopped the reading dies of the closed pipe: what it
            // sent, already queued, is the cause to report.
            if let Some(Err(unread)) = self.lines.try_iter().find(Result::is_err) {
                return Err(self.unreadable(unread));
            }
            return Err(ClientError::Gone(e.to_string()));
        }
        let deadline = Instant::now() + self.limit;
        let mut lines: Vec<String> = Vec::new();
        let mut bytes = 0;
        loop {
            // Checked at every line: an engine that writes without end is stopped too.
            let line = match deadline.checked_duration_since(Instant::now()) {
                Some(wait) => self.lines.recv_timeout(wait),
                None => Err(RecvTimeoutError::Timeout),
            };
            let line = match line {
                Ok(Ok(line)) => line,
                Ok(Err(e)) => return Err(self.unreadable(e)),
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(ClientError::Gone(format!("no answer to {command:?}")))
                }
                Err(RecvTimeoutError::Timeout) => {
                    let limit = self.limit.as_secs_f64();
                    let silent = format!("no answer to {command:?} within {limit} s");
                    return Err(self.stop(ClientError::Silent(silent)));
                }
            };
            bytes += line.len() as u64;
            let line = line.trim_end_matches(['\n', '\r']);
            if line.is_empty() {
                if lines.is_empty() {
                    continue;
                }
                break;
            }
            if lines.is_empty() && !line.starts_with(['=', '?']) {
                let garbage = format!("not a GTP response: {line:?}");
                return Err(self.stop(ClientError::Garbage(garbage)));
            }
            if bytes > ANSWER_BYTES {
                let long = format!("an answer longer than {ANSWER_BYTES} bytes");
                return Err(self.stop(ClientError::Garbage(long)));
            }
            lines.push(line.to_string());
        }
        let first = &lines[0];
        let (ok, rest) = first.split_at(1);
        let ok = ok == "=";
        // Skip the id digits, then one space.
        let rest = rest.trim_start_matches(|c: char| c.is_ascii_digit());
        let mut text = rest.strip_prefix(' ').unwrap_or(rest).to_string();
        for line in &lines[1..] {
            text.push('\n');
            text.push_str(line);
        }
        if ok {
            Ok(text)
        } else {
            Err(ClientError::Refused(text))
        }
    }

    /// Stops an engine whose output could not be read: garbage (not UTF-8, an endless
    /// line) or a failed pipe.
    fn unreadable(&mut self, e: std::io::Error) -> ClientError {
        let why = if e.kind() == ErrorKind::InvalidData {
            ClientError::Garbage(e.to_string())
        } else {
            ClientError::Gone(e.to_string())
        };
        self.stop(why)
    }

    /// Stops an engine that broke the protocol (a late or endless answer would be taken for
    /// the next command's), and passes on why.
    fn stop(&mut self, why: ClientError) -> ClientError {
        let _ = self.child.kill();
        why
    }

    /// Asks the engine to quit; one that does not is stopped when the client is dropped.
    pub fn quit(mut self) {
        let _ = self.send("quit");
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// How one game ended.
#[derive(Clone, Debug, PartialEq)]
pub enum Ending {
    /// Both passed (or the move limit came): Black's margin by the referee.
    Scored(f64),
    /// A player resigned.
    Resigned(Color),
    /// A player made an illegal move (the move as it sent it).
    Illegal(Color, String),
    /// A player crashed, quit or sent garbage.
    Crashed(Color, String),
}

/// One game's outcome.
#[derive(Clone, Debug)]
pub struct GameResult {
    /// How it ended.
    pub ending: Ending,
    /// The record.
    pub record: Record,
    /// Seconds spent by Black's and White's genmoves, and their number.
    pub time: [(f64, u32); 2],
    /// Why the referee engine gave no score, when it did not: the game was then scored by
    /// the area count after removing the stones both players list as dead.
    pub referee_fault: Option<String>,
}

impl GameResult {
    /// The winner, if any (a scored tie has none).
    pub fn winner(&self) -> Option<Color> {
        match &self.ending {
            Ending::Scored(m) if *m > 0.0 => Some(Color::Black),
            Ending::Scored(m) if *m < 0.0 => Some(Color::White),
            Ending::Scored(_) => None,
            Ending::Resigned(c) | Ending::Illegal(c, _) | Ending::Crashed(c, _) => {
                Some(c.opponent())
            }
        }
    }

    /// The result as SGF writes it.
    pub fn sgf_result(&self) -> String {
        match &self.ending {
            Ending::Scored(m) if *m == 0.0 => "0".to_string(),
            Ending::Scored(m) => crate::engine::score_text(*m),
            Ending::Resigned(c) => format!("{}+R", color_letter(c.opponent())),
            Ending::Illegal(c, _) | Ending::Crashed(c, _) => {
                format!("{}+F", color_letter(c.opponent()))
            }
        }
    }
}

/// The game's settings.
#[derive(Clone, Debug)]
pub struct Rules {
    /// Board side.
    pub size: usize,
    /// Komi.
    pub komi: f64,
    /// Moves (passes included) after which the game is scored as it stands.
    pub max_moves: usize,
    /// `time_settings` to send, if any: main seconds, byo-yomi seconds, stones.
    pub time: Option<(u32, u32, u32)>,
}

/// How a scored game's margin is found once both players passed.
pub enum Referee {
    /// Another GTP engine (GNU Go): the moves replayed into it, then `final_score`.
    Engine(Box<Client>),
    /// The games crate's area count after removing the stones that both players list as
    /// dead (`final_status_list dead`); where they disagree, nothing is removed.
    Internal,
}

/// Plays one game between `black` and `white` under `rules`, checking every move with the
/// games crate (positional superko), and scores it with `referee`.
pub fn play_game(
    black: &mut Client,
    white: &mut Client,
    names: [String; 2],
    rules: &Rules,
    referee: &mut Referee,
) -> GameResult {
    let board = Board::new(rules.size, rules.size).expect("the size is checked");
    let mut position = Position::new(board, KoRule::PositionalSuperko).with_komi(rules.komi);
    let mut record = Record {
        size: rules.size,
        komi: rules.komi,
        players: names,
        moves: Vec::new(),
        result: String::new(),
    };
    let mut time = [(0.0, 0u32); 2];
    let mut setup = vec![
        format!("boardsize {}", rules.size),
        "clear_board".to_string(),
        format!("komi {}", rules.komi),
    ];
    if let Some((main, byo, stones)) = rules.time {
        setup.push(format!("time_settings {main} {byo} {stones}"));
    }
    for (color, client) in [(Color::Black, &mut *black), (Color::White, &mut *white)] {
        for command in &setup {
            if let Err(e) = client.send(command) {
                return finish(record, Ending::Crashed(color, e.to_string()), time);
            }
        }
    }
    let mut passes = 0;
    let mut color = Color::Black;
    while passes < 2 && record.moves.len() < rules.max_moves {
        let (mover, other) = match color {
            Color::Black => (&mut *black, &mut *white),
            Color::White => (&mut *white, &mut *black),
        };
        let start = Instant::now();
        let answer = mover.send(&format!("genmove {}", color_letter(color)));
        let slot = &mut time[color.index()];
        slot.0 += start.elapsed().as_secs_f64();
        slot.1 += 1;
        let text = match answer {
            Ok(t) => t.trim().to_string(),
            Err(e) => return finish(record, Ending::Crashed(color, e.to_string()), time),
        };
        if text.eq_ignore_ascii_case("resign") {
            return finish(record, Ending::Resigned(color), time);
        }
        let mv = match gtp::parse_vertex(&text, position.board()) {
            Ok(mv) => mv,
            Err(e) => return finish(record, Ending::Illegal(color, format!("{text}: {e}")), time),
        };
        if let Err(reason) = position.play_as(color, mv) {
            return finish(
                record,
                Ending::Illegal(color, format!("{text}: {reason}")),
                time,
            );
        }
        record.moves.push((color, mv));
        passes = if mv == Move::Pass { passes + 1 } else { 0 };
        let command = format!(
            "play {} {}",
            color_letter(color),
            gtp::move_text(mv, position.board())
        );
        if let Err(e) = other.send(&command) {
            // The other engine refuses a move the rules allow, or is gone: it forfeits.
            return finish(
                record,
                Ending::Crashed(color.opponent(), e.to_string()),
                time,
            );
        }
        color = color.opponent();
    }
    let (margin, fault) = score(&position, &record, black, white, referee);
    let mut result = finish(record, Ending::Scored(margin), time);
    result.referee_fault = fault;
    result
}

fn finish(mut record: Record, ending: Ending, time: [(f64, u32); 2]) -> GameResult {
    let mut result = GameResult {
        ending,
        record: record.clone(),
        time,
        referee_fault: None,
    };
    record.result = result.sgf_result();
    result.record = record;
    result
}

/// Black's margin of a finished game by the referee, and why the referee engine gave none
/// when it did not (the area count with the dead stones both players agree on then
/// scores the game).
fn score(
    position: &Position,
    record: &Record,
    black: &mut Client,
    white: &mut Client,
    referee: &mut Referee,
) -> (f64, Option<String>) {
    let Referee::Engine(judge) = referee else {
        return (agreed_area(position, black, white), None);
    };
    let mut commands = vec![
        format!("boardsize {}", record.size),
        "clear_board".to_string(),
        format!("komi {}", record.komi),
    ];
    for &(color, mv) in &record.moves {
        commands.push(format!(
            "play {} {}",
            color_letter(color),
            gtp::move_text(mv, position.board())
        ));
    }
    commands.push("final_score".to_string());
    let mut answer = String::new();
    for command in &commands {
        match judge.send(command) {
            Ok(text) => answer = text,
            Err(e) => {
                let fault = format!("the referee failed at {command:?} ({e})");
                return (agreed_area(position, black, white), Some(fault));
            }
        }
    }
    match parse_score(&answer) {
        Some(margin) => (margin, None),
        None => {
            let fault = format!("the referee's final_score {answer:?} is not a score");
            (agreed_area(position, black, white), Some(fault))
        }
    }
}

/// Black's margin by the area count after removing the stones that both players list as
/// dead (`final_status_list dead`); where they disagree, nothing is removed.
fn agreed_area(position: &Position, black: &mut Client, white: &mut Client) -> f64 {
    let board = position.board();
    let dead = |client: &mut Client| -> Option<Vec<String>> {
        let text = client.send("final_status_list dead").ok()?;
        let mut list: Vec<String> = text
            .split_whitespace()
            .map(str::to_ascii_uppercase)
            .collect();
        list.sort();
        Some(list)
    };
    let agreed = match (dead(black), dead(white)) {
        (Some(a), Some(b)) if a == b => a,
        _ => Vec::new(),
    };
    crate::engine::margin_without(position, |p| agreed.contains(&gtp::vertex(p, board)))
}

/// Black's margin from a `final_score` answer: `B+3.5`, `W+0.5`, `0`.
pub fn parse_score(text: &str) -> Option<f64> {
    let text = text.trim();
    if text == "0" {
        return Some(0.0);
    }
    let (sign, number) = if let Some(n) = text.strip_prefix("B+") {
        (1.0, n)
    } else if let Some(n) = text.strip_prefix("W+") {
        (-1.0, n)
    } else {
        return None;
    };
    number.parse::<f64>().ok().map(|n| sign * n)
}

/// The Wilson score interval at 95% for `score` points out of `games` (a draw is half a
/// point): `(low, high)` as fractions.
pub fn wilson(score: f64, games: u32) -> (f64, f64) {
    if games == 0 {
        return (0.0, 1.0);
    }
    let n = f64::from(games);
    let p = score / n;
    let z = 1.959_963_984_540_054_f64;
    let centre = p + z * z / (2.0 * n);
    let spread = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt();
    let denominator = 1.0 + z * z / n;
    (
        ((centre - spread) / denominator).max(0.0),
        ((centre + spread) / denominator).min(1.0),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_and_intervals() {
        assert_eq!(parse_score("B+3.5"), Some(3.5));
        assert_eq!(parse_score("W+12"), Some(-12.0));
        assert_eq!(parse_score("0"), Some(0.0));
        assert_eq!(parse_score("X+1"), None);
        // 10 of 20: the interval is symmetric around one half.
        let (low, high) = wilson(10.0, 20);
        assert!((low + high - 1.0).abs() < 1e-12 && (0.29..0.30).contains(&low));
        let (low, high) = wilson(20.0, 20);
        assert!(high == 1.0 && (0.83..0.84).contains(&low), "{low}");
    }
}
