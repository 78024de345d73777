//! Whether the report's questions prove the main line's length the shortest.
//!
//! At every attacker move of the main line the report asks whether each other check mates. If
//! each of them is settled with no mate sooner than the main line's from there (no mate, a mate
//! proven no shorter, or no mate within the plies the main line needs), then no mate is shorter
//! than the main line: from each attacker position along it, the main move leads (by the main
//! line's defence, which the defender may choose) to the next one, and every other check needs
//! at least as long; by induction from the end, the root needs the main line's length. So the
//! headline says "shortest proven" when the questions show it, even where the problem's own
//! solve did not prove it within its budget; where one is open, the headline names it.

use super::{Answer, ComposerReport};

/// Whether the answer to "does this other check mate?", `remaining` plies of the main line
/// from its position (its move included), rules out a mate there sooner than the main line's.
pub(super) fn rules_out_shorter(answer: &Answer, remaining: usize) -> bool {
    match answer {
        Answer::NoMate => true,
        // No mate within `plies` after the check: at least `plies + 2` plies with it.
        Answer::NotWithin { plies, .. } | Answer::OpenBeyond { plies, .. } => {
            plies + 2 >= remaining
        }
        Answer::Mate { moves, proven } => *proven && moves.len() + 1 >= remaining,
        Answer::Unsettled(_) => false,
    }
}

/// The headline's length: proven by the solve, or by the questions when every other check
/// along the main line rules out a shorter mate (see the module doc).
pub(super) fn settle_headline(report: &mut ComposerReport) {
    if !report.proven_shortest && report.shorter_open.is_empty() {
        report.proven_shortest = true;
        report.shortest_from_questions = true;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shogi::Move;

    #[test]
    fn only_settled_answers_no_sooner_than_the_main_line_rule_a_shorter_mate_out() {
        let moves = |n: usize| vec![Move::NULL; n];
        assert!(rules_out_shorter(&Answer::NoMate, 7));
        // A check, then 6 plies: 7, as long as the main line's 7.
        assert!(rules_out_shorter(&Answer::Mate { moves: moves(6), proven: true }, 7));
        assert!(!rules_out_shorter(&Answer::Mate { moves: moves(4), proven: true }, 7));
        assert!(!rules_out_shorter(&Answer::Mate { moves: moves(8), proven: false }, 7));
        // No mate within 6 plies after the check: 9 at least.
        assert!(rules_out_shorter(&Answer::NotWithin { plies: 6, moves: moves(8) }, 7));
        assert!(rules_out_shorter(&Answer::NotWithin { plies: 5, moves: moves(8) }, 7));
        assert!(!rules_out_shorter(&Answer::NotWithin { plies: 4, moves: moves(8) }, 7));
        assert!(!rules_out_shorter(&Answer::Unsettled(String::new()), 7));
        // Open beyond, but no mate within 6 after the check: what the headline needs.
        let open = |plies| Answer::OpenBeyond { plies, what: String::new() };
        assert!(rules_out_shorter(&open(6), 7));
        assert!(!rules_out_shorter(&open(4), 7));
    }
}
