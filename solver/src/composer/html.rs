//! The composer's report as one HTML page per file, to play through: a table of contents, and
//! beside the problems a board that shows any position of a main line. Each problem has its
//! start diagram (SVG), its main line as a list of moves in Japanese notation, and its text
//! report, the questions left unsettled folded away under their own heading. Clicking a move (or the arrow keys) shows the position after it on the board, with
//! the last move marked; `page.html#<id>/<ply>` opens that position, and moving updates the
//! address, so a link points at a move. The page is self-contained: the position of every ply
//! is in it (SFEN), drawn by a small script; without the script the diagrams and the text
//! report are still there. The board element carries the shown position in `data-sfen`.

use super::{text, ComposerReport, CookKind, VariationFlag};
use serde::Serialize;
use shogi::notation::svg::{board_svg, escape};
use shogi::Position;
use std::path::Path;

/// One problem of the page.
pub struct Section<'a> {
    /// The problem's id (the anchor of its links).
    pub id: String,
    pub title: String,
    pub position: &'a Position,
    pub report: &'a ComposerReport,
}

/// What the page's script knows of a problem's main line and its branches.
#[derive(Serialize)]
struct Script<'a> {
    id: &'a str,
    title: &'a str,
    /// The position before each ply and after the last one.
    sfens: Vec<String>,
    usi: &'a [String],
    japanese: &'a [String],
    branches: Vec<Branch<'a>>,
}

/// A 余詰 or 変化: another move at main-line ply `ply` (1-based) and the mate after it.
#[derive(Serialize)]
struct Branch<'a> {
    label: String,
    ply: usize,
    /// The position after each of its moves (the one before its first is the main line's).
    sfens: Vec<String>,
    usi: &'a [String],
    japanese: &'a [String],
}

/// A branch as the page lists it: its label, main-line ply and moves (USI and Japanese), and
/// whether it is a flaw to mark on the main line's move (余詰, 変長, 変同).
struct BranchLine<'a> {
    label: String,
    ply: usize,
    usi: &'a [String],
    japanese: &'a [String],
    flaw: bool,
}

/// The 余詰 and 変化 of a report, then where the intended line departs from the main line,
/// in the page's order.
fn branch_lines(r: &ComposerReport) -> Vec<BranchLine<'_>> {
    let cooks = r.cooks.iter().map(|c| {
        let (word, flaw) = match c.kind {
            CookKind::Cook => ("余詰", true),
            CookKind::PromotionChoice => ("成不成非限定", false),
        };
        let label = format!("{word} at move {}", c.ply);
        BranchLine { label, ply: c.ply, usi: &c.line.usi, japanese: &c.line.japanese, flaw }
    });
    let variations = r.variations.iter().map(|v| {
        let flag = v.flag.japanese();
        let word = if flag.is_empty() { "変化".to_string() } else { format!("変化 ({flag})") };
        let label = format!("{word} at move {}", v.ply);
        let flaw = v.flag != VariationFlag::Shorter;
        BranchLine { label, ply: v.ply, usi: &v.line.usi, japanese: &v.line.japanese, flaw }
    });
    let intended = r.intended.iter().filter_map(|i| {
        let ply = i.departs_at?;
        let (usi, japanese) = (i.line.usi.get(ply - 1..)?, i.line.japanese.get(ply - 1..)?);
        let label = format!("the intended line, from move {ply}");
        Some(BranchLine { label, ply, usi, japanese, flaw: false })
    });
    cooks.chain(variations).chain(intended).collect()
}

/// The page of the problems of the file at `path` (titled with its file name).
pub fn page(path: &str, sections: &[Section]) -> String {
    let name = Path::new(path).file_name().map_or(path.into(), |n| n.to_string_lossy());
    let mut html =
        String::from("<!DOCTYPE html>\n<html lang=\"ja\">\n<head>\n<meta charset=\"utf-8\">\n");
    html.push_str(&format!("<title>{} — Tsumugi composer report</title>\n", escape(&name)));
    html.push_str(STYLE);
    html.push_str("</head>\n<body>\n<main>\n");
    html.push_str(&format!("<h1>{}</h1>\n", escape(&name)));
    html.push_str(&contents(sections));
    for s in sections {
        html.push_str(&section(s));
    }
    html.push_str("</main>\n");
    html.push_str(VIEWER);
    let lines: Vec<Script> = sections.iter().map(script_data).collect();
    let json = serde_json::to_string(&lines).unwrap_or_else(|_| "[]".into());
    // `</` inside a script element would end it.
    html.push_str(&format!(
        "<script type=\"application/json\" id=\"lines\">{}</script>\n",
        json.replace("</", "<\\/")
    ));
    html.push_str(SCRIPT);
    html.push_str("</body>\n</html>\n");
    html
}

/// The table of contents: each problem with its length, verdict and flaws.
fn contents(sections: &[Section]) -> String {
    let mut html = String::from(
        "<nav class=\"toc\" aria-label=\"contents\">\n<table>\n\
         <tr><th>problem</th><th>length</th><th>verdict</th><th>flaws</th></tr>\n",
    );
    for s in sections {
        let r = s.report;
        let length = r.length.map_or("—".into(), |n| n.to_string());
        let verdict = if r.sound() { "sound" } else { "flagged" };
        html.push_str(&format!(
            "<tr><td><a href=\"#{id}/0\">{title}</a></td><td>{length}</td><td class=\"{verdict}\">{verdict}</td><td>{}</td></tr>\n",
            escape(&flaws(r)),
            id = escape(&s.id),
            title = escape(&s.title),
        ));
    }
    html.push_str("</table>\n</nav>\n");
    html
}

/// The flaws of a report in a few words (`余詰 2, 変長 1, 駒余り`), and its unsettled questions.
fn flaws(r: &ComposerReport) -> String {
    let cooks = r.cooks.iter().filter(|c| c.kind == CookKind::Cook).count();
    let longer = r.variations.iter().filter(|v| v.flag == VariationFlag::Longer).count();
    let mut words = Vec::new();
    if cooks > 0 {
        words.push(format!("余詰 {cooks}"));
    }
    if longer > 0 {
        words.push(format!("変長 {longer}"));
    }
    if !r.pieces_left.is_empty() {
        words.push("駒余り".into());
    }
    if !r.unsettled.is_empty() {
        words.push(format!("({} unsettled)", r.unsettled.len()));
    }
    words.join(", ")
}

/// A problem: its start diagram, its main line as moves to click, its text report.
fn section(s: &Section) -> String {
    let verdict = if s.report.sound() { "sound" } else { "flagged" };
    let id = escape(&s.id);
    let mut html = format!(
        "<section class=\"{verdict}\" id=\"{id}\">\n<h2>{}</h2>\n<div class=\"board\">",
        escape(&s.title)
    );
    html.push_str(&board_svg(s.position));
    html.push_str("</div>\n<div class=\"report\">\n");
    html.push_str(&format!("<ol class=\"line\" data-id=\"{id}\">\n"));
    html.push_str(&format!("<li value=\"0\"><a href=\"#{id}/0\">start</a></li>\n"));
    let branches = branch_lines(s.report);
    for (k, mv) in s.report.main_line.japanese.iter().enumerate() {
        let ply = k + 1;
        // A flaw (余詰, 変長, 変同) is marked on the main line's move where it happens.
        let flaws: Vec<&str> =
            branches.iter().filter(|b| b.flaw && b.ply == ply).map(|b| b.label.as_str()).collect();
        let mark = if flaws.is_empty() {
            String::new()
        } else {
            format!(" class=\"flaw\" title=\"{}\"", escape(&flaws.join("; ")))
        };
        html.push_str(&format!(
            "<li value=\"{ply}\"{mark}><a href=\"#{id}/{ply}\">{}</a></li>\n",
            escape(mv)
        ));
    }
    html.push_str("</ol>\n");
    if !branches.is_empty() {
        html.push_str(
            "<details class=\"branches\"><summary>余詰, 変化, the intended line</summary>\n<ul>\n",
        );
        for (b, BranchLine { label, japanese, .. }) in branches.iter().enumerate() {
            html.push_str(&format!(
                "<li>{}: <ol class=\"line\" data-id=\"{id}/b{b}\">",
                escape(label)
            ));
            for (j, mv) in japanese.iter().enumerate() {
                let n = j + 1;
                html.push_str(&format!(
                    "<li value=\"{n}\"><a href=\"#{id}/b{b}/{n}\">{}</a></li>",
                    escape(mv)
                ));
            }
            html.push_str("</ol></li>\n");
        }
        html.push_str("</ul>\n</details>\n");
    }
    html.push_str("<pre>");
    html.push_str(&escape(&text::findings(&s.title, s.report)));
    html.push_str("</pre>\n");
    // Questions the limits left open are no flaw: folded away under their own heading.
    let unsettled = s.report.unsettled.len();
    if unsettled > 0 {
        html.push_str(&format!(
            "<details class=\"unsettled\"><summary>Unsettled questions ({unsettled})</summary>\n<pre>"
        ));
        html.push_str(&escape(&text::unsettled(s.report)));
        html.push_str("</pre>\n</details>\n");
    }
    html.push_str("</div>\n</section>\n");
    html
}

fn script_data<'a>(s: &'a Section) -> Script<'a> {
    let line = &s.report.main_line;
    let mut pos = s.position.clone();
    let mut sfens = vec![pos.to_sfen()];
    for usi in &line.usi {
        match pos.parse_usi_move(usi) {
            Ok(mv) => {
                pos.make_move(mv);
                sfens.push(pos.to_sfen());
            }
            Err(_) => break,
        }
    }
    let branches = branch_lines(s.report)
        .into_iter()
        .filter_map(|BranchLine { label, ply, usi, japanese, .. }| {
            let mut pos = s.position.clone();
            for m in line.usi.get(..ply.checked_sub(1)?)? {
                pos.make_move(pos.parse_usi_move(m).ok()?);
            }
            let mut sfens = Vec::new();
            for m in usi {
                pos.make_move(pos.parse_usi_move(m).ok()?);
                sfens.push(pos.to_sfen());
            }
            Some(Branch { label, ply, sfens, usi, japanese })
        })
        .collect();
    Script { id: &s.id, title: &s.title, sfens, usi: &line.usi, japanese: &line.japanese, branches }
}

const STYLE: &str = "<style>
body { font-family: 'Noto Serif CJK JP', 'Hiragino Mincho ProN', serif; margin: 0; display: flex; }
main { flex: 1; padding: 1em 2em; min-width: 0; }
#viewer { position: sticky; top: 0; align-self: flex-start; width: 440px; padding: 1em;
  border-left: 1px solid #999; background: #fafaf5; height: 100vh; box-sizing: border-box; }
#viewer svg { width: 100%; height: auto; }
#viewer .hand { margin: 0.2em 0; }
.toc table { border-collapse: collapse; }
.toc td, .toc th { border-bottom: 1px solid #ddd; padding: 0.2em 0.8em; text-align: left; }
td.flagged { color: #b00; }
section { border-top: 1px solid #999; padding: 1em 0; display: flex; flex-wrap: wrap; gap: 2em; }
section h2 { width: 100%; margin: 0; }
section.flagged h2::after { content: ' ⚑'; color: #b00; }
section .board svg { width: 300px; height: auto; }
.report { flex: 1; min-width: 24em; }
ol.line { display: flex; flex-wrap: wrap; gap: 0.2em 0.8em; padding-left: 0; list-style: none; }
ol.line li::before { content: attr(value) '. '; color: #888; font-size: 80%; }
ol.line a { text-decoration: none; color: #124; }
ol.line a.current { background: #fde68a; }
ol.line li.flaw a { color: #b00; font-weight: bold; }
details.branches ul { padding-left: 1em; }
details.branches ol.line { display: inline-flex; margin: 0.2em 0; }
pre { white-space: pre-wrap; font-family: 'Noto Sans Mono CJK JP', monospace; }
details.unsettled summary { color: #666; cursor: pointer; }
</style>
";

const VIEWER: &str = "<aside id=\"viewer\">
<h2 id=\"viewer-title\">&nbsp;</h2>
<div id=\"board\" data-sfen=\"\"></div>
<p id=\"viewer-move\">&nbsp;</p>
<p><button id=\"prev\">◀</button> <button id=\"next\">▶</button>
<button id=\"copy\">copy SFEN</button></p>
</aside>
";

const SCRIPT: &str = r##"<script>
(function () {
  const lines = JSON.parse(document.getElementById('lines').textContent);
  const byId = new Map(lines.map(l => [l.id, l]));
  const KANJI = {P:'歩',L:'香',N:'桂',S:'銀',G:'金',B:'角',R:'飛',K:'玉',
    '+P':'と','+L':'杏','+N':'圭','+S':'全','+B':'馬','+R':'龍'};
  const FILES = '９８７６５４３２１', RANKS = '一二三四五六七八九';
  let cur = lines.length ? lines[0].id : null, ply = 0;

  function parse(sfen) {
    const [board, side, hands] = sfen.split(' ');
    const rows = board.split('/').map(row => {
      const cells = []; let plus = false;
      for (const ch of row) {
        if (ch >= '1' && ch <= '9') { for (let i = 0; i < +ch; i++) cells.push(null); }
        else if (ch === '+') { plus = true; }
        else { cells.push({k: (plus ? '+' : '') + ch.toUpperCase(), black: ch === ch.toUpperCase()}); plus = false; }
      }
      return cells;
    });
    const held = {black: [], white: []}; let n = '';
    for (const ch of (hands || '-')) {
      if (ch === '-') continue;
      if (ch >= '0' && ch <= '9') { n += ch; continue; }
      const side = ch === ch.toUpperCase() ? 'black' : 'white';
      held[side].push(KANJI[ch.toUpperCase()] + (n && n !== '1' ? n : '')); n = '';
    }
    return {rows, side, held};
  }

  function svg(sfen, usi) {
    const {rows, held} = parse(sfen), c = 40, x0 = 20, y0 = 24;
    let to = null;
    if (usi) { to = {col: 9 - (+usi[2]), row: usi.charCodeAt(3) - 97}; }
    let s = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${x0 * 2 + 9 * c + 20} ${y0 + 9 * c + 10}">`;
    s += `<rect x="${x0}" y="${y0}" width="${9 * c}" height="${9 * c}" fill="#f3d9a4" stroke="#333"/>`;
    if (to) s += `<rect x="${x0 + to.col * c}" y="${y0 + to.row * c}" width="${c}" height="${c}" fill="#f59e0b" opacity="0.45"/>`;
    for (let i = 1; i < 9; i++) {
      s += `<line x1="${x0 + i * c}" y1="${y0}" x2="${x0 + i * c}" y2="${y0 + 9 * c}" stroke="#333"/>`;
      s += `<line x1="${x0}" y1="${y0 + i * c}" x2="${x0 + 9 * c}" y2="${y0 + i * c}" stroke="#333"/>`;
    }
    for (let i = 0; i < 9; i++) {
      s += `<text x="${x0 + i * c + c / 2}" y="${y0 - 4}" font-size="12" text-anchor="middle">${FILES[i]}</text>`;
      s += `<text x="${x0 + 9 * c + 10}" y="${y0 + i * c + c / 2 + 4}" font-size="12" text-anchor="middle">${RANKS[i]}</text>`;
    }
    rows.forEach((cells, r) => cells.forEach((p, f) => {
      if (!p) return;
      const cx = x0 + f * c + c / 2, cy = y0 + r * c + c / 2;
      const turn = p.black ? '' : ` transform="rotate(180 ${cx} ${cy})"`;
      const color = p.k[0] === '+' ? '#b00' : '#111';
      s += `<text x="${cx}" y="${cy + 9}" font-size="26" text-anchor="middle" fill="${color}"${turn}>${KANJI[p.k]}</text>`;
    }));
    const hand = (mark, pieces) => `<p class="hand">${mark} 持駒 ${pieces.join(' ') || 'なし'}</p>`;
    return hand('△', held.white) + s + '</svg>' + hand('▲', held.black);
  }

  // A line to step through: a problem's main line (`key` = its id), or one of its branches
  // (`key` = `<id>/b<k>`: the main line up to the branch's move, then the branch).
  function lineOf(key) {
    const m = key.match(/^(.*)\/b(\d+)$/);
    if (!m) {
      const p = byId.get(key);
      return p && {title: p.title, sfens: p.sfens, usi: p.usi, japanese: p.japanese, first: 0};
    }
    const p = byId.get(m[1]), b = p && p.branches[+m[2]];
    if (!b) return null;
    return {title: `${p.title}: ${b.label}`, sfens: [p.sfens[b.ply - 1]].concat(b.sfens),
      usi: b.usi, japanese: b.japanese, first: b.ply - 1};
  }

  function show(key, k, fromHash) {
    const line = lineOf(key);
    if (!line) return;
    k = Math.max(0, Math.min(k, line.sfens.length - 1));
    cur = key; ply = k;
    const sfen = line.sfens[k];
    const board = document.getElementById('board');
    board.dataset.sfen = sfen;
    board.innerHTML = svg(sfen, k > 0 ? line.usi[k - 1] : null);
    document.getElementById('viewer-title').textContent = line.title;
    document.getElementById('viewer-move').textContent =
      k === 0 ? (line.first ? `after move ${line.first}` : 'start') : `${line.first + k}. ${line.japanese[k - 1]}`;
    document.querySelectorAll('ol.line a.current').forEach(a => a.classList.remove('current'));
    const a = document.querySelector(`ol.line[data-id="${CSS.escape(key)}"] li[value="${k}"] a`);
    if (a) a.classList.add('current');
    const hash = `#${key}/${k}`;
    if (!fromHash && location.hash !== hash) history.replaceState(null, '', hash);
  }

  function fromHash() {
    const m = decodeURIComponent(location.hash.slice(1)).match(/^(.*)\/(\d+)$/);
    if (m && lineOf(m[1])) {
      show(m[1], +m[2], true);
      const id = m[1].replace(/\/b\d+$/, '');
      const sec = document.getElementById(id);
      if (m[1] !== id) {
        const d = sec && sec.querySelector('details.branches');
        if (d) d.open = true;
      }
      if (sec) sec.scrollIntoView();
      return true;
    }
    return false;
  }

  window.addEventListener('hashchange', fromHash);
  document.addEventListener('keydown', e => {
    if (e.key === 'ArrowRight') { show(cur, ply + 1); e.preventDefault(); }
    if (e.key === 'ArrowLeft') { show(cur, ply - 1); e.preventDefault(); }
  });
  document.getElementById('next').onclick = () => show(cur, ply + 1);
  document.getElementById('prev').onclick = () => show(cur, ply - 1);
  document.getElementById('copy').onclick = () =>
    navigator.clipboard && navigator.clipboard.writeText(document.getElementById('board').dataset.sfen);
  if (!fromHash() && cur) show(cur, 0, true);
})();
</script>
"##;
