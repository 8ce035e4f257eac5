//! What the tools share: the Go Text Protocol ([`gtp`]), the Go engine behind `go_engine`
//! ([`engine`]), game records ([`sgf`]) and the match runner's referee and statistics
//! ([`matches`]). The rules, the search and the inference stay in the `games` crate.

// A tool's command line writes its help text on stdout.
pub mod alphazero;
#[allow(clippy::print_stdout)]
pub mod cli;
pub mod engine;
pub mod gtp;
pub mod matches;
pub mod position;
pub mod rave;
pub mod sgf;
