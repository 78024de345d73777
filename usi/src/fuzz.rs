//! Random sessions of real and broken commands, for the robustness tests of both programs: a
//! GUI or a script may send anything, and no line may take the engine down, leave a `go`
//! unanswered, or stop it answering `isready`.

use crate::program::UsiProgram;
use crate::session::transcript;

/// Words of the protocol, real and broken, that the random lines are made of; a program adds
/// its own option names and values.
const PROTOCOL_WORDS: &[&str] = &[
    "usi",
    "isready",
    "usinewgame",
    "position",
    "startpos",
    "sfen",
    "moves",
    "7g7f",
    "3c3d",
    "8h2b+",
    "P*5e",
    "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL",
    "b",
    "w",
    "-",
    "1",
    "go",
    "ponder",
    "infinite",
    "btime",
    "wtime",
    "byoyomi",
    "binc",
    "winc",
    "depth",
    "nodes",
    "mate",
    "stop",
    "ponderhit",
    "setoption",
    "name",
    "value",
    "USI_Ponder",
    "true",
    "gameover",
    "win",
    "-7",
    "x",
    "\u{0}",
    "ÿ",
    "",
];

/// The commands a random line starts with (`go` twice: searches are what can go wrong).
const COMMANDS: &[&str] = &[
    "usi",
    "isready",
    "usinewgame",
    "position",
    "go",
    "go",
    "stop",
    "ponderhit",
    "setoption",
    "gameover",
    "junk",
];

/// The answers of a transcript (`bestmove ...`, `checkmate ...`), in order.
pub fn answers(out: &[String]) -> Vec<&str> {
    out.iter().map(String::as_str).filter(|l| is_answer(l)).collect()
}

fn is_answer(line: &str) -> bool {
    line.starts_with("bestmove") || line.starts_with("checkmate")
}

/// What a fuzzed program is given: its own words, and the limits a `go` gets first so that a
/// session stays short (each must end a search of that program within well under a second).
pub struct Fuzz<'a> {
    pub program_words: &'a [&'a str],
    pub go_limits: &'a [&'a str],
    pub seed: u64,
    pub sessions: usize,
    pub lines_per_session: usize,
}

/// A reproducible pseudo-random sequence (xorshift64) for the scripts.
struct Sequence(u64);

impl Sequence {
    fn below(&mut self, n: usize) -> usize {
        let mut s = self.0;
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        self.0 = s;
        (s % n as u64) as usize
    }
}

impl Fuzz<'_> {
    /// Runs the sessions on fresh programs and checks each: `isready` is still answered at the
    /// end, and after the last `readyok` only a stopped search's answer comes. Returns the number
    /// of answers given (`bestmove`, `checkmate`), or what went wrong with the script and the
    /// transcript.
    pub fn run<P: UsiProgram>(&self, program: impl Fn() -> P) -> Result<usize, String> {
        let words: Vec<&str> =
            PROTOCOL_WORDS.iter().chain(self.program_words.iter()).copied().collect();
        let mut seq = Sequence(self.seed | 1);
        let mut answers = 0;
        for _ in 0..self.sessions {
            let mut script = String::from("setoption name USI_Hash value 1\n");
            for _ in 0..self.lines_per_session {
                let len = seq.below(6);
                let mut line = vec![COMMANDS[seq.below(COMMANDS.len())]];
                line.extend((0..len).map(|_| words[seq.below(words.len())]));
                if line[0] == "go" {
                    line.insert(1, self.go_limits[seq.below(self.go_limits.len())]);
                }
                script.push_str(&line.join(" "));
                script.push('\n');
            }
            script.push_str("stop\nisready\n");
            let out = transcript(program(), &script).map_err(|e| format!("run failed: {e}"))?;
            let fail = |what: &str| format!("{what}\nscript:\n{script}\noutput: {out:?}");
            if !out.iter().any(|l| l == "readyok") {
                return Err(fail("no readyok"));
            }
            answers += self::answers(&out).len();
            let mut tail = out.iter().rev().take_while(|l| l.as_str() != "readyok");
            if !tail.all(|l| is_answer(l) || l.starts_with("info")) {
                return Err(fail("more than a stopped search's answer after the last readyok"));
            }
        }
        Ok(answers)
    }
}
