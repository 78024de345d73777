//! Self-play sanity: many short games at low depth from seeded random openings, every move
//! checked against the rules, with every soppo mode and the oracles on.

use engine::{Engine, Params, SearchControl, SearchLimits};
use shogi::{movegen, MoveList, Position, Repetition};

const START: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";

/// A small deterministic generator (64-bit LCG).
struct Lcg(u64);
impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        self.0 >> 33
    }
}

#[test]
fn twenty_short_games_play_only_legal_moves() {
    let mut plies_total = 0;
    let mut decided = 0;
    for game in 0..20u64 {
        let mut rng = Lcg(0x5eed ^ game.wrapping_mul(0x9e37_79b9));
        let mut pos = Position::from_sfen(START).expect("sfen");
        let p = Params { soppo_mode: (game % 3) as i32, oracle_root_ms: 20, ..Params::default() };
        let mut engines = [Engine::new(p.clone(), 4), Engine::new(p, 4)];
        let random_plies = 2 + (game % 5) as usize;
        for ply in 0..120 {
            let mut legal = MoveList::new();
            movegen::legal_moves(&pos, &mut legal);
            if legal.is_empty() {
                decided += 1;
                break;
            }
            if pos.repetition() != Repetition::None || pos.can_declare_win() {
                break;
            }
            let m = if ply < random_plies {
                legal[(rng.next() % legal.len() as u64) as usize]
            } else {
                let side = ply % 2;
                let limits = SearchLimits {
                    depth: Some(2 + ((game as usize + side) % 2) as u32),
                    nodes: Some(20_000),
                    multipv: 1,
                };
                let out =
                    engines[side].search(&pos, &limits, &SearchControl::unlimited(), &mut |_| {});
                let m = out.best.expect("a move when moves exist");
                if let Some(p) = out.ponder {
                    let mut after = pos.clone();
                    after.make_move(m);
                    assert!(movegen::is_legal(&after, p), "game {game} ply {ply}: ponder {p}");
                }
                m
            };
            assert!(movegen::is_legal(&pos, m), "game {game} ply {ply}: {m} in {}", pos.to_sfen());
            pos.make_move(m);
            plies_total += 1;
        }
    }
    assert!(plies_total > 20 * 40, "games too short: {plies_total} plies");
    println!("{plies_total} plies, {decided} games ended in mate");
}
