//! Tsumugi's shogi rules core: bitboards, positions, legal move generation, SFEN and USI.

pub mod attacks;
pub mod bitboard;
pub mod color;
pub mod hand;
pub mod piece;
pub mod square;

pub use bitboard::Bitboard;
pub use color::Color;
pub use hand::Hand;
pub use piece::{Piece, PieceKind};
pub use square::{File, Rank, Square};
pub mod movegen;
pub mod movelist;
pub mod moves;
pub mod position;
pub mod setup;
pub mod sfen;
pub mod zobrist;

pub use movegen::{MoveClass, NonPromotions};
pub use movelist::MoveList;
pub use moves::Move;
pub use position::Position;
pub use setup::{PositionError, Setup};
pub use sfen::{FromSfenError, SfenError};
pub mod declaration;
pub mod mate1;
pub mod notation;
pub mod perft;
pub mod repetition;
pub mod usi;

pub use repetition::Repetition;
pub use usi::{parse_position_command, UsiError};
