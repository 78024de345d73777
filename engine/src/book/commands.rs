//! `tsumugi book ...`: the command line of the book tools (`build`, `stats`, `versus`). Each
//! prints its tables as Markdown, ready for a file of `benches/history/`.

use crate::book::build::{games_of, BookBuilder, BuildSettings};
use crate::book::estimate::{estimate_engine, samples_of, ExitEvaluation, Logistic};
use crate::book::format::Book;
use crate::book::policy::BookPolicy;
use crate::book::stats::BookStats;
use crate::book::think::{backed_up, expand, next_leaf, think_engine, ThinkSettings};
use crate::book::versus::{pseudo_match, PseudoMatch, Side};
use crate::search::engine::Engine;
use crate::tools::chart::LineChart;
use clap::{Args, Subcommand};
use shogi::notation::{decode_text, Format};
use shogi::Position;
use std::fmt::Write as _;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};

#[derive(Args, Debug)]
pub struct BookArgs {
    #[command(subcommand)]
    pub command: BookCommand,
}

#[derive(Subcommand, Debug)]
pub enum BookCommand {
    /// Build a book from game records (CSA, KIF, KI2, or USI `position ... moves` lines).
    Build(BuildArgs),
    /// What a book holds: positions and moves by ply, and how long it stays in book against
    /// itself.
    Stats(StatsArgs),
    /// The exact pseudo-match of two books, both colour assignments.
    Versus(VersusArgs),
    /// Grow a book with our own search, best-first from the root (drop-out expansion); goes
    /// on from the book when it exists.
    Think(ThinkArgs),
}

#[derive(Args, Debug)]
pub struct ThinkArgs {
    /// The book to grow (created when missing).
    #[arg(long, short)]
    pub out: PathBuf,
    /// Leaves to search in this run.
    #[arg(long, default_value_t = 100)]
    pub leaves: usize,
    /// Nodes of each leaf's search.
    #[arg(long, default_value_t = ThinkSettings::default().nodes)]
    pub nodes: u64,
    /// Positions past this move number are not expanded.
    #[arg(long, default_value_t = ThinkSettings::default().max_ply)]
    pub max_ply: u32,
    /// Centipawns one more ply costs when choosing the next leaf (small: deep main lines;
    /// large: broad).
    #[arg(long, default_value_t = ThinkSettings::default().depth_cost)]
    pub depth_cost: i32,
    /// Moves added per leaf, best first with their values (the seed's Logistello adds the
    /// best and the second best).
    #[arg(long, default_value_t = ThinkSettings::default().moves_per_leaf)]
    pub moves_per_leaf: u32,
    /// Hash of the search (MiB).
    #[arg(long, default_value_t = 64)]
    pub hash: usize,
    /// Write the book every this many leaves.
    #[arg(long, default_value_t = 10)]
    pub save_every: usize,
}

/// How a book is played (the USI options of the same names).
#[derive(Args, Debug, Clone)]
pub struct PolicyArgs {
    /// Book positions past this move number are not used (`BookMaxPly`).
    #[arg(long, default_value_t = BookPolicy::default().max_ply)]
    pub max_ply: u32,
    /// Moves valued worse than the position's best by more than this (centipawns) are not
    /// played (`BookEvalDiff`).
    #[arg(long, default_value_t = BookPolicy::default().eval_diff)]
    pub eval_diff: i32,
    /// Moves with a smaller count are not played (`BookMinCount`).
    #[arg(long, default_value_t = BookPolicy::default().min_count)]
    pub min_count: u64,
    /// Play the best move only (`BookRandom false`).
    #[arg(long)]
    pub best_only: bool,
}

impl PolicyArgs {
    fn policy(&self) -> BookPolicy {
        BookPolicy {
            max_ply: self.max_ply,
            eval_diff: self.eval_diff,
            min_count: self.min_count,
            random: !self.best_only,
        }
    }
}

#[derive(Args, Debug)]
pub struct BuildArgs {
    /// Record files.
    #[arg(required = true)]
    pub records: Vec<PathBuf>,
    /// The book to write.
    #[arg(long, short)]
    pub out: PathBuf,
    /// Positions past this move number are not added.
    #[arg(long, default_value_t = 40)]
    pub max_ply: u32,
    /// Moves played fewer times are left out.
    #[arg(long, default_value_t = 1)]
    pub min_count: u64,
}

#[derive(Args, Debug)]
pub struct StatsArgs {
    /// The book (YaneuraOu text format).
    pub book: PathBuf,
    #[command(flatten)]
    pub policy: PolicyArgs,
    /// Write the figures (SVG) into this folder.
    #[arg(long, value_name = "DIR")]
    pub svg: Option<PathBuf>,
}

#[derive(Args, Debug)]
pub struct VersusArgs {
    /// Book A (its score is estimated).
    pub a: PathBuf,
    /// Book B.
    pub b: PathBuf,
    #[command(flatten)]
    pub policy: PolicyArgs,
    /// Write the figures (SVG) into this folder.
    #[arg(long, value_name = "DIR")]
    pub svg: Option<PathBuf>,
    /// Estimate A's score: evaluate every exit with a search of this many nodes (0: no
    /// estimate).
    #[arg(long, default_value_t = 0)]
    pub eval_nodes: u64,
    /// The logistic curve from evaluation to score, fitted on these recorded games (with
    /// results; positions every 8 plies up to the 100th, evaluated as the exits are).
    #[arg(long, value_name = "RECORDS", num_args = 1..)]
    pub fit: Vec<PathBuf>,
    /// The curve given instead of fitted: `ALPHA,BETA` (black's score is
    /// `1 / (1 + exp(-(ALPHA + BETA * v)))`, v in centipawns for black).
    #[arg(long, value_name = "ALPHA,BETA", allow_hyphen_values = true)]
    pub logistic: Option<String>,
}

/// Runs a book command; the exit code (2: bad input).
pub fn run(args: &BookArgs) -> u8 {
    let result = match &args.command {
        BookCommand::Build(a) => build(a),
        BookCommand::Stats(a) => stats(a),
        BookCommand::Versus(a) => versus(a),
        BookCommand::Think(a) => think(a),
    };
    match result {
        Ok(text) => {
            print!("{text}");
            0
        }
        Err(e) => {
            eprintln!("tsumugi book: {e}");
            2
        }
    }
}

fn build(args: &BuildArgs) -> Result<String, String> {
    let settings = BuildSettings { max_ply: args.max_ply, min_count: args.min_count };
    let mut builder = BookBuilder::default();
    let mut out = String::new();
    for path in &args.records {
        let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let (games, errors) = games_of(&decode_text(&bytes), Format::from_path(path));
        for e in &errors {
            eprintln!("tsumugi book build: {}: {e} (record skipped)", path.display());
        }
        let decided = games.iter().filter(|g| g.decided).count();
        let _ = writeln!(
            out,
            "{}: {} games ({decided} with a result), {} skipped",
            path.display(),
            games.len(),
            errors.len()
        );
        games.iter().for_each(|g| builder.add(g, &settings));
    }
    let book = builder.book(&settings);
    book.save(&args.out)?;
    let _ = writeln!(out, "wrote {} positions to {}", book.len(), args.out.display());
    Ok(out)
}

fn load(path: &Path) -> Result<Book, String> {
    let (book, errors) = Book::load(path)?;
    for e in &errors {
        eprintln!("tsumugi book: {}: {e} (skipped)", path.display());
    }
    Ok(book)
}

fn stats(args: &StatsArgs) -> Result<String, String> {
    let book = load(&args.book)?;
    let policy = args.policy.policy();
    let s = BookStats::of(&book, &policy);
    let mut t = String::new();
    let _ = writeln!(
        t,
        "{}: {} positions, {} playable moves, {:.3} per position, largest ply {}",
        args.book.display(),
        s.positions,
        s.moves,
        s.average_moves(),
        s.max_ply
    );
    let _ = writeln!(t, "\n| moves in a position | positions |\n|---|---|");
    for (n, &c) in s.by_moves.iter().enumerate().filter(|(_, &c)| c > 0) {
        let _ = writeln!(t, "| {n} | {c} |");
    }
    let itself = pseudo_match(&Position::startpos(), side(&book, &policy), side(&book, &policy));
    let _ = writeln!(t, "\n| ply | positions | moves per position | in book against itself |");
    let _ = writeln!(t, "|---|---|---|---|");
    for (ply, &(n, moves)) in s.by_ply.iter().enumerate().skip(1) {
        let avg = if n > 0 { format!("{:.2}", moves as f64 / n as f64) } else { "-".into() };
        let p = itself.in_book.get(ply - 1).copied().unwrap_or(0.0);
        let _ = writeln!(t, "| {ply} | {n} | {avg} | {p:.4} |");
    }
    if let Some(dir) = &args.svg {
        let name = file_name(&args.book);
        let by_ply = |f: &dyn Fn(usize, usize) -> f64| -> Vec<(f64, f64)> {
            s.by_ply.iter().enumerate().skip(1).map(|(k, &(n, m))| (k as f64, f(n, m))).collect()
        };
        let figures = [
            (
                "positions_by_ply",
                "Book positions by ply (seed fig. 2)",
                "positions",
                by_ply(&|n, _| n as f64),
            ),
            (
                "moves_by_ply",
                "Playable moves per position by ply (seed fig. 3)",
                "moves per position",
                by_ply(&|n, m| if n > 0 { m as f64 / n as f64 } else { 0.0 }),
            ),
            (
                "in_book_itself",
                "In book against itself (seed fig. 7)",
                "probability",
                in_book_curve(&itself),
            ),
        ];
        for (file, title, y, points) in figures {
            write_chart(
                dir,
                &format!("{name}_{file}.svg"),
                title,
                y,
                vec![(name.clone(), points)],
                &mut t,
            )?;
        }
    }
    Ok(t)
}

fn file_name(path: &Path) -> String {
    path.file_stem().map_or_else(|| "book".to_string(), |s| s.to_string_lossy().into_owned())
}

/// The in-book probability per ply, down to the ply where it falls to zero.
fn in_book_curve(m: &PseudoMatch) -> Vec<(f64, f64)> {
    let mut points = curve(&m.in_book);
    points.push((m.in_book.len() as f64, 0.0));
    points
}

/// A per-ply sequence as points (ply from 0).
fn curve(values: &[f64]) -> Vec<(f64, f64)> {
    values.iter().enumerate().map(|(k, &v)| (k as f64, v)).collect()
}

/// Writes one figure by ply into `dir` and notes it in the report.
fn write_chart(
    dir: &Path,
    file: &str,
    title: &str,
    y_label: &str,
    series: Vec<(String, Vec<(f64, f64)>)>,
    report: &mut String,
) -> Result<(), String> {
    write_chart_with_x(dir, file, title, "ply", y_label, series, report)
}

/// Writes one figure into `dir` and notes it in the report.
fn write_chart_with_x(
    dir: &Path,
    file: &str,
    title: &str,
    x_label: &str,
    y_label: &str,
    series: Vec<(String, Vec<(f64, f64)>)>,
    report: &mut String,
) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let chart = LineChart {
        title: title.to_string(),
        x_label: x_label.to_string(),
        y_label: y_label.to_string(),
        series,
    };
    let path = dir.join(file);
    std::fs::write(&path, chart.svg()).map_err(|e| format!("{}: {e}", path.display()))?;
    let _ = writeln!(report, "wrote {}", path.display());
    Ok(())
}

fn side<'a>(book: &'a Book, policy: &'a BookPolicy) -> Side<'a> {
    Side { book, policy }
}

fn versus(args: &VersusArgs) -> Result<String, String> {
    let (a, b) = (load(&args.a)?, load(&args.b)?);
    let policy = args.policy.policy();
    let start = Position::startpos();
    let ab = pseudo_match(&start, side(&a, &policy), side(&b, &policy));
    let ba = pseudo_match(&start, side(&b, &policy), side(&a, &policy));
    let mut t = String::new();
    let _ = writeln!(
        t,
        "A = {}, B = {}\n\n| black | white | exit positions | entropy (bits) | book moves, black | \
         book moves, white |\n|---|---|---|---|---|---|",
        args.a.display(),
        args.b.display()
    );
    for (names, m) in [(("A", "B"), &ab), (("B", "A"), &ba)] {
        let _ = writeln!(
            t,
            "| {} | {} | {} | {:.2} | {:.2} | {:.2} |",
            names.0,
            names.1,
            m.exits.len(),
            m.entropy(),
            m.book_moves[0],
            m.book_moves[1]
        );
    }
    let _ = writeln!(t, "\n{}", by_ply_table(&ab, &ba));
    if args.eval_nodes > 0 {
        estimate_score(args, &ab, &ba, &mut t)?;
    }
    if let Some(dir) = &args.svg {
        let (na, nb) = (file_name(&args.a), file_name(&args.b));
        let labels = [format!("{na} black, {nb} white"), format!("{nb} black, {na} white")];
        let both = |f: &dyn Fn(&PseudoMatch) -> Vec<(f64, f64)>| {
            vec![(labels[0].clone(), f(&ab)), (labels[1].clone(), f(&ba))]
        };
        let exits = |m: &PseudoMatch, entropy: bool| -> Vec<(f64, f64)> {
            m.exits_by_ply()
                .iter()
                .enumerate()
                .map(|(k, &(n, h))| (k as f64, if entropy { h } else { n as f64 }))
                .collect()
        };
        let stem = format!("{na}_vs_{nb}");
        write_chart(
            dir,
            &format!("{stem}_in_book.svg"),
            "In book by ply (seed fig. 7)",
            "probability",
            both(&|m| in_book_curve(m)),
            &mut t,
        )?;
        write_chart(
            dir,
            &format!("{stem}_exits.svg"),
            "Exit positions by ply (seed fig. 6)",
            "positions",
            both(&|m| exits(m, false)),
            &mut t,
        )?;
        write_chart(
            dir,
            &format!("{stem}_entropy.svg"),
            "Entropy of the exits by ply (seed fig. 8)",
            "bits",
            both(&|m| exits(m, true)),
            &mut t,
        )?;
    }
    Ok(t)
}

/// In-book probability, exits and entropy share per ply, both colour assignments.
fn by_ply_table(ab: &PseudoMatch, ba: &PseudoMatch) -> String {
    let (xa, xb) = (ab.exits_by_ply(), ba.exits_by_ply());
    let plies = ab.in_book.len().max(ba.in_book.len()).max(xa.len()).max(xb.len());
    let mut t = String::new();
    let _ = writeln!(
        t,
        "| ply | in book, A black | in book, B black | exits, A black | exits, B black | \
         entropy, A black | entropy, B black |\n|---|---|---|---|---|---|---|"
    );
    for k in 0..plies {
        let p = |m: &PseudoMatch| m.in_book.get(k).copied().unwrap_or(0.0);
        let x = |v: &[(usize, f64)]| v.get(k).copied().unwrap_or((0, 0.0));
        let _ = writeln!(
            t,
            "| {k} | {:.4} | {:.4} | {} | {} | {:.3} | {:.3} |",
            p(ab),
            p(ba),
            x(&xa).0,
            x(&xb).0,
            x(&xa).1,
            x(&xb).1
        );
    }
    t
}

fn think(args: &ThinkArgs) -> Result<String, String> {
    let mut book = if args.out.exists() { load(&args.out)? } else { Book::new() };
    let before = book.len();
    let s = ThinkSettings {
        nodes: args.nodes.max(1),
        max_ply: args.max_ply,
        depth_cost: args.depth_cost,
        moves_per_leaf: args.moves_per_leaf.max(1),
    };
    let mut engine = think_engine(args.hash.max(1));
    let root = Position::startpos();
    let bar = solver::batch::progress_bar(std::io::stderr().is_terminal(), args.leaves);
    let mut searched = 0;
    for i in 0..args.leaves {
        let Some(leaf) = next_leaf(&book, &root, &s) else { break };
        expand(&mut engine, &mut book, &leaf, &s);
        searched += 1;
        bar.set_message(format!("{} positions, last at ply {}", book.len(), leaf.ply()));
        bar.inc(1);
        if (i + 1) % args.save_every.max(1) == 0 {
            backed_up(&book).save(&args.out)?;
        }
    }
    bar.finish_and_clear();
    backed_up(&book).save(&args.out)?;
    Ok(format!(
        "searched {searched} leaves: {} positions (was {before}), written to {}\n",
        book.len(),
        args.out.display()
    ))
}

/// The curve of `--logistic`, or fitted on the games of `--fit`.
fn curve_of(
    args: &VersusArgs,
    engine: &mut Engine,
    report: &mut String,
) -> Result<Logistic, String> {
    if let Some(text) = &args.logistic {
        let parts: Vec<f64> = text.split(',').filter_map(|x| x.trim().parse().ok()).collect();
        return match parts[..] {
            [alpha, beta] => Ok(Logistic { alpha, beta }),
            _ => Err(format!("--logistic {text:?}: expected ALPHA,BETA")),
        };
    }
    if args.fit.is_empty() {
        return Err("--eval-nodes needs a curve: --fit RECORDS... or --logistic ALPHA,BETA".into());
    }
    let mut games = Vec::new();
    for path in &args.fit {
        let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
        games.extend(games_of(&decode_text(&bytes), Format::from_path(path)).0);
    }
    let samples = samples_of(&games, engine, args.eval_nodes, 0, 8, 100);
    let curve = Logistic::fit(&samples)
        .ok_or_else(|| format!("no logistic curve fits the {} samples of --fit", samples.len()))?;
    let _ = writeln!(
        report,
        "Logistic curve fitted on {} positions of {} games: alpha {:.4}, beta {:.6} per cp \
         (black's score 1 / (1 + exp(-(alpha + beta v))))\n",
        samples.len(),
        games.iter().filter(|g| g.decided).count(),
        curve.alpha,
        curve.beta
    );
    Ok(curve)
}

/// The seed's table 4 and A's estimated score.
fn estimate_score(
    args: &VersusArgs,
    ab: &PseudoMatch,
    ba: &PseudoMatch,
    t: &mut String,
) -> Result<(), String> {
    let mut engine = estimate_engine(16);
    let curve = curve_of(args, &mut engine, t)?;
    let eab = ExitEvaluation::of(ab, &mut engine, args.eval_nodes, &curve);
    let eba = ExitEvaluation::of(ba, &mut engine, args.eval_nodes, &curve);
    let _ = writeln!(
        t,
        "| black | white | mean evaluation at exit (black, cp) | deviation | black's expected score |\n\
         |---|---|---|---|---|"
    );
    for (names, e) in [(("A", "B"), &eab), (("B", "A"), &eba)] {
        let (mean, dev) = e.mean_and_deviation();
        let _ = writeln!(
            t,
            "| {} | {} | {mean:.1} | {dev:.1} | {:.4} |",
            names.0, names.1, e.black_score
        );
    }
    let a_score = (eab.black_score + (1.0 - eba.black_score)) / 2.0;
    let _ = writeln!(
        t,
        "\nEstimated score of A against B: {:.4} ({:+.1} Elo; each colour half the games, exits \
         evaluated with {} nodes).",
        a_score,
        crate::matches::elo::elo_from_score(a_score),
        args.eval_nodes
    );
    if let Some(dir) = &args.svg {
        let (na, nb) = (file_name(&args.a), file_name(&args.b));
        let series = vec![
            (format!("{na} black, {nb} white"), eab.histogram(20.0)),
            (format!("{nb} black, {na} white"), eba.histogram(20.0)),
        ];
        write_chart_with_x(
            dir,
            &format!("{na}_vs_{nb}_exit_evaluations.svg"),
            "Exit evaluations, probability per 20 cp (seed fig. 11)",
            "evaluation at exit (cp, black)",
            "probability",
            series,
            t,
        )?;
    }
    Ok(())
}
