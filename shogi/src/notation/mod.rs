//! Game-record notations: reading KIF, KI2, CSA, BOD and SFEN lists into [`Record`]s, writing
//! Japanese move text, KIF and BOD, and drawing a board as SVG.
//!
//! Every reader checks every move against the rules core and reports the first problem of a
//! record as a [`NotationError`] naming its line; a file of many problems gives one result per
//! problem, so a broken one does not hide the rest.

pub mod bod;
pub mod csa;
pub mod error;
pub mod japanese;
pub mod kanji;
pub mod ki2;
pub mod kif;
mod kifu;
pub mod record;
pub mod relative;
mod remaining;
pub mod sfen_lines;
pub mod svg;

pub use bod::{read_bod, write_bod};
pub use csa::read_csa;
pub use error::NotationError;
pub use japanese::{
    line_texts, line_to_japanese, move_text, move_to_japanese, moves_to_japanese, parse_move, Style,
};
pub use ki2::read_ki2;
pub use kif::{read_kif, write_kif, write_kif_line};
pub use record::{decode_text, read_records, Format, Record};
pub use relative::Relative;
pub use svg::board_svg;
