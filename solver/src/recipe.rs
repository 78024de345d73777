//! The search's recipe: which proof-number rules the first proof and every later question use.
//!
//! Our own rules (`tsumugi`, the default) and shtsume's (`shtsume`), whose pieces co-adapt
//! (shared/notes/solver-anchors.md §1.7): each was tried alone before and won on some long
//! works and lost on others by more than twice the nodes, so the recipe takes them as a whole,
//! and each can be taken out (`shtsume:-first`) or put into ours (`tsumugi:+weak`) to measure
//! it (`solve --recipe`, benches/history/41).

/// One rule of shtsume's that the search can follow instead of its own.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Piece {
    /// An AND node's proof number is its largest child's plus one for each other open child
    /// (weak proof numbers) instead of adding half of what the others add.
    Weak,
    /// A child's threshold is the second best plus one (no 1 + ε margin).
    EpsilonZero,
    /// A position not searched yet starts as shtsume's first look finds it: an OR position
    /// (checks to come) at a disproof number of 1 whatever its checks, an AND position at a
    /// proof number that counts the drop interpositions as the one chain they are searched as.
    Unit,
    /// A check not searched yet from its node starts at a proof number of at least the
    /// king's distance to where the piece moves (along a line from the king; 1 off them).
    Distance,
    /// Ties of (pn, dn) are broken by shtsume's move orders (checks: captures of the most
    /// valuable piece, board moves, promotions, the strongest drop, nearest the king;
    /// defences: board moves, captures, the cheapest piece moving, the king, promotions, the
    /// cheapest drop) instead of the order the moves were generated in.
    Order,
    /// A check never searched from its node is first searched with a proof threshold of 1:
    /// one expansion, so that its numbers are real before the search commits to it.
    First,
    /// An AND node whose proof number passes 240 folds its hardest defence behind its
    /// easiest (searched once that one is mated), and one whose easiest defence's disproof
    /// number passes 1024 folds the next behind it: numbers that grew from a loop or a
    /// transposition stop steering the search.
    Fold,
}

impl Piece {
    pub const ALL: [Piece; 7] = [
        Piece::Weak,
        Piece::EpsilonZero,
        Piece::Unit,
        Piece::Distance,
        Piece::Order,
        Piece::First,
        Piece::Fold,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Piece::Weak => "weak",
            Piece::EpsilonZero => "eps0",
            Piece::Unit => "unit",
            Piece::Distance => "distance",
            Piece::Order => "order",
            Piece::First => "first",
            Piece::Fold => "fold",
        }
    }

    fn bit(self) -> u8 {
        1 << Piece::ALL.iter().position(|&p| p == self).unwrap_or(0)
    }
}

/// A set of [`Piece`]s; empty is our own search.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub struct Recipe(u8);

impl Recipe {
    pub const NAMES: [&'static str; 2] = ["tsumugi", "shtsume"];

    /// Our own rules.
    pub const TSUMUGI: Recipe = Recipe(0);

    /// Every piece of shtsume's.
    pub fn shtsume() -> Recipe {
        Piece::ALL.iter().fold(Recipe::TSUMUGI, |r, &p| r.with(p))
    }

    /// Xored into the table keys of unsolved positions by a thread whose recipe is not the
    /// solve's own (a helper with another recipe, `--helper-recipe`): what a proof or a
    /// disproof means is the same in every recipe and is shared, what unsolved numbers mean
    /// is each recipe's own.
    pub fn unsolved_salt(self) -> u64 {
        0x9E37_79B9_7F4A_7C15u64.wrapping_mul(u64::from(self.0) + 1).rotate_left(17)
    }

    pub fn has(self, piece: Piece) -> bool {
        self.0 & piece.bit() != 0
    }

    pub fn with(self, piece: Piece) -> Recipe {
        Recipe(self.0 | piece.bit())
    }

    pub fn without(self, piece: Piece) -> Recipe {
        Recipe(self.0 & !piece.bit())
    }

    /// `tsumugi`, `shtsume`, or either with pieces put in or taken out:
    /// `shtsume:-first,-fold`, `tsumugi:+weak`.
    pub fn parse(text: &str) -> Result<Recipe, String> {
        let (base, changes) = match text.split_once(':') {
            Some((base, changes)) => (base, Some(changes)),
            None => (text, None),
        };
        let mut recipe = match base.trim().to_ascii_lowercase().as_str() {
            "tsumugi" => Recipe::TSUMUGI,
            "shtsume" => Recipe::shtsume(),
            other => {
                return Err(format!(
                    "unknown recipe '{other}': expected {}",
                    Recipe::NAMES.join(" or ")
                ))
            }
        };
        for change in changes.into_iter().flat_map(|c| c.split(',')) {
            let change = change.trim();
            let (add, name) = match change.split_at_checked(1) {
                Some(("+", name)) => (true, name),
                Some(("-", name)) => (false, name),
                _ => return Err(format!("'{change}': expected +piece or -piece")),
            };
            let Some(&piece) = Piece::ALL.iter().find(|p| p.name() == name) else {
                let names: Vec<&str> = Piece::ALL.iter().map(|p| p.name()).collect();
                return Err(format!(
                    "unknown piece '{name}': expected one of {}",
                    names.join(", ")
                ));
            };
            recipe = if add { recipe.with(piece) } else { recipe.without(piece) };
        }
        Ok(recipe)
    }

    /// The recipe as [`Recipe::parse`] reads it: the nearer base and the pieces that differ.
    pub fn name(self) -> String {
        let ours = Piece::ALL.iter().filter(|&&p| self.has(p)).count();
        let (base, start) = if ours * 2 > Piece::ALL.len() {
            ("shtsume", Recipe::shtsume())
        } else {
            ("tsumugi", Recipe::TSUMUGI)
        };
        let changes: Vec<String> = Piece::ALL
            .iter()
            .filter(|&&p| self.has(p) != start.has(p))
            .map(|&p| format!("{}{}", if self.has(p) { "+" } else { "-" }, p.name()))
            .collect();
        if changes.is_empty() {
            base.to_string()
        } else {
            format!("{base}:{}", changes.join(","))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recipes_read_and_name_their_pieces() {
        assert_eq!(Recipe::parse("tsumugi"), Ok(Recipe::TSUMUGI));
        let all = Recipe::parse("SHTSUME").unwrap_or_default();
        assert!(Piece::ALL.iter().all(|&p| all.has(p)));
        let some = Recipe::parse("shtsume:-first, -fold").unwrap_or_default();
        assert!(!some.has(Piece::First) && !some.has(Piece::Fold) && some.has(Piece::Weak));
        assert_eq!(some.name(), "shtsume:-first,-fold");
        let ours = Recipe::parse("tsumugi:+weak").unwrap_or_default();
        assert_eq!(ours.name(), "tsumugi:+weak");
        assert_eq!(Recipe::parse(&ours.name()), Ok(ours));
        assert!(Recipe::parse("stockfish").is_err_and(|e| e.contains("stockfish")));
        assert!(Recipe::parse("shtsume:first").is_err_and(|e| e.contains("+piece")));
        assert!(Recipe::parse("shtsume:-fast").is_err_and(|e| e.contains("fast")));
    }
}
