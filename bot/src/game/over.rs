//! [`GameOver`]: why a game ended. Its own file, as the simulator ends games with it and
//! its errors name it.

use core::fmt;

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum GameOver {
    /// A new piece overlapped the stack where it spawns.
    BlockOut,
    /// A piece locked entirely above the visible field (row 20 and up).
    LockOut,
    /// The player gave no move.
    Resigned,
}

impl GameOver {
    /// The name used in game records: `block-out`, `lock-out`, `resigned`.
    pub const fn name(self) -> &'static str {
        match self {
            GameOver::BlockOut => "block-out",
            GameOver::LockOut => "lock-out",
            GameOver::Resigned => "resigned",
        }
    }
}

impl fmt::Display for GameOver {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
