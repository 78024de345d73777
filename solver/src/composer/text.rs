//! The composer's report as text: one block per problem, in the words composers use.
//!
//! The words 余詰, 変長, 変同 and 駒余り appear only when the flaw is there, so that a search
//! of the text for them finds the flawed problems.

use super::{ComposerReport, CookKind, Line, Status, VariationFlag};
use std::fmt::Write;

/// The report of one problem, titled `title`: its findings, then its unsettled questions.
pub fn render(title: &str, r: &ComposerReport) -> String {
    findings(title, r) + &unsettled(r)
}

/// The questions the limits left unsettled, a line each (empty when none).
pub fn unsettled(r: &ComposerReport) -> String {
    let mut s = String::new();
    for u in &r.unsettled {
        let _ = writeln!(s, "  unsettled at move {}: {}: {}", u.ply, joined(&u.line), u.what);
    }
    s
}

/// The report of one problem without its unsettled questions: the answer, and the flaws found.
pub fn findings(title: &str, r: &ComposerReport) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "== {title}");
    let _ = writeln!(s, "{}", r.sfen);
    match r.status {
        Status::Mate => {
            let n = r.length.unwrap_or(0);
            let shortest = shortest_words(r);
            let _ = writeln!(s, "{n}手詰 ({shortest}; {} nodes, {} ms)", r.nodes, r.time_ms);
            let _ = writeln!(s, "  {}", r.main_line.japanese.join(" "));
            let _ = writeln!(s, "  usi: {}", r.main_line.usi.join(" "));
            summary_line(&mut s, r);
            questions_line(&mut s, r);
        }
        Status::NoMate => {
            let _ = writeln!(s, "不詰 (no mate; {} nodes, {} ms)", r.nodes, r.time_ms);
            for f in &r.refutations {
                let how = if f.refuted { "escapes" } else { "refutation not settled" };
                let _ = writeln!(s, "  {}  ({how})", f.line.japanese.join(" "));
            }
        }
        Status::Unsettled => {
            let _ = writeln!(
                s,
                "unsettled: no answer within the limits ({} nodes, {} ms)",
                r.nodes, r.time_ms
            );
        }
    }
    for c in &r.cooks {
        let proven = if c.proven { "" } else { ", shortest not proven" };
        let word = match c.kind {
            CookKind::Cook => "余詰",
            CookKind::PromotionChoice => "成不成非限定 (not a cook)",
        };
        let _ = writeln!(
            s,
            "  {word} at move {}: {} mates in {} plies from here (main line {}{proven}): {}",
            c.ply,
            c.line.japanese.first().map_or("", String::as_str),
            c.length,
            c.main_length,
            joined(&c.line)
        );
    }
    for v in &r.variations {
        let flag = match v.flag {
            VariationFlag::Shorter => String::new(),
            f => format!(" {}", f.japanese()),
        };
        let left = if v.pieces_left.is_empty() {
            String::new()
        } else {
            format!(", leaves {}", v.pieces_left.join(" "))
        };
        let _ = writeln!(
            s,
            "  変化 at move {}: {} {} plies (main line {}){flag}{left}: {}",
            v.ply,
            v.line.japanese.first().map_or("", String::as_str),
            v.length,
            v.main_length,
            joined(&v.line)
        );
    }
    if !r.pieces_left.is_empty() {
        let _ =
            writeln!(s, "  駒余り: the main line ends with {} in hand", r.pieces_left.join(" "));
    }
    if let Some(i) = &r.intended {
        let _ = writeln!(s, "  intended line: {}", i.describe());
    }
    s
}

/// The one-line verdict under the main line.
fn summary_line(s: &mut String, r: &ComposerReport) {
    let mut flaws = Vec::new();
    let cooks = r.cooks.iter().filter(|c| c.kind == CookKind::Cook).count();
    if cooks > 0 {
        flaws.push(format!("{cooks} cooks"));
    }
    let count = |f: VariationFlag| r.variations.iter().filter(|v| v.flag == f).count();
    for f in [VariationFlag::Longer, VariationFlag::Equal, VariationFlag::EqualWithPiecesLeft] {
        if count(f) > 0 {
            flaws.push(format!("{} {}", count(f), f.japanese()));
        }
    }
    if !r.pieces_left.is_empty() {
        flaws.push("pieces left in hand".to_string());
    }
    let verdict = if r.sound() {
        "sound: one mate, no cook, nothing left in hand".to_string()
    } else if flaws.is_empty() {
        format!("no flaw found, {} questions unsettled", r.unsettled.len())
    } else {
        format!("flaws: {}", flaws.join(", "))
    };
    let _ = writeln!(
        s,
        "  {verdict}; {} variations, {} futile interpositions not counted",
        r.variations.len(),
        r.futile_interpositions
    );
}

/// Whether the length is the shortest, and what proved it or what is open.
fn shortest_words(r: &ComposerReport) -> String {
    if r.proven_shortest && r.shortest_from_questions {
        return "shortest proven, by the questions".to_string();
    }
    if r.proven_shortest {
        return "shortest proven".to_string();
    }
    // A cook's line shorter than the main line's from its move is a mate sooner: the main
    // line is not the shortest there.
    let sooner = r.cooks.iter().filter(|c| c.length < c.main_length).min_by_key(|c| c.ply);
    if let Some(c) = sooner {
        return format!(
            "shortest NOT proven: a shorter mate found, at move {} {} mates in {} plies against the main line's {}",
            c.ply,
            c.line.japanese.first().map_or("", String::as_str),
            c.length,
            c.main_length
        );
    }
    match r.shorter_open.first() {
        None => "shortest NOT proven".to_string(),
        Some(first) => format!(
            "shortest NOT proven: {} other check{} may mate sooner, the first at move {} ({})",
            r.shorter_open.len(),
            if r.shorter_open.len() == 1 { "" } else { "s" },
            first.ply,
            joined(&first.line)
        ),
    }
}

/// How the questions went: a composer with unsettled ones sees whether more time would help.
fn questions_line(s: &mut String, r: &ComposerReport) {
    let q = &r.questions;
    let seconds = |ms: u64| format!("{:.1}", ms as f64 / 1000.0);
    let budget = match (q.budget_ms, q.budget_nodes) {
        (_, Some(n)) => {
            format!("{} nodes of the {n} for questions ({} s)", q.nodes, seconds(q.time_ms))
        }
        (Some(ms), None) => {
            format!("{} s of the {} s for questions", seconds(q.time_ms), seconds(ms))
        }
        (None, None) => format!("{} s", seconds(q.time_ms)),
    };
    let _ =
        writeln!(s, "  questions: {} settled, {} unsettled, in {budget}", q.settled, q.unsettled);
}

fn joined(line: &Line) -> String {
    line.japanese.join(" ")
}
