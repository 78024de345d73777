//! The estimates of positions not yet searched, kept between a node's expansions.
//!
//! A node is expanded again and again under new thresholds (on the long problems two to three
//! times per position on average), and each time its children that were never searched are
//! estimated afresh: a move generation each (checks after the defender's move, evasions after
//! the attacker's), which was two fifths of the solver's time. Their table entries do not keep
//! those estimates (storing them there took slots from searched positions, and changed which
//! entries the replacement kept: more expansions on three of eight long problems). A cache of
//! the thread's own keeps them ([`super::keyed_cache`]): 64 KiB at first, 4 MiB at most.

use super::keyed_cache::KeyedCache;
use crate::pn::PnDn;

/// The estimates (pn, dn) of positions not searched since, by full key; 16 bytes a slot.
pub(super) type Estimates = KeyedCache<(PnDn, PnDn), { 1 << 12 }, { 1 << 18 }>;
