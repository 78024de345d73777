//! Rules-core benchmarks: perft (make/unmake plus legal generation) and the generators alone on
//! real mid-game positions. `cargo bench -p tsumugi-benches --bench movegen`.

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use shogi::movegen::{generate, legal_moves};
use shogi::perft::perft;
use shogi::{MoveClass, MoveList, NonPromotions, Position};
use std::hint::black_box;

const MATSURI: &str = "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1";

/// The mid-game set from `../shared/problems` when present, else a few built-in positions.
fn midgame_positions() -> Vec<Position> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/problems/midgame_positions.sfen");
    let text = std::fs::read_to_string(path).unwrap_or_else(|_| {
        [MATSURI, "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"].join("\n")
    });
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .filter_map(|l| Position::from_sfen(l.split(" #").next().unwrap_or("")).ok())
        .collect()
}

fn perft_benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    for (name, sfen, depth, nodes) in [
        ("startpos_5", shogi::sfen::STARTPOS, 5, 19_861_490u64),
        ("matsuri_3", MATSURI, 3, 4_809_015),
    ] {
        group.throughput(Throughput::Elements(nodes));
        group.bench_function(name, |b| {
            b.iter_batched_ref(
                || Position::from_sfen(sfen).unwrap_or_else(|e| panic!("{e}")),
                |pos| assert_eq!(perft(pos, depth), nodes),
                BatchSize::SmallInput,
            )
        });
    }
    group.finish();
}

fn generator_benches(c: &mut Criterion) {
    let positions = midgame_positions();
    let mut group = c.benchmark_group("generate");
    group.throughput(Throughput::Elements(positions.len() as u64));
    let mut list = MoveList::new();
    group.bench_function("legal_midgame", |b| {
        b.iter(|| {
            let mut n = 0;
            for pos in &positions {
                list.clear();
                legal_moves(pos, &mut list);
                n += list.len();
            }
            black_box(n)
        })
    });
    group.bench_function("checks_midgame", |b| {
        b.iter(|| {
            let mut n = 0;
            for pos in &positions {
                list.clear();
                generate(pos, MoveClass::Checks, NonPromotions::Skip, &mut list);
                n += list.len();
            }
            black_box(n)
        })
    });
    group.bench_function("make_unmake_midgame", |b| {
        b.iter_batched_ref(
            || positions.clone(),
            |ps| {
                for pos in ps.iter_mut() {
                    list.clear();
                    legal_moves(pos, &mut list);
                    for &m in list.iter() {
                        pos.make_move(m);
                        pos.unmake_move();
                    }
                }
            },
            BatchSize::LargeInput,
        )
    });
    group.finish();
}

criterion_group!(benches, perft_benches, generator_benches);
criterion_main!(benches);
