//! `solve --profile DIR`: each problem's first-proof profile (see `crate::search::profile`)
//! as `<DIR>/<id>.tsv`, and its summary line.

use crate::outcome::SolveResult;
use crate::search::profile::Profile;
use crate::search::reference_proof::ReferenceProof;
use shogi::Position;
use std::path::Path;

/// Plies per row of the file.
const BAND: usize = 10;

/// Departures listed in `<id>.off-proof.tsv`.
const DEPARTURES: usize = 40;

/// The id as a file name: path separators replaced.
fn file_name(id: &str) -> String {
    id.chars().map(|c| if matches!(c, '/' | '\\' | ':') { '_' } else { c }).collect()
}

/// Writes `<dir>/<id>.tsv` (the id with path separators replaced) and returns the problem's
/// summary line (or why the file could not be written).
pub fn write(dir: &Path, id: &str, profile: &Profile, result: &SolveResult) -> String {
    let path = dir.join(format!("{}.tsv", file_name(id)));
    if let Err(e) = std::fs::write(&path, profile.to_tsv(BAND)) {
        return format!("{}: cannot write: {e}", path.display());
    }
    if let Some(trace) = &profile.trace {
        let path = dir.join(format!("{}.trace", file_name(id)));
        if let Err(e) = std::fs::write(&path, trace.to_tsv()) {
            return format!("{}: cannot write: {e}", path.display());
        }
    }
    summary(id, profile, result)
}

/// The reference proof `<dir>/<id>.proof` of the problem whose root is `root`: `None` when
/// there is none, an error line when it cannot be read.
pub fn read_reference(
    dir: &Path,
    id: &str,
    root: &Position,
) -> Result<Option<ReferenceProof>, String> {
    let path = dir.join(format!("{}.proof", file_name(id)));
    let Ok(text) = std::fs::read_to_string(&path) else { return Ok(None) };
    ReferenceProof::read(root, &text).map(Some).map_err(|e| format!("{}: {e}", path.display()))
}

/// With a reference proof: writes `<dir>/<id>.off-proof.tsv` and returns its summary line.
pub fn write_off_proof(dir: &Path, id: &str, profile: &Profile) -> Option<String> {
    let off = profile.off_proof.as_ref()?;
    let path = dir.join(format!("{}.off-proof.tsv", file_name(id)));
    if let Err(e) = std::fs::write(&path, off.to_tsv(DEPARTURES)) {
        return Some(format!("{}: cannot write: {e}", path.display()));
    }
    let (on, away) = off.totals();
    let share = |n: u64| if on + away == 0 { 0.0 } else { 100.0 * n as f64 / (on + away) as f64 };
    let c = off.causes();
    Some(format!(
        "off-proof {id}: {on} expansions inside the reference proof, {away} outside it ({:.1} %): \
         under its check estimated best alone {:.1} %, best but tied {:.1} %, estimated worse \
         {:.1} %, at nodes never expanded {:.1} %, under defences it did not need {:.1} %",
        share(away),
        share(c.best_alone),
        share(c.best_tied),
        share(c.estimated_worse),
        share(c.not_seen),
        share(c.under_and),
    ))
}

/// One line: the first proof's expansions, the share expanded again, the distinct positions
/// and the most expansions of one, AND nodes with an interposable check, children by kind.
pub fn summary(id: &str, profile: &Profile, result: &SolveResult) -> String {
    let t = profile.total();
    let (distinct, most) = profile.distinct();
    let share = |n: u64, of: u64| if of == 0 { 0.0 } else { 100.0 * n as f64 / of as f64 };
    format!(
        "profile {id}: first proof {} expansions to ply {} ({:.1} % again, {distinct} positions, \
         one expanded {most} times; {:.1} % left unsolved, {:.1} % disproven by a repetition), {:.1} % at \
         AND nodes with an \
         interposable check; {} children: drop blocks {:.1} %, move blocks {:.1} %, futility \
         tests {:.1} %, attacker drops {:.1} %; whole solve {} expansions",
        t.expansions,
        profile.by_ply.len().saturating_sub(1),
        share(t.again, t.expansions),
        share(t.left_unsolved, t.expansions),
        share(t.by_repetition, t.expansions),
        share(t.interposable, t.expansions),
        t.children,
        share(t.drop_blocks, t.children),
        share(t.move_blocks, t.children),
        share(t.futility_tests, t.children),
        share(t.attacker_drops, t.children),
        result.expansions,
    )
}
