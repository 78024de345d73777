//! The file's intended line (作意: the moves of a KIF, or a `.pv` answer) against the solver's
//! main line: the same line, or where it departs and why.

use super::{Answer, Asker, Line};
use serde::Serialize;
use shogi::movegen::is_legal;
use shogi::{Move, Position};
use std::cmp::Ordering;

/// Why the intended line departs from the main line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum Departure {
    /// The two lines are the same.
    Same,
    /// At an attacker move the solver mates sooner (早詰 of the intended line).
    ShorterMate { intended: Option<usize>, main: usize },
    /// At an attacker move another mate of the same length (余詰 at that move).
    EqualMate { length: usize },
    /// At a defender move the solver's defence lasts longer than the intended one.
    LongerDefence { intended: Option<usize>, main: usize },
    /// At a defender move another defence of the same length (変同).
    EqualDefence { length: usize },
    /// At an attacker move the intended move mates sooner than the solver's (the solver's
    /// line was not the shortest: its shortness was not proven).
    IntendedMatesSooner { intended: usize, main: usize },
    /// At a defender move the intended defence lasts longer than the solver's.
    IntendedResistsLonger { intended: usize, main: usize },
    /// The intended move does not mate / is not mated within what the report could settle.
    Unsettled(String),
    /// The intended line has an illegal move, or is no mate line.
    Invalid(String),
    /// The intended line stops before the main line ends (or goes on after it).
    DifferentEnd { intended: usize, main: usize },
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct IntendedLine {
    pub line: Line,
    /// 1-based ply of the first move where it departs (`None`: the same line).
    pub departs_at: Option<usize>,
    pub departure: Departure,
}

impl IntendedLine {
    /// One sentence for the text report.
    pub fn describe(&self) -> String {
        let at = self.departs_at.map_or(String::new(), |p| format!("at move {p}: "));
        let len = |n: &Option<usize>| n.map_or("no mate found".to_string(), |n| format!("{n}"));
        match &self.departure {
            Departure::Same => "the intended line is the main line".to_string(),
            Departure::ShorterMate { intended, main } => format!(
                "{at}早詰: the solver mates in {main} plies from here, the intended move in {}",
                len(intended)
            ),
            Departure::EqualMate { length } => {
                format!("{at}余詰: another mate of the same length ({length} plies from here)")
            }
            Departure::LongerDefence { intended, main } => format!(
                "{at}変長: a longer defence, {main} plies from here against the intended {}",
                len(intended)
            ),
            Departure::EqualDefence { length } => {
                format!("{at}変同: the solver's defence is as long ({length} plies from here)")
            }
            Departure::IntendedMatesSooner { intended, main } => format!(
                "{at}the intended move mates in {intended} plies, sooner than the solver's {main}"
            ),
            Departure::IntendedResistsLonger { intended, main } => format!(
                "{at}the intended defence lasts {intended} plies, longer than the solver's {main}"
            ),
            Departure::Unsettled(what) => format!("{at}unsettled: {what}"),
            Departure::Invalid(what) => format!("{at}the intended line is invalid: {what}"),
            Departure::DifferentEnd { intended, main } => {
                format!("the intended line has {intended} plies, the main line {main}")
            }
        }
    }
}

/// Compares `intended` with the solver's `main` line from `root`.
pub(crate) fn compare_intended(
    asker: &mut Asker<'_>,
    root: &Position,
    intended: &[Move],
    main: &[Move],
) -> IntendedLine {
    let mut pos = root.clone();
    let line = valid_prefix_line(root, intended);
    let common = intended.iter().zip(main).take_while(|(a, b)| a == b).count();
    for &m in &intended[..common] {
        pos.make_move(m);
    }
    let at = Some(common + 1);
    let departure = if let Err(e) = crate::mate_line::verify_mate_line_as(
        root,
        asker.attacker,
        intended,
        asker.solver.config().rules,
    ) {
        return IntendedLine {
            line,
            departs_at: (common < intended.len()).then_some(common + 1),
            departure: Departure::Invalid(e),
        };
    } else if common == intended.len() && common == main.len() {
        return IntendedLine { line, departs_at: None, departure: Departure::Same };
    } else if common == intended.len() || common == main.len() {
        Departure::DifferentEnd { intended: intended.len(), main: main.len() }
    } else {
        let main_length = main.len() - common;
        let attacker_move = pos.side_to_move() == asker.attacker;
        match asker.after_long(&intended[..common], intended[common]) {
            Answer::Mate { moves, .. } => {
                let length = moves.len() + 1;
                let main = main_length;
                match (attacker_move, length.cmp(&main)) {
                    (true, Ordering::Equal) => Departure::EqualMate { length },
                    (true, Ordering::Greater) => {
                        Departure::ShorterMate { intended: Some(length), main }
                    }
                    (true, Ordering::Less) => {
                        Departure::IntendedMatesSooner { intended: length, main }
                    }
                    (false, Ordering::Equal) => Departure::EqualDefence { length },
                    (false, Ordering::Less) => {
                        Departure::LongerDefence { intended: Some(length), main }
                    }
                    (false, Ordering::Greater) => {
                        Departure::IntendedResistsLonger { intended: length, main }
                    }
                }
            }
            Answer::NoMate if attacker_move => {
                Departure::ShorterMate { intended: None, main: main_length }
            }
            Answer::NoMate => Departure::Unsettled(
                "the intended defence escapes the mate (the main line's proof does not hold)"
                    .to_string(),
            ),
            Answer::Unsettled(what) | Answer::OpenBeyond { what, .. } => Departure::Unsettled(what),
            // Never the answer of `after_long` (only a cook question asks for a bound).
            Answer::NotWithin { plies, .. } => {
                Departure::Unsettled(format!("no mate within {plies} plies"))
            }
        }
    };
    IntendedLine { line, departs_at: at, departure }
}

/// The intended line as far as its moves are legal.
fn valid_prefix_line(root: &Position, moves: &[Move]) -> Line {
    let mut pos = root.clone();
    let legal: Vec<Move> = moves
        .iter()
        .copied()
        .take_while(|&m| {
            let ok = is_legal(&pos, m);
            if ok {
                pos.make_move(m);
            }
            ok
        })
        .collect();
    Line::new(root, &legal, None)
}
