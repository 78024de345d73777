//! Repetition (千日手) from the key history: the same position — board, hands and side to move —
//! four times is a draw, unless one side gave check with every move of the cycle, which loses
//! for that side (連続王手の千日手).

use crate::color::Color;
use crate::position::Position;

#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Repetition {
    /// The position has not occurred often enough.
    None,
    /// Sennichite: a draw.
    Draw,
    /// Perpetual check: `loser` checked with every move since the first occurrence.
    PerpetualCheck { loser: Color },
}

impl Position {
    /// The repetition status under the rules: four occurrences.
    pub fn repetition(&self) -> Repetition {
        self.repetition_after(4)
    }

    /// The status once the current position has occurred `occurrences` times (counting itself).
    /// Searches use 2: a position repeated on the path is already a cycle.
    pub fn repetition_after(&self, occurrences: usize) -> Repetition {
        // Allocation-free: search engines ask this at every node.
        let (earlier, current) = self.state_history();
        let mut seen = 1;
        let mut first = None;
        // Same side to move every second ply.
        let mut i = earlier.len();
        while i >= 2 && seen < occurrences {
            i -= 2;
            let s = &earlier[i];
            if s.board_key == current.board_key && s.hand_key == current.hand_key {
                seen += 1;
                first = Some(i);
            }
        }
        let Some(first) = first.filter(|_| seen >= occurrences) else {
            return Repetition::None;
        };
        // Positions after `first`: those an even distance from now were reached by the
        // opponent's moves, the others by ours. A position's `checkers` says its mover checked.
        let n = earlier.len();
        let (mut opponent_always, mut us_always) = (true, true);
        let after_first =
            earlier.iter().chain(std::iter::once(current)).enumerate().skip(first + 1);
        for (j, s) in after_first {
            let checked = s.checkers.is_nonempty();
            if (n - j) % 2 == 0 {
                opponent_always &= checked;
            } else {
                us_always &= checked;
            }
        }
        let us = self.side_to_move();
        match (opponent_always, us_always) {
            (true, false) => Repetition::PerpetualCheck { loser: !us },
            (false, true) => Repetition::PerpetualCheck { loser: us },
            _ => Repetition::Draw,
        }
    }
}
