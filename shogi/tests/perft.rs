//! Perft against published counts (run with `--release`; the debug build is slow).

use shogi::perft::perft;
use shogi::Position;

const STARTPOS: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
const MATSURI: &str = "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1";
const MAX_MOVES: &str = "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1";

fn check(sfen: &str, expected: &[u64]) {
    let mut pos = Position::from_sfen(sfen).unwrap_or_else(|e| panic!("{sfen}: {e}"));
    for (i, &want) in expected.iter().enumerate() {
        let depth = i as u32 + 1;
        assert_eq!(perft(&mut pos, depth), want, "{sfen} depth {depth}");
        assert_eq!(
            pos.to_sfen(),
            Position::from_sfen(sfen).map(|p| p.to_sfen()).unwrap_or_default()
        );
    }
}

#[test]
fn startpos() {
    check(STARTPOS, &[30, 900, 25_470, 719_731, 19_861_490]);
}

#[test]
fn matsuri() {
    check(MATSURI, &[207, 28_684, 4_809_015]);
}

#[test]
fn max_moves() {
    check(MAX_MOVES, &[593, 105_677]);
}
