//! Opening books (seed 004): the book file that shogi engines and GUIs share ([`format`]),
//! building one from game records ([`build`]) or by our own search ([`think`]),
//! which of a position's book moves to play ([`policy`]), what a book holds ([`stats`]), and the
//! exact pseudo-match of two books ([`versus`]) with its estimated score ([`estimate`]);
//! [`commands`] is `tsumugi book`.

pub mod build;
pub mod commands;
pub mod estimate;
pub mod format;
pub mod policy;
pub mod stats;
pub mod think;
pub mod versus;

pub use format::{position_key, Book, BookEntry, BookError, BookMove};
pub use policy::BookPolicy;
