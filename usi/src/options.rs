//! USI options declared once: a declaration writes the option's line in the `usi` answer and
//! reads the value a `setoption` gives it, so that the two programs list and check their options
//! the same way and every error names the option.
//!
//! A program keeps its values in its own settings; the declarations only know the protocol
//! (`type spin ... min ... max`, `check`, `combo ... var`, `string`/`filename` with USI's
//! `<empty>`).

/// An integer option with bounds (`type spin`).
#[derive(Clone, Copy, Debug)]
pub struct Spin {
    pub name: &'static str,
    pub min: u64,
    pub max: u64,
}

/// A boolean option (`type check`).
#[derive(Clone, Copy, Debug)]
pub struct Check {
    pub name: &'static str,
}

/// One of a list of words (`type combo`).
#[derive(Clone, Copy, Debug)]
pub struct Combo {
    pub name: &'static str,
    pub vars: &'static [&'static str],
}

/// A text option (`type string` or `type filename`) whose default is empty.
#[derive(Clone, Copy, Debug)]
pub struct Text {
    pub name: &'static str,
    /// `filename` lets a GUI offer a file dialog.
    pub filename: bool,
}

/// Whether `name`, as a `setoption` spells it, is the option `declared` (USI names are
/// compared without case, as GUIs differ).
fn same_name(declared: &str, name: &str) -> bool {
    declared.eq_ignore_ascii_case(name.trim())
}

/// The value of a `setoption` that must have one.
fn needed<'a>(name: &str, value: Option<&'a str>) -> Result<&'a str, String> {
    value.map(str::trim).ok_or_else(|| format!("option {name} needs a value"))
}

impl Spin {
    pub const fn new(name: &'static str, min: u64, max: u64) -> Spin {
        Spin { name, min, max }
    }

    pub fn is(&self, name: &str) -> bool {
        same_name(self.name, name)
    }

    pub fn line(&self, default: u64) -> String {
        format!(
            "option name {} type spin default {default} min {} max {}",
            self.name, self.min, self.max
        )
    }

    /// The value, or an error naming the option and its bounds.
    pub fn read(&self, value: Option<&str>) -> Result<u64, String> {
        let text = needed(self.name, value)?;
        match text.parse::<u64>() {
            Ok(v) if (self.min..=self.max).contains(&v) => Ok(v),
            _ => Err(format!(
                "{}: {text:?} is not an integer between {} and {}",
                self.name, self.min, self.max
            )),
        }
    }
}

impl Check {
    pub const fn new(name: &'static str) -> Check {
        Check { name }
    }

    pub fn is(&self, name: &str) -> bool {
        same_name(self.name, name)
    }

    pub fn line(&self, default: bool) -> String {
        format!("option name {} type check default {default}", self.name)
    }

    pub fn read(&self, value: Option<&str>) -> Result<bool, String> {
        let text = needed(self.name, value)?;
        match text.to_ascii_lowercase().as_str() {
            "true" => Ok(true),
            "false" => Ok(false),
            _ => Err(format!("{}: {text:?} is neither true nor false", self.name)),
        }
    }
}

impl Combo {
    pub const fn new(name: &'static str, vars: &'static [&'static str]) -> Combo {
        Combo { name, vars }
    }

    pub fn is(&self, name: &str) -> bool {
        same_name(self.name, name)
    }

    pub fn line(&self, default: &str) -> String {
        let mut line = format!("option name {} type combo default {default}", self.name);
        for var in self.vars {
            line.push_str(" var ");
            line.push_str(var);
        }
        line
    }

    /// The word chosen, spelt as declared (a GUI may change its case).
    pub fn read(&self, value: Option<&str>) -> Result<&'static str, String> {
        let text = needed(self.name, value)?;
        self.vars.iter().copied().find(|v| v.eq_ignore_ascii_case(text)).ok_or_else(|| {
            format!("{}: {text:?} is not one of {}", self.name, self.vars.join(", "))
        })
    }
}

impl Text {
    pub const fn string(name: &'static str) -> Text {
        Text { name, filename: false }
    }

    pub const fn filename(name: &'static str) -> Text {
        Text { name, filename: true }
    }

    pub fn is(&self, name: &str) -> bool {
        same_name(self.name, name)
    }

    pub fn line(&self) -> String {
        let kind = if self.filename { "filename" } else { "string" };
        format!("option name {} type {kind} default <empty>", self.name)
    }

    /// The text, or `None` for the empty string (no value, blanks, or `<empty>`, which is how
    /// USI spells it).
    pub fn read(&self, value: Option<&str>) -> Option<String> {
        match value.map(str::trim) {
            None | Some("") | Some("<empty>") => None,
            Some(text) => Some(text.to_string()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_what_usi_expects() {
        assert_eq!(
            Spin::new("USI_Hash", 1, 65536).line(256),
            "option name USI_Hash type spin default 256 min 1 max 65536"
        );
        assert_eq!(
            Check::new("USI_Ponder").line(false),
            "option name USI_Ponder type check default false"
        );
        assert_eq!(
            Combo::new("Rules", &["tsume", "pure"]).line("tsume"),
            "option name Rules type combo default tsume var tsume var pure"
        );
        assert_eq!(
            Text::filename("BookFile").line(),
            "option name BookFile type filename default <empty>"
        );
        assert_eq!(
            Text::string("TableFile").line(),
            "option name TableFile type string default <empty>"
        );
    }

    #[test]
    fn values_are_read_or_refused_with_the_name() {
        let hash = Spin::new("USI_Hash", 1, 65536);
        assert!(hash.is("usi_hash") && !hash.is("USI_Hashes"));
        assert_eq!(hash.read(Some(" 1024 ")), Ok(1024));
        for bad in ["0", "65537", "-1", "lots", ""] {
            let e = hash.read(Some(bad)).err().unwrap_or_default();
            assert!(e.starts_with("USI_Hash: ") && e.contains("between 1 and 65536"), "{bad}: {e}");
        }
        assert_eq!(hash.read(None), Err("option USI_Hash needs a value".to_string()));
        let ponder = Check::new("USI_Ponder");
        assert_eq!(ponder.read(Some("TRUE")), Ok(true));
        assert_eq!(ponder.read(Some("false")), Ok(false));
        assert!(ponder.read(Some("maybe")).is_err_and(|e| e.starts_with("USI_Ponder: ")));
        let rules = Combo::new("Rules", &["tsume", "pure"]);
        assert_eq!(rules.read(Some("Pure")), Ok("pure"));
        assert_eq!(
            rules.read(Some("chess")),
            Err("Rules: \"chess\" is not one of tsume, pure".to_string())
        );
        let file = Text::filename("BookFile");
        assert_eq!(file.read(Some(" a b.db ")), Some("a b.db".to_string()));
        for empty in [None, Some(""), Some("  "), Some("<empty>")] {
            assert_eq!(file.read(empty), None, "{empty:?}");
        }
    }
}
