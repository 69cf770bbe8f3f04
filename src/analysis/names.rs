//! A fast hash set of names for the analyzer's bookkeeping. Names are short
//! and come from the user's own justfile, so a simple multiplicative hash
//! (in the style of FxHash) is enough and much cheaper than SipHash.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

#[derive(Default, Clone, Copy)]
pub struct NameHasher(u64);

const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

impl Hasher for NameHasher {
  fn write(&mut self, bytes: &[u8]) {
    for chunk in bytes.chunks(8) {
      let mut word = [0u8; 8];
      word[..chunk.len()].copy_from_slice(chunk);
      self.0 = (self.0.rotate_left(5) ^ u64::from_le_bytes(word)).wrapping_mul(SEED);
    }
  }

  fn write_u8(&mut self, byte: u8) {
    self.0 = (self.0.rotate_left(5) ^ u64::from(byte)).wrapping_mul(SEED);
  }

  fn finish(&self) -> u64 {
    self.0
  }
}

pub type NameSet<'a> = HashSet<&'a str, BuildHasherDefault<NameHasher>>;

pub type NameMap<'a, V> = HashMap<&'a str, V, BuildHasherDefault<NameHasher>>;

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
}
