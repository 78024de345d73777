//! The table file: the transposition table's entries kept in a memory-mapped file, so that an
//! interrupted solve resumes and a collection solved again reuses what it learnt
//! (`tsumugi-mate solve --table-file`, USI option `TableFile`).
//!
//! The file is one header page followed by the entries exactly as [`crate::tt`] lays them out
//! in memory (`#[repr(C)]`, native byte order); the table reads and writes them in place
//! through the mapping, so a file costs no copying and no extra work per lookup or store.
//!
//! Header (first 4,096 bytes; the bytes after offset 48 are zero):
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | magic `TSUMUGTT` |
//! | 8 | 4 | format version ([`VERSION`]) |
//! | 12 | 4 | byte-order mark `0x01020304` as written by the machine that made the file |
//! | 16 | 8 | key scheme: [`shogi::zobrist::scheme_fingerprint`] |
//! | 24 | 4 | entry size in bytes ([`crate::tt::ENTRY_SIZE`]) |
//! | 28 | 4 | entry layout version ([`crate::tt::ENTRY_LAYOUT`]: the entry's fields, its check, the bucket index and the key salts) |
//! | 32 | 8 | number of entries (a power of two, at least one bucket) |
//! | 40 | 1 | rules the entries were made under: 1 `tsume`, 2 `pure` |
//! | 41 | 1 | table generation (entries of other generations count as empty) |
//! | 42 | 1 | dirty: 1 while a process has the file open, 0 after a clean close |
//! | 43 | 5 | zero |
//!
//! **Refusals.** A file that is not ours (bad magic), of another byte order, version, key
//! scheme or entry layout, whose size does not match its header (truncated), or made under the
//! other rules is refused with an error that names the file and what is wrong: its entries are
//! never read. Rules are kept apart by refusal, not by mixing: tsume-rule proofs carry tsume
//! lengths (futile interpositions do not count), which are no pure-rule lengths, so use one file
//! per rules setting. A missing (or empty) file is created with the size asked for; an
//! existing file keeps its own size, whatever the size asked for.
//!
//! **Dirty flag.** Set (and written through) on open, cleared on a clean close after the
//! entries are flushed. A file opened with the flag set was not closed cleanly (killed, or
//! still open elsewhere: a second process is kept out by an exclusive lock on the file), so
//! the table checks every entry once ([`crate::tt`]: torn entries).

use crate::config::Rules;
use memmap2::{MmapMut, MmapOptions};
use std::fmt;
use std::fs::{File, OpenOptions};
use std::io::{self, Read};
use std::path::{Path, PathBuf};

pub const MAGIC: [u8; 8] = *b"TSUMUGTT";
/// Version of the file format (the header); the entries have their own layout version.
pub const VERSION: u32 = 1;
/// The header's size: one page, so that the entries start page-aligned.
pub const HEADER_BYTES: usize = 4096;
const BYTE_ORDER: u32 = 0x0102_0304;
/// The header's fields end here; the rest of the page is zero.
const FIELDS_BYTES: usize = 48;
const DIRTY_OFFSET: usize = 42;
const GENERATION_OFFSET: usize = 41;

/// What the header says (byte order, magic and version are checked, not kept).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    pub key_scheme: u64,
    pub entry_size: u32,
    pub entry_layout: u32,
    pub entries: u64,
    pub rules: Rules,
    pub generation: u8,
    pub dirty: bool,
}

impl Header {
    /// The header of a file of `entries` entries made now, by this program.
    pub fn current(entries: u64, rules: Rules, generation: u8) -> Header {
        Header {
            key_scheme: shogi::zobrist::scheme_fingerprint(),
            entry_size: crate::tt::ENTRY_SIZE as u32,
            entry_layout: crate::tt::ENTRY_LAYOUT,
            entries,
            rules,
            generation,
            dirty: false,
        }
    }

    pub fn encode(&self) -> [u8; FIELDS_BYTES] {
        let mut b = [0u8; FIELDS_BYTES];
        b[0..8].copy_from_slice(&MAGIC);
        b[8..12].copy_from_slice(&VERSION.to_ne_bytes());
        b[12..16].copy_from_slice(&BYTE_ORDER.to_ne_bytes());
        b[16..24].copy_from_slice(&self.key_scheme.to_ne_bytes());
        b[24..28].copy_from_slice(&self.entry_size.to_ne_bytes());
        b[28..32].copy_from_slice(&self.entry_layout.to_ne_bytes());
        b[32..40].copy_from_slice(&self.entries.to_ne_bytes());
        b[40] = rules_code(self.rules);
        b[GENERATION_OFFSET] = self.generation;
        b[DIRTY_OFFSET] = self.dirty as u8;
        b
    }

    /// Reads a header, refusing what this program cannot read as its own (the file's size and
    /// rules are checked by [`TableFile::open`]).
    pub fn decode(b: &[u8], path: &Path) -> Result<Header, TableFileError> {
        let error = |problem| TableFileError { path: path.to_path_buf(), problem };
        if b.len() < FIELDS_BYTES || b[0..8] != MAGIC {
            return Err(error(Problem::Foreign));
        }
        let u32_at = |i: usize| u32::from_ne_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]);
        let u64_at = |i: usize| {
            let mut a = [0u8; 8];
            a.copy_from_slice(&b[i..i + 8]);
            u64::from_ne_bytes(a)
        };
        if u32_at(12) != BYTE_ORDER {
            return Err(error(Problem::ByteOrder));
        }
        let version = u32_at(8);
        if version != VERSION {
            return Err(error(Problem::Version { found: version }));
        }
        let key_scheme = u64_at(16);
        if key_scheme != shogi::zobrist::scheme_fingerprint() {
            return Err(error(Problem::KeyScheme { found: key_scheme }));
        }
        let (entry_size, entry_layout) = (u32_at(24), u32_at(28));
        if entry_size as usize != crate::tt::ENTRY_SIZE || entry_layout != crate::tt::ENTRY_LAYOUT {
            return Err(error(Problem::Layout { entry_size, entry_layout }));
        }
        let entries = u64_at(32);
        if !entries.is_power_of_two() || entries < crate::tt::BUCKET as u64 {
            return Err(error(Problem::EntryCount { entries }));
        }
        let rules = match b[40] {
            1 => Rules::Tsume,
            2 => Rules::Pure,
            code => return Err(error(Problem::RulesCode { code })),
        };
        Ok(Header {
            key_scheme,
            entry_size,
            entry_layout,
            entries,
            rules,
            generation: b[GENERATION_OFFSET],
            dirty: b[DIRTY_OFFSET] != 0,
        })
    }
}

fn rules_code(rules: Rules) -> u8 {
    match rules {
        Rules::Tsume => 1,
        Rules::Pure => 2,
    }
}

/// Why a table file was refused or could not be used.
#[derive(Debug)]
pub struct TableFileError {
    pub path: PathBuf,
    pub problem: Problem,
}

#[derive(Debug)]
pub enum Problem {
    Io {
        doing: &'static str,
        error: io::Error,
    },
    /// Another process holds the file.
    InUse,
    Foreign,
    ByteOrder,
    Version {
        found: u32,
    },
    KeyScheme {
        found: u64,
    },
    Layout {
        entry_size: u32,
        entry_layout: u32,
    },
    EntryCount {
        entries: u64,
    },
    RulesCode {
        code: u8,
    },
    Truncated {
        expected: u64,
        actual: u64,
    },
    Rules {
        file: Rules,
        wanted: Rules,
    },
    TooLarge {
        entries: u64,
    },
}

impl fmt::Display for TableFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "table file {}: ", self.path.display())?;
        match &self.problem {
            Problem::Io { doing, error } => write!(f, "cannot {doing}: {error}"),
            Problem::InUse => write!(f, "in use by another process"),
            Problem::Foreign => write!(f, "not a Tsumugi table file (bad magic bytes)"),
            Problem::ByteOrder => write!(f, "written on a machine of the other byte order"),
            Problem::Version { found } => {
                write!(f, "format version {found}, this program reads version {VERSION}")
            }
            Problem::KeyScheme { found } => write!(
                f,
                "made with other Zobrist keys (fingerprint {found:016x}, ours {:016x})",
                shogi::zobrist::scheme_fingerprint()
            ),
            Problem::Layout { entry_size, entry_layout } => write!(
                f,
                "entries of {entry_size} bytes in layout {entry_layout}, this program uses {} \
                 bytes in layout {}",
                crate::tt::ENTRY_SIZE,
                crate::tt::ENTRY_LAYOUT
            ),
            Problem::EntryCount { entries } => {
                write!(f, "bad entry count {entries} (not a power of two of whole buckets)")
            }
            Problem::RulesCode { code } => write!(f, "bad rules code {code}"),
            Problem::Truncated { expected, actual } => {
                write!(f, "{actual} bytes, but its header says {expected} (truncated or damaged)")
            }
            Problem::Rules { file, wanted } => write!(
                f,
                "made under {} rules, asked for {} rules (proof lengths differ: use one file \
                 per rules setting)",
                file.name(),
                wanted.name()
            ),
            Problem::TooLarge { entries } => {
                write!(f, "{entries} entries do not fit in this machine's address space")
            }
        }
    }
}

impl std::error::Error for TableFileError {}

/// An open table file: the locked file and its mapping. Dropping it closes it cleanly
/// (flush, then the dirty flag cleared and flushed).
pub struct TableFile {
    path: PathBuf,
    /// Kept open for its lock.
    _file: File,
    map: MmapMut,
    /// The mapping's first byte. The header is written through it, and the table's entries
    /// live from `HEADER_BYTES` on, so no reference to the whole mapping is ever made while
    /// the table holds its slice of it.
    base: *mut u8,
    entries: usize,
}

// SAFETY: `base` points into `map`, which this value owns; nothing else holds it.
unsafe impl Send for TableFile {}

/// What opening found.
pub struct Opened {
    pub file: TableFile,
    pub created: bool,
    /// The file was not closed cleanly: its entries must be checked.
    pub was_dirty: bool,
    pub generation: u8,
}

impl TableFile {
    /// Opens the table file at `path`, or creates it with `new_entries` entries (a power of
    /// two) if it is missing or empty, for a search under `rules`. Sets the dirty flag.
    pub fn open(path: &Path, new_entries: usize, rules: Rules) -> Result<Opened, TableFileError> {
        let error = |problem| TableFileError { path: path.to_path_buf(), problem };
        let io_error = |doing| move |error| error_of(path, doing, error);
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(path)
            .map_err(io_error("open or create it"))?;
        file.try_lock().map_err(|e| match e {
            std::fs::TryLockError::WouldBlock => error(Problem::InUse),
            std::fs::TryLockError::Error(e) => error_of(path, "lock it", e),
        })?;
        let size = file.metadata().map_err(io_error("read its size"))?.len();
        let created = size == 0;
        let header = if created {
            let header = Header::current(new_entries as u64, rules, 1);
            let bytes = HEADER_BYTES as u64 + new_entries as u64 * crate::tt::ENTRY_SIZE as u64;
            file.set_len(bytes).map_err(io_error("size it"))?;
            header
        } else {
            let mut b = [0u8; FIELDS_BYTES];
            if size < FIELDS_BYTES as u64 {
                // Too short for a header: ours if it starts like one.
                let mut start = vec![0u8; size as usize];
                file.read_exact(&mut start).map_err(io_error("read its header"))?;
                let ours = start.len() >= 8 && start[..8] == MAGIC;
                let expected = HEADER_BYTES as u64;
                return Err(error(if ours {
                    Problem::Truncated { expected, actual: size }
                } else {
                    Problem::Foreign
                }));
            }
            file.read_exact(&mut b).map_err(io_error("read its header"))?;
            let header = Header::decode(&b, path)?;
            let expected = (header.entries.checked_mul(crate::tt::ENTRY_SIZE as u64))
                .and_then(|n| n.checked_add(HEADER_BYTES as u64))
                .ok_or_else(|| error(Problem::EntryCount { entries: header.entries }))?;
            if size != expected {
                return Err(error(Problem::Truncated { expected, actual: size }));
            }
            if header.rules != rules {
                return Err(error(Problem::Rules { file: header.rules, wanted: rules }));
            }
            header
        };
        let entries = usize::try_from(header.entries)
            .map_err(|_| error(Problem::TooLarge { entries: header.entries }))?;
        // SAFETY: the file is locked against other Tsumugi processes; another program changing
        // it under us could only make the table's answers wrong, as a damaged file would.
        let mut map = unsafe { MmapOptions::new().map_mut(&file) }.map_err(io_error("map it"))?;
        let base = map.as_mut_ptr();
        let mut opened = TableFile { path: path.to_path_buf(), _file: file, map, base, entries };
        let was_dirty = !created && header.dirty;
        let generation = header.generation.max(1);
        let mut dirty = header;
        dirty.dirty = true;
        dirty.generation = generation;
        opened.write_header(&dirty);
        opened.map.flush_range(0, HEADER_BYTES).map_err(io_error("write its header"))?;
        Ok(Opened { file: opened, created, was_dirty, generation })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The number of entries the file holds.
    pub fn entries(&self) -> usize {
        self.entries
    }

    /// Where the entries begin (page-aligned, `entries() * ENTRY_SIZE` bytes, zero in a new
    /// file).
    pub fn entries_ptr(&self) -> *mut u8 {
        // SAFETY: the mapping is `HEADER_BYTES + entries * ENTRY_SIZE` bytes long.
        unsafe { self.base.add(HEADER_BYTES) }
    }

    fn write_header(&mut self, header: &Header) {
        let bytes = header.encode();
        // SAFETY: the header page is inside the mapping and is not part of the entries.
        unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), self.base, bytes.len()) }
    }

    fn write_byte(&mut self, offset: usize, value: u8) {
        debug_assert!(offset < FIELDS_BYTES);
        // SAFETY: as in `write_header`.
        unsafe { self.base.add(offset).write(value) }
    }

    /// Records the table's generation in the header.
    pub fn set_generation(&mut self, generation: u8) {
        self.write_byte(GENERATION_OFFSET, generation);
    }

    /// Asks the OS to write the entries out, without waiting. A process killed afterwards
    /// loses nothing the OS had taken: the page cache survives the process.
    pub fn flush_async(&self) -> io::Result<()> {
        self.map.flush_async()
    }

    /// A clean close: the entries written out, then the dirty flag cleared and written.
    pub fn close(mut self) -> Result<(), TableFileError> {
        self.close_in_place()
    }

    fn close_in_place(&mut self) -> Result<(), TableFileError> {
        let path = self.path.clone();
        self.map.flush().map_err(|e| error_of(&path, "write its entries", e))?;
        self.write_byte(DIRTY_OFFSET, 0);
        self.map.flush_range(0, HEADER_BYTES).map_err(|e| error_of(&path, "write its header", e))
    }
}

impl Drop for TableFile {
    fn drop(&mut self) {
        // A failed flush leaves the dirty flag set: the next open checks every entry.
        let _ = self.close_in_place();
    }
}

fn error_of(path: &Path, doing: &'static str, error: io::Error) -> TableFileError {
    TableFileError { path: path.to_path_buf(), problem: Problem::Io { doing, error } }
}

/// Reads the header of a table file (for tools and tests), refusing what `open` refuses except
/// the size and rules checks.
pub fn read_header(path: &Path) -> Result<Header, TableFileError> {
    let mut b = [0u8; FIELDS_BYTES];
    let mut file = File::open(path).map_err(|e| error_of(path, "open it", e))?;
    let n = file.read(&mut b).map_err(|e| error_of(path, "read its header", e))?;
    Header::decode(&b[..n], path)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fresh path in the temp dir (removed on drop).
    pub(crate) struct TempPath(pub PathBuf);
    impl TempPath {
        pub(crate) fn new(name: &str) -> TempPath {
            use std::sync::atomic::{AtomicU32, Ordering};
            static N: AtomicU32 = AtomicU32::new(0);
            let n = N.fetch_add(1, Ordering::Relaxed);
            let file = format!("tsumugi-tt-{}-{n}-{name}", std::process::id());
            TempPath(std::env::temp_dir().join(file))
        }
    }
    impl Drop for TempPath {
        fn drop(&mut self) {
            let _ = std::fs::remove_file(&self.0);
        }
    }

    fn refusal(path: &Path) -> String {
        match TableFile::open(path, 64, Rules::Tsume) {
            Ok(_) => panic!("{} was accepted", path.display()),
            Err(e) => {
                let text = e.to_string();
                assert!(text.contains(&path.display().to_string()), "{text}");
                text
            }
        }
    }

    /// A new file of 64 entries, closed; returns its bytes.
    fn made(path: &Path) -> Vec<u8> {
        let opened = TableFile::open(path, 64, Rules::Tsume).unwrap_or_else(|e| panic!("{e}"));
        assert!(opened.created && !opened.was_dirty);
        drop(opened);
        std::fs::read(path).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn header_round_trip() {
        let h = Header { dirty: true, ..Header::current(1 << 20, Rules::Pure, 7) };
        let path = Path::new("x");
        assert_eq!(Header::decode(&h.encode(), path).ok(), Some(h.clone()));
        let clean = Header { dirty: false, rules: Rules::Tsume, ..h };
        assert_eq!(Header::decode(&clean.encode(), path).ok(), Some(clean));

        let file = TempPath::new("round-trip");
        let bytes = made(&file.0);
        assert_eq!(bytes.len(), HEADER_BYTES + 64 * crate::tt::ENTRY_SIZE);
        assert!(bytes[FIELDS_BYTES..].iter().all(|&b| b == 0));
        let header = read_header(&file.0).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(header, Header::current(64, Rules::Tsume, 1), "clean after close");
        let opened =
            TableFile::open(&file.0, 1 << 10, Rules::Tsume).unwrap_or_else(|e| panic!("{e}"));
        assert!(!opened.created && !opened.was_dirty);
        assert_eq!(opened.file.entries(), 64, "an existing file keeps its size");
        assert!(read_header(&file.0).is_ok_and(|h| h.dirty), "dirty while open");
    }

    #[test]
    fn refuses_foreign_truncated_and_other_files() {
        let file = TempPath::new("refusals");
        let good = made(&file.0);

        let mut foreign = good.clone();
        foreign[0] = b'X';
        std::fs::write(&file.0, &foreign).unwrap_or_else(|e| panic!("{e}"));
        assert!(refusal(&file.0).contains("not a Tsumugi table file"));
        std::fs::write(&file.0, b"hello, world").unwrap_or_else(|e| panic!("{e}"));
        assert!(refusal(&file.0).contains("not a Tsumugi table file"));

        std::fs::write(&file.0, &good[..good.len() - 32]).unwrap_or_else(|e| panic!("{e}"));
        assert!(refusal(&file.0).contains("truncated"));
        std::fs::write(&file.0, &good[..20]).unwrap_or_else(|e| panic!("{e}"));
        assert!(refusal(&file.0).contains("truncated"));

        let mut version = good.clone();
        version[8..12].copy_from_slice(&(VERSION + 1).to_ne_bytes());
        std::fs::write(&file.0, &version).unwrap_or_else(|e| panic!("{e}"));
        assert!(refusal(&file.0).contains("format version 2"));

        let mut scheme = good.clone();
        scheme[16] ^= 1;
        std::fs::write(&file.0, &scheme).unwrap_or_else(|e| panic!("{e}"));
        assert!(refusal(&file.0).contains("Zobrist keys"));

        let mut layout = good.clone();
        layout[28..32].copy_from_slice(&(crate::tt::ENTRY_LAYOUT + 1).to_ne_bytes());
        std::fs::write(&file.0, &layout).unwrap_or_else(|e| panic!("{e}"));
        assert!(refusal(&file.0).contains("layout"));

        std::fs::write(&file.0, &good).unwrap_or_else(|e| panic!("{e}"));
        match TableFile::open(&file.0, 64, Rules::Pure) {
            Ok(_) => panic!("a tsume-rule file was opened for pure rules"),
            Err(e) => assert!(e.to_string().contains("made under tsume rules"), "{e}"),
        }
        // The untouched file still opens; a second opener is kept out while it is open.
        let first = TableFile::open(&file.0, 64, Rules::Tsume).unwrap_or_else(|e| panic!("{e}"));
        assert!(refusal(&file.0).contains("in use"));
        drop(first);
    }
}
