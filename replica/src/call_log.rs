//! The replica's table calls written one a line, in the form a logging build of shtsume
//! writes its own (`REPLICA_TABLE_LOG=file`): the first call where the two logs differ names
//! the place where the searches part before their expansions do (issue 80).

use super::Entry;
use shogi::{Color, Hand, PieceKind};
use std::fs::File;
use std::io::{BufWriter, Write};

pub struct CallLog {
    out: BufWriter<File>,
}

fn hand(h: Hand) -> String {
    use PieceKind::*;
    [Pawn, Lance, Knight, Silver, Gold, Bishop, Rook]
        .iter()
        .map(|&k| h.count(k).to_string())
        .collect::<Vec<_>>()
        .join(",")
}

fn entry(e: &Entry) -> String {
    format!(
        "{} {} {} {} {} {} {} {} {}",
        e.pn,
        e.dn,
        e.sh,
        hand(e.hand),
        u8::from(e.hinc),
        u8::from(e.inc),
        u8::from(e.search),
        e.nouse,
        e.nouse2
    )
}

impl CallLog {
    /// The log the environment asks for, if any.
    pub fn from_env() -> Option<CallLog> {
        let path = std::env::var("REPLICA_TABLE_LOG").ok()?;
        File::create(path).ok().map(|f| CallLog { out: BufWriter::new(f) })
    }

    fn head(&mut self, op: char, key: u64, own: Hand, ply: u16, attacker: Color) {
        let tn = u8::from(attacker == Color::White);
        let _ = write!(self.out, "{op} {key:016x} {} {ply} {tn}", hand(own));
    }

    pub fn lookup(
        &mut self,
        key: u64,
        own: Hand,
        ply: u16,
        attacker: Color,
        before: &Entry,
        after: &Entry,
    ) {
        self.head('L', key, own, ply, attacker);
        let _ = writeln!(self.out, " {} | {}", entry(before), entry(after));
    }

    #[allow(clippy::too_many_arguments)]
    pub fn update(
        &mut self,
        key: u64,
        own: Hand,
        ply: u16,
        attacker: Color,
        root_pn: u16,
        before: &Entry,
        after: &Entry,
    ) {
        self.head('U', key, own, ply, attacker);
        let _ = writeln!(self.out, " {root_pn} {} | {}", entry(before), entry(after));
    }

    pub fn set_current(
        &mut self,
        key: u64,
        own: Hand,
        ply: u16,
        attacker: Color,
        pn: u16,
        slot: Option<usize>,
    ) {
        self.head('S', key, own, ply, attacker);
        let _ = writeln!(self.out, " {pn} | {}", slot.map_or(-1, |s| s as i64));
    }

    pub fn clear(&mut self, slot: usize) {
        let _ = writeln!(self.out, "C {slot}");
    }
}
