//! The words of a USI command line: which command it is, and the `setoption` syntax.
//!
//! Only the syntax lives here. What a command does is the protocol loop's business
//! ([`super::session`]), and the `position` arguments are parsed by the rules crate
//! ([`shogi::parse_position_command`]), which needs the whole line.

/// One line of input from the GUI, by its first word.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Command<'a> {
    Usi,
    IsReady,
    /// The words after `setoption`.
    SetOption(&'a str),
    UsiNewGame,
    /// The whole line, as [`shogi::parse_position_command`] takes it.
    Position(&'a str),
    /// The words after `go`.
    Go(&'a str),
    Stop,
    PonderHit,
    GameOver,
    Quit,
    /// Anything else: the whole line, to show it back in an `info string`.
    Unknown(&'a str),
}

impl<'a> Command<'a> {
    /// The command of one input line; `None` for a blank line (which USI says to ignore).
    pub fn parse(raw: &'a str) -> Option<Command<'a>> {
        let line = raw.trim();
        if line.is_empty() {
            return None;
        }
        let (word, args) = match line.split_once(char::is_whitespace) {
            Some((w, a)) => (w, a.trim()),
            None => (line, ""),
        };
        Some(match word {
            "usi" => Command::Usi,
            "isready" => Command::IsReady,
            "setoption" => Command::SetOption(args),
            "usinewgame" => Command::UsiNewGame,
            "position" => Command::Position(line),
            "go" => Command::Go(args),
            "stop" => Command::Stop,
            "ponderhit" => Command::PonderHit,
            "gameover" => Command::GameOver,
            "quit" => Command::Quit,
            _ => Command::Unknown(line),
        })
    }
}

/// Splits `name <id> [value <x>]` (the words after `setoption`). The option name may contain
/// spaces, as USI allows, so everything up to the word `value` is the name.
pub fn parse_setoption(args: &str) -> Result<(String, Option<String>), String> {
    let mut tokens = args.split_whitespace();
    if tokens.next() != Some("name") {
        return Err("usage: setoption name <id> [value <x>]".to_string());
    }
    let mut name = Vec::new();
    let mut value: Option<Vec<&str>> = None;
    for t in tokens {
        match value.as_mut() {
            Some(v) => v.push(t),
            None if t == "value" => value = Some(Vec::new()),
            None => name.push(t),
        }
    }
    if name.is_empty() {
        return Err("setoption without an option name".to_string());
    }
    Ok((name.join(" "), value.map(|v| v.join(" "))))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_by_their_first_word() {
        assert_eq!(Command::parse(""), None);
        assert_eq!(Command::parse(" \t\r\n"), None);
        assert_eq!(Command::parse("usi\n"), Some(Command::Usi));
        assert_eq!(Command::parse("  go  mate 100 \n"), Some(Command::Go("mate 100")));
        assert_eq!(
            Command::parse("position startpos moves 7g7f\r\n"),
            Some(Command::Position("position startpos moves 7g7f"))
        );
        assert_eq!(Command::parse("setoption name X"), Some(Command::SetOption("name X")));
        assert_eq!(Command::parse("gofish"), Some(Command::Unknown("gofish")));
        assert_eq!(Command::parse("quit now"), Some(Command::Quit));
    }

    #[test]
    fn setoption_syntax() {
        assert_eq!(
            parse_setoption("name Some Option value a b"),
            Ok(("Some Option".to_string(), Some("a b".to_string())))
        );
        assert_eq!(parse_setoption("name USI_Hash"), Ok(("USI_Hash".to_string(), None)));
        assert!(parse_setoption("name").is_err());
        assert!(parse_setoption("value 3").is_err());
        assert!(parse_setoption("").is_err());
    }
}
