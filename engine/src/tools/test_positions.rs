//! Positions for tests that compare a fast routine with its slow reference: the problem files
//! of the repository (tsume problems, mate-in-one and no-mate positions) and the bench
//! positions, each followed by a short reproducible random playout, so that ordinary game
//! positions, positions in check and positions with a mate in one all occur.

use shogi::{movegen, MoveList, Position};

/// The SFEN lines of every `problems/*.sfen` file (comments dropped), in file-name order.
fn problem_sfens() -> Vec<String> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../problems");
    let Ok(entries) = std::fs::read_dir(&dir) else { return Vec::new() };
    let mut files: Vec<_> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "sfen"))
        .collect();
    files.sort();
    let mut out = Vec::new();
    for f in files {
        let Ok(text) = std::fs::read_to_string(&f) else { continue };
        for line in text.lines() {
            let sfen = line.split('#').next().unwrap_or("").trim();
            if !sfen.is_empty() {
                out.push(sfen.to_owned());
            }
        }
    }
    out
}

/// Calls `visit` on every start position and on each position of a random playout of up to
/// `plies` moves from it (the same playouts on every run).
pub fn for_each(plies: usize, mut visit: impl FnMut(&mut Position)) {
    let mut starts = problem_sfens();
    starts.extend(crate::tools::bench::BENCH_POSITIONS.iter().map(|s| s.to_string()));
    starts.push("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1".to_owned());
    let mut rng = crate::tools::xorshift::XorShift64::new(0x2545_f491_4f6c_dd1d);
    let mut list = MoveList::new();
    for sfen in &starts {
        let Ok(mut pos) = Position::from_sfen(sfen) else { continue };
        visit(&mut pos);
        for _ in 0..plies {
            list.clear();
            movegen::legal_moves(&pos, &mut list);
            if list.is_empty() {
                break;
            }
            let m = list[rng.below(list.len())];
            pos.make_move(m);
            visit(&mut pos);
        }
    }
}
