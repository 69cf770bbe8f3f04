//! A table of named items (recipes, assignments): the items in the order they
//! were added, each with a fixed index that other nodes of the model store
//! instead of its name, a hashed name → index map built once, and the name
//! order listings and error reports use, computed on first use. An item
//! knows its own name (`Named`), so the table keeps no copy of it.

use std::fmt::{self, Debug, Formatter};
use std::marker::PhantomData;
use std::ops::Index;
use std::sync::OnceLock;

use super::names::{same_name, token_bytes, word_at};
use crate::syntax::token::Token;

/// An item of a `Table`: its name, read from the item itself.
pub(crate) trait Named<'src> {
  fn key(&self) -> &'src str;

  /// The name's bytes, for hashing, comparing and sorting: what `key`
  /// gives, but it may skip `key`'s checks.
  fn key_bytes(&self) -> &'src [u8] {
    self.key().as_bytes()
  }
}

pub(crate) struct Table<'src, T> {
  entries: Vec<T>,
  index: NameIndex,
  /// Indices of `entries` in name order.
  sorted: OnceLock<Box<[u32]>>,
  _names: PhantomData<&'src str>,
}

impl<T> Default for Table<'_, T> {
  fn default() -> Self {
    Table {
      entries: Vec::new(),
      index: NameIndex::default(),
      sorted: OnceLock::new(),
      _names: PhantomData,
    }
  }
}

/// A name's hash: its words mixed in multiplicatively (the last one
/// overlapping the one before it), then its length. Names are short: most
/// take two or three multiplications.
fn hash(name: &[u8]) -> u64 {
  const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;
  let mix = |hash: u64, word: u64| (hash.rotate_left(5) ^ word).wrapping_mul(SEED);
  let len = name.len();
  let mut hash = 0;
  if len >= 8 {
    let mut start = 0;
    while start + 8 < len {
      hash = mix(hash, word_at(name, start));
      start += 8;
    }
    hash = mix(hash, word_at(name, len - 8));
  } else if len >= 4 {
    let half = |start| {
      u64::from(u32::from_le_bytes([
        name[start],
        name[start + 1],
        name[start + 2],
        name[start + 3],
      ]))
    };
    hash = mix(hash, half(0) << 32 | half(len - 4));
  } else {
    let packed = name.iter().fold(0, |word, byte| word << 8 | u64::from(*byte));
    hash = mix(hash, packed);
  }
  hash = mix(hash, len as u64);
  let hash = (hash ^ (hash >> 33)).wrapping_mul(0xff51_afd7_ed55_8ccd);
  hash ^ (hash >> 33)
}

/// Where `Table::find` would put a name it did not find.
pub(crate) struct Vacant {
  slot: usize,
  hash: u64,
}

/// Name → index: open addressing with linear probing over a power-of-two
/// number of slots, at most three quarters of them used. A slot holds the
/// upper half of a name's hash and the name's index + 1 (0: empty), so a
/// probe compares names only when their hashes agree.
#[derive(Default)]
struct NameIndex {
  slots: Box<[u64]>,
}

impl NameIndex {
  fn with_capacity(capacity: usize) -> Self {
    if capacity == 0 {
      return NameIndex::default();
    }
    let slots = (capacity + capacity / 3 + 1).next_power_of_two().max(8);
    NameIndex { slots: vec![0; slots].into_boxed_slice() }
  }

  /// The index of `name`, or the empty slot where it belongs.
  fn probe<'src, T: Named<'src>>(
    &self,
    name: &[u8],
    hash: u64,
    entries: &[T],
  ) -> Result<u32, usize> {
    let mask = self.slots.len().wrapping_sub(1);
    let tag = hash >> 32;
    let mut slot = hash as usize & mask;
    loop {
      let Some(&value) = self.slots.get(slot) else { return Err(usize::MAX) };
      if value == 0 {
        return Err(slot);
      }
      let index = (value as u32).wrapping_sub(1);
      if value >> 32 == tag
        && entries.get(index as usize).is_some_and(|entry| same_name(entry.key_bytes(), name))
      {
        return Ok(index);
      }
      slot = (slot + 1) & mask;
    }
  }

  fn get<'src, T: Named<'src>>(&self, name: &[u8], entries: &[T]) -> Option<u32> {
    if self.slots.is_empty() {
      return None;
    }
    self.probe(name, hash(name), entries).ok()
  }

  fn fill(&mut self, slot: usize, hash: u64, index: u32) {
    if let Some(value) = self.slots.get_mut(slot) {
      *value = (hash >> 32) << 32 | u64::from(index + 1);
    }
  }

  /// Index `entries` anew, with room for `capacity` names.
  fn rebuild<'src, T: Named<'src>>(&mut self, entries: &[T], capacity: usize) {
    *self = NameIndex::with_capacity(capacity);
    for (index, entry) in (0..).zip(entries) {
      let name = entry.key_bytes();
      let hash = hash(name);
      if let Err(slot) = self.probe(name, hash, entries) {
        self.fill(slot, hash, index);
      }
    }
  }
}

impl<'src, T: Named<'src>> Table<'src, T> {
  pub(crate) fn new() -> Self {
    Table::default()
  }

  pub(crate) fn with_capacity(capacity: usize) -> Self {
    Table {
      entries: Vec::with_capacity(capacity),
      index: NameIndex::with_capacity(capacity),
      sorted: OnceLock::new(),
      _names: PhantomData,
    }
  }

  /// Add an item, or replace the one of that name in place (keeping its index).
  pub(crate) fn insert(&mut self, value: T) -> Option<T> {
    match self.find(value.key()) {
      Ok(index) => self.replace(index, value),
      Err(vacant) => {
        self.insert_vacant(vacant, value);
        None
      }
    }
  }

  /// The index of `name`, or where to add it with `insert_vacant`.
  pub(crate) fn find(&mut self, name: &str) -> Result<usize, Vacant> {
    let count = self.entries.len();
    if (count + 1) * 4 > self.index.slots.len() * 3 {
      self.index.rebuild(&self.entries, (count + 1).max(count * 2));
    }
    let hash = hash(name.as_bytes());
    match self.index.probe(name.as_bytes(), hash, &self.entries) {
      Ok(index) => Ok(index as usize),
      Err(slot) => Err(Vacant { slot, hash }),
    }
  }

  /// Add an item `find` did not find (by its name), with nothing added since.
  pub(crate) fn insert_vacant(&mut self, vacant: Vacant, value: T) {
    self.sorted = OnceLock::new();
    let index = u32::try_from(self.entries.len()).unwrap_or(u32::MAX - 1);
    self.index.fill(vacant.slot, vacant.hash, index);
    self.entries.push(value);
  }

  /// Replace the item with index `index` by one of the same name.
  pub(crate) fn replace(&mut self, index: usize, value: T) -> Option<T> {
    self.sorted = OnceLock::new();
    let entry = self.entries.get_mut(index)?;
    Some(std::mem::replace(entry, value))
  }

  pub(crate) fn len(&self) -> usize {
    self.entries.len()
  }

  pub(crate) fn is_empty(&self) -> bool {
    self.entries.is_empty()
  }

  /// The index of the item named `name`.
  pub(crate) fn index_of(&self, name: &str) -> Option<usize> {
    self.index.get(name.as_bytes(), &self.entries).map(|index| index as usize)
  }

  /// The index of the item named by a name token.
  pub(crate) fn index_of_token(&self, name: &Token) -> Option<usize> {
    self.index.get(token_bytes(name), &self.entries).map(|index| index as usize)
  }

  pub(crate) fn get(&self, name: &str) -> Option<&T> {
    self.entries.get(self.index_of(name)?)
  }

  pub(crate) fn contains_key(&self, name: &str) -> bool {
    self.index.get(name.as_bytes(), &self.entries).is_some()
  }

  /// The item with index `index`.
  pub(crate) fn at(&self, index: usize) -> Option<&T> {
    self.entries.get(index)
  }

  /// The name of the item with index `index`.
  pub(crate) fn name_at(&self, index: usize) -> Option<&'src str> {
    self.entries.get(index).map(T::key)
  }

  /// The item with index `index`, to change anything but its name.
  pub(crate) fn at_mut(&mut self, index: usize) -> Option<&mut T> {
    self.entries.get_mut(index)
  }

  /// Indices in name order.
  pub(crate) fn sorted_indices(&self) -> &[u32] {
    self.sorted.get_or_init(|| sort_by_name(&self.entries))
  }

  /// Items by name.
  pub(crate) fn iter(&self) -> Iter<'_, 'src, T> {
    Iter { entries: &self.entries, indices: self.sorted_indices().iter(), _names: PhantomData }
  }

  /// Items by name, each with its index.
  pub(crate) fn indexed(
    &self,
  ) -> impl DoubleEndedIterator<Item = (usize, &T)> + Clone + use<'_, 'src, T> {
    let entries = &self.entries;
    self.sorted_indices().iter().filter_map(move |&index| {
      let index = index as usize;
      entries.get(index).map(|entry| (index, entry))
    })
  }

  pub(crate) fn keys(
    &self,
  ) -> impl DoubleEndedIterator<Item = &'src str> + Clone + use<'_, 'src, T> {
    self.iter().map(|(name, _)| name)
  }

  pub(crate) fn values(&self) -> impl DoubleEndedIterator<Item = &T> + Clone + use<'_, 'src, T> {
    self.iter().map(|(_, value)| value)
  }

  /// Items in the order they were added.
  pub(crate) fn values_added(&self) -> impl DoubleEndedIterator<Item = &T> + Clone {
    self.entries.iter()
  }

  /// Keep the items `keep` accepts; returns the new index of each old one.
  pub(crate) fn retain(&mut self, mut keep: impl FnMut(&T) -> bool) -> Vec<Option<u32>> {
    let mut renumbered = Vec::with_capacity(self.entries.len());
    let mut next = 0;
    for value in &self.entries {
      if keep(value) {
        renumbered.push(Some(next));
        next += 1;
      } else {
        renumbered.push(None);
      }
    }
    let mut index = 0;
    self.entries.retain(|_| {
      index += 1;
      renumbered[index - 1].is_some()
    });
    self.index.rebuild(&self.entries, self.entries.len());
    self.sorted = OnceLock::new();
    renumbered
  }
}

/// Indices of `entries` in name order. Names share long prefixes
/// (`recipe-1`, `recipe-2`), but a few odd ones (`build`) shorten the prefix
/// common to all of them: one pass of a counting sort on the first byte past
/// that prefix splits them, then each bucket is sorted on its own.
fn sort_by_name<'src, T: Named<'src>>(entries: &[T]) -> Box<[u32]> {
  let name = |index: u32| entries[index as usize].key_bytes();
  let Some((first, rest)) = entries.split_first() else { return Box::default() };
  let first = first.key_bytes();
  let common = rest
    .iter()
    .fold(first.len(), |common, entry| common_prefix(&first[..common], entry.key_bytes()));
  // Bucket 0: the name that ends there; then one per byte value.
  let digit = |index: &u32| name(*index).get(common).map_or(0, |byte| usize::from(*byte) + 1);
  let indices: Vec<u32> = (0..).take(entries.len()).collect();
  let mut order = vec![0u32; entries.len()];
  let offsets = counting_sort(&indices, &mut order, digit);
  for bucket in offsets.windows(2) {
    if let Some(indices) = order.get_mut(bucket[0]..bucket[1]) {
      if indices.len() > 1 {
        sort_bucket(indices, &name, common + 1);
      }
    }
  }
  order.into_boxed_slice()
}

/// Sort indices of names that agree on their first `depth` bytes: past the
/// prefix all of them share, the next twelve bytes of each name, zero-padded,
/// are the key of a radix sort over only the bytes that differ; names whose
/// twelve bytes agree are then ordered by their whole text.
fn sort_bucket<'n>(indices: &mut [u32], name: &impl Fn(u32) -> &'n [u8], depth: usize) {
  let tail = |index: u32| name(index).get(depth..).unwrap_or(&[]);
  let first = tail(indices[0]);
  let common = indices[1..]
    .iter()
    .fold(first.len(), |common, index| common_prefix(&first[..common], tail(*index)));
  let mut keys: Vec<Key> =
    indices.iter().map(|index| Key::new(&tail(*index)[common..], *index)).collect();
  radix_sort(&mut keys);
  let mut start = 0;
  while start < keys.len() {
    let prefix = keys[start].prefix();
    let end = start + keys[start..].iter().take_while(|key| key.prefix() == prefix).count();
    if end - start > 1 {
      keys[start..end].sort_unstable_by(|a, b| name(a.index()).cmp(name(b.index())));
    }
    start = end;
  }
  for (index, key) in indices.iter_mut().zip(keys) {
    *index = key.index();
  }
}

fn common_prefix(a: &[u8], b: &[u8]) -> usize {
  if b.starts_with(a) {
    return a.len();
  }
  a.iter().zip(b).take_while(|(a, b)| a == b).count()
}

/// A stable counting sort of `items` into `out` by `digit`, which is below
/// 257: where each digit's run starts in `out`, then where the last ends.
fn counting_sort<T: Copy>(items: &[T], out: &mut [T], digit: impl Fn(&T) -> usize) -> [usize; 258] {
  let mut starts = [0usize; 258];
  for item in items {
    starts[digit(item) + 1] += 1;
  }
  for bucket in 1..starts.len() {
    starts[bucket] += starts[bucket - 1];
  }
  let mut next = starts;
  for item in items {
    let slot = &mut next[digit(item)];
    if let Some(target) = out.get_mut(*slot) {
      *target = *item;
    }
    *slot += 1;
  }
  starts
}

/// Twelve bytes of a name, zero-padded, then its index.
#[derive(Clone, Copy, Default)]
struct Key([u8; 16]);

impl Key {
  fn new(name: &[u8], index: u32) -> Self {
    let mut bytes = [0u8; 16];
    let prefix = &name[..name.len().min(12)];
    bytes[..prefix.len()].copy_from_slice(prefix);
    bytes[12..].copy_from_slice(&index.to_le_bytes());
    Key(bytes)
  }

  /// The name bytes, as one integer for quick comparison.
  fn prefix(&self) -> u128 {
    u128::from_le_bytes(self.0) & ((1 << 96) - 1)
  }

  fn index(&self) -> u32 {
    u32::from_le_bytes([self.0[12], self.0[13], self.0[14], self.0[15]])
  }
}

/// A stable least-significant-digit radix sort of keys by their twelve name
/// bytes, one pass per byte that is not the same in every key.
fn radix_sort(keys: &mut Vec<Key>) {
  let Some(&first) = keys.first() else { return };
  let first = u128::from_le_bytes(first.0);
  let differing =
    keys.iter().fold(0, |differing, key| differing | (u128::from_le_bytes(key.0) ^ first));
  let mut scratch = vec![Key::default(); keys.len()];
  for byte in (0..12).rev().filter(|byte| (differing >> (8 * byte)) as u8 != 0) {
    counting_sort(keys, &mut scratch, |key| usize::from(key.0[byte]));
    std::mem::swap(keys, &mut scratch);
  }
}

impl<'src, T: Named<'src>> Index<&str> for Table<'src, T> {
  type Output = T;

  fn index(&self, name: &str) -> &T {
    match self.get(name) {
      Some(value) => value,
      None => panic!("no entry named `{name}`"),
    }
  }
}

/// Items by name.
pub(crate) struct Iter<'t, 'src, T> {
  entries: &'t [T],
  indices: std::slice::Iter<'t, u32>,
  _names: PhantomData<&'src str>,
}

impl<T> Clone for Iter<'_, '_, T> {
  fn clone(&self) -> Self {
    Iter { entries: self.entries, indices: self.indices.clone(), _names: PhantomData }
  }
}

impl<'t, 'src, T: Named<'src>> Iterator for Iter<'t, 'src, T> {
  type Item = (&'src str, &'t T);

  fn next(&mut self) -> Option<Self::Item> {
    let value = &self.entries[*self.indices.next()? as usize];
    Some((value.key(), value))
  }

  fn size_hint(&self) -> (usize, Option<usize>) {
    self.indices.size_hint()
  }
}

impl<'src, T: Named<'src>> DoubleEndedIterator for Iter<'_, 'src, T> {
  fn next_back(&mut self) -> Option<Self::Item> {
    let value = &self.entries[*self.indices.next_back()? as usize];
    Some((value.key(), value))
  }
}

impl<'src, T: Named<'src>> ExactSizeIterator for Iter<'_, 'src, T> {}

impl<'t, 'src, T: Named<'src>> IntoIterator for &'t Table<'src, T> {
  type Item = (&'src str, &'t T);
  type IntoIter = Iter<'t, 'src, T>;

  fn into_iter(self) -> Self::IntoIter {
    self.iter()
  }
}

impl<'src, T: Named<'src> + Debug> Debug for Table<'src, T> {
  fn fmt(&self, f: &mut Formatter) -> fmt::Result {
    f.debug_map().entries(self.iter()).finish()
  }
}

#[cfg(test)]
mod tests {
  use super::*;

  /// A name and a value.
  impl<'s, V> Named<'s> for (&'s str, V) {
    fn key(&self) -> &'s str {
      self.0
    }
  }

  #[test]
  fn iterates_by_name_and_keeps_indices() {
    let mut table = Table::new();
    let names = ["recipe-10", "b", "recipe-1", "a-very-long-name-of-more-than-16-bytes-2", "", "a"];
    for (value, name) in names.iter().enumerate() {
      table.insert((*name, value));
    }
    table.insert(("a-very-long-name-of-more-than-16-bytes-1", 9));
    let mut expected: Vec<&str> = names.to_vec();
    expected.push("a-very-long-name-of-more-than-16-bytes-1");
    expected.sort_unstable();
    assert_eq!(table.keys().collect::<Vec<_>>(), expected);
    assert_eq!(table.index_of("b"), Some(1));
    assert_eq!(table["recipe-1"].1, 2);
    assert_eq!(table.insert(("b", 7)), Some(("b", 1)));
    assert_eq!(table.at(1), Some(&("b", 7)));
    assert!(table.get("c").is_none());
    let renumbered = table.retain(|(name, _)| *name != "b");
    assert_eq!(renumbered[..3], [Some(0), None, Some(1)]);
    assert_eq!(table.index_of("recipe-1"), Some(1));
    assert_eq!(table.len(), 6);
  }

  #[test]
  fn sorts_names_sharing_long_prefixes() {
    let mut names: Vec<String> = (0..3000).map(|i| format!("recipe-{}", i * 7919 % 3001)).collect();
    names.extend((0..40).map(|i| format!("a-common-prefix-of-more-than-twelve-{i}")));
    names.extend(["", "a", "ab", "a-common-prefix-of-more-than-twelve"].map(String::from));
    let mut table = Table::new();
    for (value, name) in names.iter().enumerate() {
      table.insert((name.as_str(), value));
    }
    let mut expected: Vec<&str> = names.iter().map(String::as_str).collect();
    expected.sort_unstable();
    assert_eq!(table.keys().collect::<Vec<_>>(), expected);
    let mut prefixed = Table::new();
    let mut names_with_prefix: Vec<String> =
      (0..300).map(|i| format!("x{}", i * 11 % 301)).collect();
    names_with_prefix.push("x".to_string());
    for name in &names_with_prefix {
      prefixed.insert((name.as_str(), ()));
    }
    let mut expected: Vec<&str> = names_with_prefix.iter().map(String::as_str).collect();
    expected.sort_unstable();
    assert_eq!(prefixed.keys().collect::<Vec<_>>(), expected);
    for (index, name) in names.iter().enumerate() {
      assert_eq!(table.index_of(name), Some(index), "{name}");
      assert_eq!(table.index_of(&format!("{name}x")), None, "{name}x");
    }
  }
}
