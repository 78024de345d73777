//! The composer's report as one HTML page per file: each problem's board as an SVG diagram
//! (composers look at boards, not SFEN), then its report.

use super::{text, ComposerReport};
use shogi::notation::svg::{board_svg, escape};
use shogi::Position;

/// One problem of the page.
pub struct Section<'a> {
    pub title: String,
    pub position: &'a Position,
    pub report: &'a ComposerReport,
}

/// The page of a file's problems.
pub fn page(file: &str, sections: &[Section]) -> String {
    let mut html =
        String::from("<!DOCTYPE html>\n<html lang=\"ja\">\n<head>\n<meta charset=\"utf-8\">\n");
    html.push_str(&format!("<title>{} — Tsumugi composer report</title>\n", escape(file)));
    html.push_str(STYLE);
    html.push_str("</head>\n<body>\n");
    html.push_str(&format!("<h1>{}</h1>\n", escape(file)));
    for s in sections {
        let verdict = if s.report.sound() { "sound" } else { "flagged" };
        html.push_str(&format!("<section class=\"{verdict}\">\n<h2>{}</h2>\n", escape(&s.title)));
        html.push_str("<div class=\"board\">");
        html.push_str(&board_svg(s.position));
        html.push_str("</div>\n<pre>");
        html.push_str(&escape(&text::render(&s.title, s.report)));
        html.push_str("</pre>\n</section>\n");
    }
    html.push_str("</body>\n</html>\n");
    html
}

const STYLE: &str = "<style>
body { font-family: 'Noto Serif CJK JP', 'Hiragino Mincho ProN', serif; margin: 2em; }
section { border-top: 1px solid #999; padding: 1em 0; display: flex; flex-wrap: wrap; gap: 2em; }
section h2 { width: 100%; margin: 0; }
section.flagged h2::after { content: ' ⚑'; color: #b00; }
.board svg { width: 590px; max-width: 100%; height: auto; }
pre { white-space: pre-wrap; font-family: 'Noto Sans Mono CJK JP', monospace; flex: 1; min-width: 30em; }
</style>
";
