//! Replays a log of a shtsume's table calls through [`Table`] and compares every answer.
//!
//! The log comes from a shtsume patched to write each `tbase_lookup`, `tbase_update`,
//! `tbase_set_current`, path-flag clear and `hs_tbase_lookup` of its first proof, with the
//! entry before and after (the patch is kept outside the repository). Boards are keyed by
//! shtsume's own `zkey`: the table only needs a key per board and side to move. Run with
//! `SHTSUME_TABLE_LOG=path cargo test --release -p tsumugi-replica --lib table_replay --
//! --ignored --nocapture`.
//!
//! Line formats (hands as the counts of pawn, lance, knight, silver, gold, bishop, rook;
//! an entry as `pn dn sh hand hinc inc search nouse nouse2`):
//! - `L zkey hand ply tn <entry> | <entry>`
//! - `U zkey hand ply tn root_pn <entry> | <entry>`
//! - `S zkey hand ply tn pn | card`
//! - `C card`
//! - `H zkey hand ply tn checks | proven`

use super::table::{CurrentMark, Table};
use super::Entry;
use shogi::{Hand, PieceKind};
use std::io::{BufRead, BufReader};

fn hand(text: &str) -> Hand {
    use PieceKind::*;
    let mut h = Hand::EMPTY;
    let kinds = [Pawn, Lance, Knight, Silver, Gold, Bishop, Rook];
    for (kind, n) in kinds.iter().zip(text.split(',')) {
        h.set(*kind, n.parse().expect("a count"));
    }
    assert_eq!(h.total(), text.split(',').map(|n| n.parse::<u32>().unwrap()).sum::<u32>());
    h
}

/// Reads an entry from nine fields.
fn entry(f: &[&str]) -> Entry {
    let n = |i: usize| f[i].parse::<u16>().expect("a number");
    Entry {
        pn: n(0),
        dn: n(1),
        sh: n(2),
        hand: hand(f[3]),
        hinc: n(4) != 0,
        inc: n(5) != 0,
        search: n(6) != 0,
        nouse: n(7) as u8,
        nouse2: n(8) as u8,
        ..Entry::default()
    }
}

/// The fields shtsume's table reads or writes, to compare.
fn fields(e: &Entry) -> (u16, u16, u16, Hand, bool, bool, bool, u8, u8) {
    (e.pn, e.dn, e.sh, e.hand, e.hinc, e.inc, e.search, e.nouse, e.nouse2)
}

#[test]
#[ignore = "needs SHTSUME_TABLE_LOG, a log from a patched shtsume"]
fn replays_a_shtsume_table_log() {
    let Ok(path) = std::env::var("SHTSUME_TABLE_LOG") else {
        eprintln!("SHTSUME_TABLE_LOG not set: nothing to replay");
        return;
    };
    let file = std::fs::File::open(&path).expect("the log");
    let mut table = Table::new(1024);
    let mut counts = [0usize; 5];
    for (n, line) in BufReader::new(file).lines().enumerate() {
        let line = line.expect("a line");
        let f: Vec<&str> = line.split_whitespace().collect();
        let at = || format!("line {}: {line}", n + 1);
        let key = || u64::from_str_radix(f[1], 16).expect("a zkey");
        let ply = || f[3].parse::<u16>().expect("a ply");
        match f[0] {
            "L" => {
                let mut e = entry(&f[5..14]);
                table.lookup_key(key(), hand(f[2]), ply(), &mut e);
                assert_eq!(fields(&e), fields(&entry(&f[15..24])), "{}", at());
                counts[0] += 1;
            }
            "U" => {
                table.root_pn = f[5].parse().expect("root pn");
                let mut e = entry(&f[6..15]);
                table.update_key(key(), hand(f[2]), ply(), &mut e);
                assert_eq!(fields(&e), fields(&entry(&f[16..25])), "{}", at());
                counts[1] += 1;
            }
            "S" => {
                let e = Entry { pn: f[5].parse().expect("pn"), ..Entry::default() };
                let mark = table.set_current_key(key(), hand(f[2]), ply(), &e);
                assert_eq!(mark.0, f[7].parse::<usize>().expect("card"), "{}", at());
                counts[2] += 1;
            }
            "C" => {
                table.clear_current(CurrentMark(f[1].parse().expect("card")));
                counts[3] += 1;
            }
            "H" => {
                let in_check = f[5] != "0";
                let proven = in_check && table.proven_key(key(), hand(f[2])) == Some(true);
                assert_eq!(proven, f[7] == "1", "{}", at());
                counts[4] += 1;
            }
            _ => panic!("unknown line {}", at()),
        }
    }
    eprintln!(
        "replayed L {} U {} S {} C {} H {}: all equal; table {:?}, {} MB",
        counts[0],
        counts[1],
        counts[2],
        counts[3],
        counts[4],
        table.counts(),
        table.heap_bytes() >> 20
    );
}
