//! A fast hash set of names for the analyzer's bookkeeping. Names are short
//! and come from the user's own justfile, so a simple multiplicative hash
//! (in the style of `FxHash`) is enough and much cheaper than `SipHash`. Its
//! last step mixes the high bits into the low ones, which pick the bucket:
//! without it, names that differ only near their end (`recipe-1234`,
//! `recipe-1243`) would crowd into the same buckets.

use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};

use crate::syntax::token::Token;

#[derive(Default, Clone, Copy)]
pub(super) struct NameHasher(u64);

const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

/// Eight bytes as a little-endian word.
fn word(bytes: &[u8]) -> u64 {
  let mut word = [0u8; 8];
  word.copy_from_slice(&bytes[..8]);
  u64::from_le_bytes(word)
}

impl NameHasher {
  fn add(&mut self, word: u64) {
    self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(SEED);
  }
}

impl Hasher for NameHasher {
  fn write(&mut self, bytes: &[u8]) {
    let mut chunks = bytes.chunks_exact(8);
    for chunk in &mut chunks {
      self.add(word(chunk));
    }
    let tail = chunks.remainder();
    if tail.is_empty() {
      return;
    }
    // The last eight bytes, shifted to drop those already added.
    let word = match bytes.len().checked_sub(8) {
      Some(start) => word(&bytes[start..]) >> (8 * (8 - tail.len())),
      None => tail.iter().rev().fold(0, |word, byte| word << 8 | u64::from(*byte)),
    };
    self.add(word);
  }

  fn write_u8(&mut self, byte: u8) {
    self.add(u64::from(byte));
  }

  fn finish(&self) -> u64 {
    let hash = (self.0 ^ (self.0 >> 33)).wrapping_mul(0xff51_afd7_ed55_8ccd);
    hash ^ (hash >> 33)
  }
}

/// A name token's text as bytes, without the checks `Token::lexeme` makes,
/// for comparing and hashing.
pub(crate) fn token_bytes<'src>(token: &Token<'src>) -> &'src [u8] {
  let start = token.offset as usize;
  token.source.text.as_bytes().get(start..start + token.length as usize).unwrap_or(&[])
}

/// The eight bytes of `name` from `start`, little-endian.
pub(crate) fn word_at(name: &[u8], start: usize) -> u64 {
  let mut bytes = [0u8; 8];
  if let Some(word) = name.get(start..start + 8) {
    bytes.copy_from_slice(word);
  }
  u64::from_le_bytes(bytes)
}

/// The four bytes of `name` from `start`, little-endian.
fn half(name: &[u8], start: usize) -> u32 {
  let mut bytes = [0u8; 4];
  if let Some(half) = name.get(start..start + 4) {
    bytes.copy_from_slice(half);
  }
  u32::from_le_bytes(bytes)
}

/// Whether two names are equal: lengths first, then, for names of up to
/// sixteen bytes, two overlapping loads each rather than a call to `memcmp`.
pub(crate) fn same_name(a: &[u8], b: &[u8]) -> bool {
  let len = a.len();
  if len != b.len() {
    return false;
  }
  match len {
    0 => true,
    1..=3 => a[0] == b[0] && a[len / 2] == b[len / 2] && a[len - 1] == b[len - 1],
    4..=7 => half(a, 0) == half(b, 0) && half(a, len - 4) == half(b, len - 4),
    8..=16 => word_at(a, 0) == word_at(b, 0) && word_at(a, len - 8) == word_at(b, len - 8),
    _ => a == b,
  }
}

pub(super) type NameSet<'a> = HashSet<&'a str, BuildHasherDefault<NameHasher>>;

#[cfg(test)]
mod tests {
  use super::*;

  #[test]
  fn names_are_found() {
    let mut set = NameSet::default();
    for i in 0..1000 {
      set.insert(Box::leak(format!("recipe-{i}").into_boxed_str()));
    }
    assert!(set.contains("recipe-0"));
    assert!(set.contains("recipe-999"));
    assert!(!set.contains("recipe-1000"));
    assert_eq!(set.len(), 1000);
  }

  /// The low bits pick the bucket: similar names must spread over them.
  #[test]
  fn similar_names_spread_over_the_low_bits() {
    use std::hash::BuildHasher;
    let build = BuildHasherDefault::<NameHasher>::default();
    let buckets: HashSet<u64> =
      (0..4096).map(|i| build.hash_one(format!("recipe-{i}")) & 4095).collect();
    assert!(buckets.len() > 2000, "{}", buckets.len());
  }

  #[test]
  fn same_name_tells_every_byte() {
    for len in 0..40usize {
      let name: Vec<u8> = (0..len).map(|i| b'a' + (i % 26) as u8).collect();
      assert!(same_name(&name, &name.clone()));
      assert!(!same_name(&name, &name[..len.saturating_sub(1)]) || len == 0);
      for position in 0..len {
        let mut other = name.clone();
        other[position] = b'-';
        assert!(!same_name(&name, &other), "{len} {position}");
      }
    }
  }
}
