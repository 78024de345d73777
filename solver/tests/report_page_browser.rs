//! The report page in a real browser: headless Chromium opens the page of 図巧2 and 66 at
//! `#zukou-066/5` (the link each move of the list is) and its board shows, in `data-sfen`, the
//! position after the first five moves of the main line, and at a 変化's first move the
//! position after it; then a probe script clicks move 5, presses the arrow keys and the ▶
//! button, and the board and the address follow each step. Runs only where `chromium` is
//! installed; CI installs it and sets `TSUMUGI_REQUIRE_CHROMIUM=1`, which makes its absence a
//! failure.

use shogi::Position;
use solver::composer::command::{run_with, ReportArgs};
use std::path::{Path, PathBuf};
use std::process::Command;

fn chromium() -> Option<PathBuf> {
    let found = ["chromium", "chromium-browser"].iter().find_map(|name| {
        let ok = Command::new(name).arg("--version").output().is_ok_and(|o| o.status.success());
        ok.then(|| PathBuf::from(name))
    });
    if found.is_none() {
        assert!(
            std::env::var_os("TSUMUGI_REQUIRE_CHROMIUM").is_none(),
            "chromium is required (TSUMUGI_REQUIRE_CHROMIUM) but not installed"
        );
        eprintln!("skipped: chromium is not installed");
    }
    found
}

fn zukou(ids: &[&str]) -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../problems/edo_zukou.sfen");
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let lines: Vec<&str> =
        text.lines().filter(|l| ids.iter().any(|id| l.contains(&format!(" # {id} ")))).collect();
    lines.join("\n") + "\n"
}

fn report(file: &Path, json: bool, html: Option<PathBuf>) -> String {
    let args = ReportArgs {
        files: vec![file.to_path_buf()],
        time_ms: Some(20_000),
        nodes: None,
        questions_time_ms: Some(2_000),
        questions_nodes: None,
        question_nodes: 50_000,
        hash: 64,
        threads: Some(1),
        jobs: Some(1),
        json,
        html,
        kif: None,
        quiet: true,
        table_file: None,
    };
    let (mut out, mut err) = (Vec::new(), Vec::new());
    assert_eq!(run_with(&args, &mut out, &mut err), 0, "{}", String::from_utf8_lossy(&err));
    String::from_utf8_lossy(&out).into_owned()
}

/// The `data-sfen` of the element with id `board` in a dumped DOM.
fn board_sfen(dom: &str) -> Option<String> {
    let at = dom.find("id=\"board\"")?;
    let tag_start = dom[..at].rfind('<')?;
    let tag = &dom[tag_start..tag_start + dom[tag_start..].find('>')?];
    let value = tag.split("data-sfen=\"").nth(1)?;
    Some(value[..value.find('"')?].to_string())
}

#[test]
fn the_page_opens_at_a_move_and_steps_through_the_line() {
    let Some(browser) = chromium() else { return };
    let dir = std::env::temp_dir().join(format!("tsumugi-page-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{e}"));
    let file = dir.join("two.sfen");
    std::fs::write(&file, zukou(&["zukou-002", "zukou-066"])).unwrap_or_else(|e| panic!("{e}"));
    let json = report(&file, true, Some(dir.join("html")));
    let reports: serde_json::Value = serde_json::from_str(&json).unwrap_or_else(|e| panic!("{e}"));
    let entry = reports.as_array().and_then(|a| a.iter().find(|r| r["id"] == "zukou-066"));
    let r = &entry.unwrap_or_else(|| panic!("{json}"))["report"];
    let mut pos = Position::from_sfen(r["sfen"].as_str().unwrap_or_default())
        .unwrap_or_else(|e| panic!("{e}"));
    let usi: Vec<&str> = r["main_line"]["usi"]
        .as_array()
        .map(|a| a.iter().filter_map(|m| m.as_str()).collect())
        .unwrap_or_default();
    assert!(usi.len() >= 5, "{usi:?}");
    for m in &usi[..5] {
        let mv = pos.parse_usi_move(m).unwrap_or_else(|e| panic!("{m}: {e}"));
        pos.make_move(mv);
    }
    let page = dir.join("html/two.sfen.html");
    let html = std::fs::read_to_string(&page).unwrap_or_else(|e| panic!("{e}"));
    assert!(html.contains("<title>two.sfen"), "the title is the file's name");
    assert!(html.contains("href=\"#zukou-066/5\""), "move 5 is a link");
    let dom = open(&browser, &page, "zukou-066/5");
    assert_eq!(board_sfen(&dom), Some(pos.to_sfen()), "{}", &dom[..dom.len().min(2000)]);
    // A 変化 opens from its move: branches are numbered cooks first, then variations.
    let cooks = r["cooks"].as_array().map_or(0, Vec::len);
    let variation = &r["variations"][0];
    let at = variation["ply"].as_u64().unwrap_or_else(|| panic!("no 変化: {r}")) as usize;
    let first = variation["line"]["usi"][0].as_str().unwrap_or_default();
    let mut pos = Position::from_sfen(r["sfen"].as_str().unwrap_or_default())
        .unwrap_or_else(|e| panic!("{e}"));
    for m in usi[..at - 1].iter().chain([&first]) {
        let mv = pos.parse_usi_move(m).unwrap_or_else(|e| panic!("{m}: {e}"));
        pos.make_move(mv);
    }
    let dom = open(&browser, &page, &format!("zukou-066/b{cooks}/1"));
    assert_eq!(board_sfen(&dom), Some(pos.to_sfen()), "{}", &dom[..dom.len().min(2000)]);
    // What a reader does: click move 5, step on with the arrow key and the button, back twice.
    let after = |n: usize| {
        let mut pos = Position::from_sfen(r["sfen"].as_str().unwrap_or_default())
            .unwrap_or_else(|e| panic!("{e}"));
        for m in &usi[..n] {
            pos.make_move(pos.parse_usi_move(m).unwrap_or_else(|e| panic!("{m}: {e}")));
        }
        pos.to_sfen()
    };
    let steps = interact(&browser, &page, &html);
    // Each step: the address, the move marked in the list (the start is an entry), the board.
    let want = [
        format!("#zukou-066/5 #zukou-066/5 {}", after(5)),
        format!("#zukou-066/6 #zukou-066/6 {}", after(6)),
        format!("#zukou-066/7 #zukou-066/7 {}", after(7)),
        format!("#zukou-066/5 #zukou-066/5 {}", after(5)),
        format!("#zukou-066/0 #zukou-066/0 {}", after(0)),
    ];
    assert_eq!(steps, want);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Opens a copy of the page with a probe script that acts as a reader would, through the
/// page's own handlers: it clicks the link of move 5 of 図巧66, presses → (a `keydown` on the
/// document), clicks the ▶ button, presses ← twice, and presses ← until the start. After each
/// step it records the address's hash, the move marked in the list and the board's `data-sfen`; the steps come back in a
/// `<pre id="probe">` of the dumped DOM.
fn interact(browser: &Path, page: &Path, html: &str) -> Vec<String> {
    const PROBE: &str = r##"<script>
window.addEventListener('load', () => {
  const log = [];
  const marked = () => (document.querySelector('ol.line a.current') || {hash: '-'}).hash;
  const note = () => log.push(
    [location.hash, marked(), document.getElementById('board').dataset.sfen].join(' '));
  const key = k => document.dispatchEvent(new KeyboardEvent('keydown', {key: k, bubbles: true}));
  document.querySelector('ol.line[data-id="zukou-066"] a[href="#zukou-066/5"]').click();
  setTimeout(() => {
    note();
    key('ArrowRight'); note();
    document.getElementById('next').click(); note();
    key('ArrowLeft'); key('ArrowLeft'); note();
    for (let i = 0; i < 20; i++) key('ArrowLeft');
    note();
    const pre = document.createElement('pre');
    pre.id = 'probe';
    pre.textContent = log.join('\n');
    document.body.appendChild(pre);
  }, 200);
});
</script></body>"##;
    assert!(html.contains("</body>"), "the page ends its body");
    let probe = page.with_file_name("probe.html");
    std::fs::write(&probe, html.replacen("</body>", PROBE, 1)).unwrap_or_else(|e| panic!("{e}"));
    let dom = open(browser, &probe, "");
    let Some(at) = dom.find("<pre id=\"probe\">") else {
        panic!("the probe did not run: {}", &dom[dom.len().saturating_sub(3000)..]);
    };
    let text = &dom[at + "<pre id=\"probe\">".len()..];
    text[..text.find("</pre>").unwrap_or(text.len())].lines().map(str::to_string).collect()
}

/// The DOM of `page` opened at `#<at>`, once its script has run.
fn open(browser: &Path, page: &Path, at: &str) -> String {
    let url = if at.is_empty() {
        format!("file://{}", page.display())
    } else {
        format!("file://{}#{at}", page.display())
    };
    let dom = Command::new(browser)
        .args(["--headless", "--no-sandbox", "--disable-gpu", "--virtual-time-budget=5000"])
        .args(["--dump-dom", &url])
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    String::from_utf8_lossy(&dom.stdout).into_owned()
}
