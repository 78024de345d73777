//! The opening book as `tsumugi` plays from it. `BookFile` loads the book when it is set (a
//! file that cannot be read is refused; malformed lines are skipped and told at the next `go`).
//! A plain `go` on a position the book holds answers at once with a move drawn as the seed's
//! `play()` draws it ([`BookPolicy`]), with an `info string` saying it is a book move. `go
//! ponder` and `go infinite` search: a ponder must not answer before `ponderhit`, and an
//! analysis wants the search.

use crate::book::{Book, BookError, BookPolicy};
use crate::tools::xorshift::XorShift64;
use shogi::movegen::is_legal;
use shogi::{Move, Position};
use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

/// A book move chosen for a position.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BookChoice {
    pub mv: Move,
    /// Its probability under the policy.
    pub probability: f64,
    /// The reply the book expects, when legal.
    pub ponder: Option<Move>,
}

/// The book of `BookFile`, with what is left to tell about it and the draws' generator.
pub struct LoadedBook {
    path: PathBuf,
    book: Book,
    /// Malformed lines not told yet.
    untold: RefCell<Vec<BookError>>,
    rng: RefCell<XorShift64>,
}

impl LoadedBook {
    pub fn load(path: &Path) -> Result<LoadedBook, String> {
        let (book, errors) = Book::load(path)?;
        let seed = SystemTime::now().duration_since(UNIX_EPOCH).map_or(1, |d| d.as_nanos() as u64);
        Ok(LoadedBook {
            path: path.to_path_buf(),
            book,
            untold: RefCell::new(errors),
            rng: RefCell::new(XorShift64::new(seed | 1)),
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    pub fn positions(&self) -> usize {
        self.book.len()
    }

    /// What is wrong with the file and was not told yet (once).
    pub fn take_report(&self) -> Option<String> {
        let errors = std::mem::take(&mut *self.untold.borrow_mut());
        let first = errors.first()?;
        Some(format!(
            "BookFile {}: {} malformed line(s) skipped, the first {first}",
            self.path.display(),
            errors.len()
        ))
    }

    /// A move drawn from the book for `pos`, if the policy finds one.
    pub fn choose(&self, pos: &Position, policy: &BookPolicy) -> Option<BookChoice> {
        let r = self.rng.borrow_mut().unit();
        let (mv, probability) = policy.pick(&self.book, pos, r)?;
        let ponder =
            self.book.get(pos).and_then(|e| e.moves.iter().find(|b| b.mv == mv)).and_then(|b| {
                let mut after = pos.clone();
                after.make_move(mv);
                b.ponder.filter(|&p| is_legal(&after, p))
            });
        Some(BookChoice { mv, probability, ponder })
    }
}
