//! The network's weights file: a header that names the format and the layer sizes, the
//! weights in little-endian order, and a checksum of everything before it, so that a file of
//! another format, of other sizes, cut short or damaged is refused with a reason.
//!
//! Layout: `TSUMUGI-NNUE` (12 bytes), version (u32), features, L1, L2, L3 (u32 each); the
//! first layer's weights and biases (i16), the psqt weights (i32), the second's and third's (i8 weights, i32
//! biases), the output's (i16 weights, i32 bias); FNV-1a 64 of all the bytes before it (u64).

use super::features::FEATURES;
use super::{Network, L1, L2, L3};

const MAGIC: &[u8; 12] = b"TSUMUGI-NNUE";
const VERSION: u32 = 1;
const HEADER: usize = MAGIC.len() + 5 * 4;

/// The size of a file of this build's sizes.
pub fn file_len() -> usize {
    HEADER
        + 2 * (FEATURES * L1 + L1)
        + 4 * FEATURES
        + (L2 * 2 * L1 + 4 * L2)
        + (L3 * L2 + 4 * L3)
        + (2 * L3 + 4)
        + 8
}

/// The bytes of `net`'s file.
pub fn to_bytes(net: &Network) -> Vec<u8> {
    let mut out = Vec::with_capacity(file_len());
    out.extend_from_slice(MAGIC);
    for v in [VERSION, FEATURES as u32, L1 as u32, L2 as u32, L3 as u32] {
        out.extend_from_slice(&v.to_le_bytes());
    }
    net.ft_weights.iter().chain(&net.ft_bias).for_each(|v| out.extend_from_slice(&v.to_le_bytes()));
    net.psqt.iter().for_each(|v| out.extend_from_slice(&v.to_le_bytes()));
    out.extend(net.l2_weights.iter().map(|&v| v as u8));
    net.l2_bias.iter().for_each(|v| out.extend_from_slice(&v.to_le_bytes()));
    out.extend(net.l3_weights.iter().map(|&v| v as u8));
    net.l3_bias.iter().for_each(|v| out.extend_from_slice(&v.to_le_bytes()));
    net.out_weights.iter().for_each(|v| out.extend_from_slice(&v.to_le_bytes()));
    out.extend_from_slice(&net.out_bias.to_le_bytes());
    let sum = fnv1a(&out);
    out.extend_from_slice(&sum.to_le_bytes());
    out
}

/// Reads a network file's bytes; the error says what is wrong with them.
pub fn from_bytes(bytes: &[u8]) -> Result<Network, String> {
    if bytes.len() < HEADER || &bytes[..MAGIC.len()] != MAGIC {
        return Err("not a Tsumugi network file (no TSUMUGI-NNUE header)".to_string());
    }
    let word = |i: usize| {
        let at = MAGIC.len() + 4 * i;
        u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
    };
    if word(0) != VERSION {
        return Err(format!("format version {} (this build reads {VERSION})", word(0)));
    }
    let sizes = [word(1), word(2), word(3), word(4)];
    let ours = [FEATURES as u32, L1 as u32, L2 as u32, L3 as u32];
    if sizes != ours {
        return Err(format!(
            "layer sizes {}x{} -> {} -> {} (this build uses {}x{} -> {} -> {})",
            sizes[0], sizes[1], sizes[2], sizes[3], ours[0], ours[1], ours[2], ours[3]
        ));
    }
    if bytes.len() != file_len() {
        return Err(format!(
            "{} bytes where a network of these sizes has {} (cut short or padded)",
            bytes.len(),
            file_len()
        ));
    }
    let (body, sum) = bytes.split_at(bytes.len() - 8);
    let stored = u64::from_le_bytes(sum.try_into().map_err(|_| "no checksum")?);
    if stored != fnv1a(body) {
        return Err("checksum mismatch: the file is damaged".to_string());
    }
    let mut r = Reader { bytes: body, at: HEADER };
    let mut net = Network {
        ft_weights: r.i16s(FEATURES * L1),
        ft_bias: r.i16s(L1),
        psqt: r.i32s(FEATURES),
        l2_weights: r.i8s(L2 * 2 * L1),
        l2_bias: r.i32s(L2),
        l3_weights: r.i8s(L3 * L2),
        l3_bias: r.i32s(L3),
        out_weights: r.i16s(L3),
        out_bias: r.i32s(1)[0],
        l2_columns: Vec::new(),
    };
    net.prepare();
    Ok(net)
}

/// Whether the file at `path` starts as a network file does (a weights file is text).
pub fn is_network_file(path: &std::path::Path) -> bool {
    use std::io::Read;
    let mut head = [0u8; MAGIC.len()];
    std::fs::File::open(path).and_then(|mut f| f.read_exact(&mut head)).is_ok() && &head == MAGIC
}

/// Reads a network file; the error names the file.
pub fn load(path: &std::path::Path) -> Result<Network, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    from_bytes(&bytes).map_err(|e| format!("{}: {e}", path.display()))
}

/// Writes `net` to `path`.
pub fn save(net: &Network, path: &std::path::Path) -> Result<(), String> {
    std::fs::write(path, to_bytes(net)).map_err(|e| format!("{}: {e}", path.display()))
}

/// Reads the little-endian arrays of a file whose length was checked.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take(&mut self, n: usize) -> &[u8] {
        let s = &self.bytes[self.at..self.at + n];
        self.at += n;
        s
    }
    fn i16s(&mut self, n: usize) -> Vec<i16> {
        self.take(2 * n).chunks_exact(2).map(|c| i16::from_le_bytes([c[0], c[1]])).collect()
    }
    fn i8s(&mut self, n: usize) -> Vec<i8> {
        self.take(n).iter().map(|&b| b as i8).collect()
    }
    fn i32s(&mut self, n: usize) -> Vec<i32> {
        self.take(4 * n)
            .chunks_exact(4)
            .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect()
    }
}

fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::network::tests::random_network;

    #[test]
    fn a_network_survives_its_file() {
        let net = random_network(11);
        let bytes = to_bytes(&net);
        assert_eq!(bytes.len(), file_len());
        assert!(from_bytes(&bytes) == Ok(net));
    }

    /// Wrong header, wrong sizes, cut short, one byte changed: each refused with its reason.
    #[test]
    fn a_bad_file_is_refused_with_its_reason() {
        let bytes = to_bytes(&random_network(5));
        let err = |b: &[u8]| from_bytes(b).err().unwrap_or_default();
        assert!(err(b"hello").contains("not a Tsumugi network file"));
        let mut other = bytes.clone();
        other[MAGIC.len() + 8..MAGIC.len() + 12].copy_from_slice(&512u32.to_le_bytes());
        assert!(err(&other).contains("layer sizes"), "{}", err(&other));
        let mut version = bytes.clone();
        version[MAGIC.len()] = 9;
        assert!(err(&version).contains("format version 9"));
        assert!(err(&bytes[..bytes.len() - 100]).contains("cut short"));
        let mut damaged = bytes.clone();
        damaged[HEADER + 1000] ^= 1;
        assert!(err(&damaged).contains("checksum"));
    }
}
