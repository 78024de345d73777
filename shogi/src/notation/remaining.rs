//! The pieces a setup has not placed: what CSA's `P-00AL` and BOD's `残りの駒` give to a hand.

use crate::color::Color;
use crate::piece::PieceKind;
use crate::setup::Setup;

/// Gives `color` every piece of a full set (kings aside) that is neither on the board nor in a
/// hand. Tsume files use it for the defender, whose hand is "all the rest".
pub fn remaining_to_hand(setup: &mut Setup, color: Color) {
    for kind in PieceKind::HAND {
        let on_board = setup
            .board
            .iter()
            .filter(|p| p.get().is_some_and(|(_, k)| k.unpromote() == kind))
            .count();
        let in_hands: usize = setup.hands.iter().map(|h| h[kind.index()] as usize).sum();
        let left =
            (PieceKind::SET_COUNT[kind.index()] as usize).saturating_sub(on_board + in_hands);
        let slot = &mut setup.hands[color.index()][kind.index()];
        *slot = slot.saturating_add(left as u8);
    }
}
