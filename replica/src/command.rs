//! `tsumugi-replica FILE...`: shtsume's search replicated, its first proof of each problem and
//! how many positions it expanded, to set beside a traced shtsume's (issue 80). An instrument
//! for solver work: it answers no user's question (no mate line is built).

use super::search::{Replica, Without};
use clap::Args;
use solver::batch::input::read_inputs;
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct ReplicaArgs {
    /// Problem files (SFEN lines, KIF, CSA, ...).
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Stop a problem's search after this many expansions.
    #[arg(long, default_value_t = 40_000_000)]
    pub nodes: u64,
    /// The table's size in MB (shtsume's `-m`).
    #[arg(long, default_value_t = 1024)]
    pub hash: usize,
    /// Write each problem's first N expansions to `<DIR>/<id>.trace` (needs `--trace-dir`),
    /// in `solve --trace`'s form.
    #[arg(long, default_value_t = 0, requires = "trace_dir")]
    pub trace: usize,
    #[arg(long)]
    pub trace_dir: Option<PathBuf>,
    /// Leave shtsume's mechanisms out, to measure each: a comma list of probe, floor, weak,
    /// first, ryuma, ghi (see `replica::search::Without`).
    #[arg(long, value_parser = Without::parse)]
    pub without: Option<Without>,
}

/// Runs the replica over the files; a line a problem: `<id> <answer> expansions <n> first <n>
/// again <n> terminal <n>`. Returns the exit code (1: a file or line could not be read).
pub fn run(args: &ReplicaArgs) -> u8 {
    let inputs = read_inputs(&args.files, None);
    for bad in &inputs.bad_lines {
        eprintln!("{}:{}: {}", bad.file, bad.line, bad.error);
    }
    for f in &inputs.unreadable {
        eprintln!("{}: {}", f.file, f.error);
    }
    if let Some(dir) = &args.trace_dir {
        if let Err(e) = std::fs::create_dir_all(dir) {
            eprintln!("{}: {e}", dir.display());
            return 1;
        }
    }
    for task in &inputs.tasks {
        let label = task.label();
        let mut replica = Replica::new(&task.problem.position, args.hash, args.nodes, args.trace);
        replica.without = args.without.unwrap_or_default();
        let out = replica.first_proof();
        let answer = if out.pn == 0 {
            format!("mate {}", out.sh)
        } else if out.dn == 0 {
            "nomate".to_string()
        } else {
            format!("unknown (pn {} dn {})", out.pn, out.dn)
        };
        println!(
            "{label} {answer} expansions {} first {} again {} terminal {}",
            out.expansions,
            out.expansions.saturating_sub(out.again),
            out.again,
            out.terminal
        );
        if let (Some(dir), Some(trace)) = (&args.trace_dir, &out.trace) {
            let path = dir.join(format!("{}.trace", label.replace(['/', ' '], "_")));
            if let Err(e) = std::fs::write(&path, trace.to_tsv()) {
                eprintln!("{}: {e}", path.display());
            }
        }
    }
    u8::from(!inputs.bad_lines.is_empty() || !inputs.unreadable.is_empty())
}
