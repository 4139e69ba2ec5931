#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod board;
mod text;
mod word;

pub use board::{Board, Board32, Board64, WIDTH};
pub use text::{ParseBoardError, parse_rows};
pub use word::Word;
