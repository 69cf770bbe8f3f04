//! An entry's text: JSON, read as it streams in straight into a
//! `Builder` (no document of untyped values, whose size is many times the
//! text's), every string bounded, so that reading an entry costs memory in
//! proportion to its items; and written item by item as outputs are
//! walked.

use std::fmt;
use std::io::{self, Write};

use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

use super::{is_hex, Blob, Builder, Checked, Kind, LONGEST_ITEM_PATH};

/// Why an entry's text cannot be used.
#[derive(Debug, PartialEq, Eq)]
pub(in crate::execution::cache) enum Unusable {
  /// Not an entry at all: not JSON, or not an object.
  Corrupt,
  /// An entry, but not a harmless one for these outputs: why.
  Refused(String),
}

/// Read and check the entry `reader` streams, for the declared `outputs`.
pub(in crate::execution::cache) fn read(
  reader: impl io::Read,
  outputs: &[String],
) -> Result<Checked, Unusable> {
  check_text(serde_json::Deserializer::from_reader(reader), outputs)
}

/// Check the entry `text`, for the declared `outputs`.
pub(in crate::execution::cache) fn parse(
  text: &[u8],
  outputs: &[String],
) -> Result<Checked, Unusable> {
  check_text(serde_json::Deserializer::from_slice(text), outputs)
}

fn check_text<'de, R: serde_json::de::Read<'de>>(
  mut deserializer: serde_json::Deserializer<R>,
  outputs: &[String],
) -> Result<Checked, Unusable> {
  let mut parser = Parser {
    builder: Builder::new(outputs),
    path: String::new(),
    target: String::new(),
    blob: String::new(),
    refusal: None,
    object: false,
  };
  let read = EntrySeed(&mut parser)
    .deserialize(&mut deserializer)
    .and_then(|parts| deserializer.end().map(|()| parts));
  match read {
    Ok(Parts { items: false, .. }) => Err(Unusable::Refused("no outputs".into())),
    Ok(Parts { stdout: Some(stdout), stderr: Some(stderr), .. }) => {
      parser.builder.finish(stdout, stderr).map_err(Unusable::Refused)
    }
    Ok(_) => Err(Unusable::Refused("a captured stream has no blob".into())),
    Err(error) => Err(match parser.refusal {
      Some(reason) => Unusable::Refused(reason),
      None if parser.object && error.classify() == serde_json::error::Category::Data => {
        Unusable::Refused(error.to_string())
      }
      None => Unusable::Corrupt,
    }),
  }
}

/// What reading an entry keeps: the builder, a buffer for each string of
/// the item being read, and why the entry was refused, if it was.
struct Parser<'o> {
  builder: Builder<'o>,
  path: String,
  target: String,
  blob: String,
  refusal: Option<String>,
  /// Whether the text is an object (else it is no entry at all).
  object: bool,
}

impl Parser<'_> {
  /// Refuse the entry: the error that stops reading it.
  fn refuse<E: de::Error>(&mut self, reason: String) -> E {
    let error = E::custom(&reason);
    self.refusal = Some(reason);
    error
  }

  /// The blob `blob` (hex) of `size`.
  fn blob<E: de::Error>(&mut self, size: Option<u64>) -> Result<Blob, E> {
    let hash = match blake3::Hash::from_hex(&self.blob) {
      Ok(hash) if is_hex(&self.blob) => *hash.as_bytes(),
      _ => return Err(self.refuse("a blob is not a hash".into())),
    };
    let Some(size) = size else {
      return Err(self.refuse("a blob has no size".into()));
    };
    Ok(Blob { hash, size })
  }
}

/// What an entry's object holds besides its items, which go to the
/// builder: whether it lists them, and its captured output's blobs.
struct Parts {
  items: bool,
  stdout: Option<Blob>,
  stderr: Option<Blob>,
}

/// The entry.
struct EntrySeed<'p, 'o>(&'p mut Parser<'o>);

impl<'de> DeserializeSeed<'de> for EntrySeed<'_, '_> {
  type Value = Parts;

  fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
    deserializer.deserialize_map(self)
  }
}

impl<'de> Visitor<'de> for EntrySeed<'_, '_> {
  type Value = Parts;

  fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
    formatter.write_str("an entry")
  }

  fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
    let parser = self.0;
    parser.object = true;
    let (mut stdout, mut stderr, mut items) = (None, None, false);
    while let Some(field) = map.next_key::<Field>()? {
      match field {
        Field::Outputs if items => {
          return Err(parser.refuse("the outputs are listed twice".into()))
        }
        Field::Outputs => {
          map.next_value_seed(ItemsSeed(parser))?;
          items = true;
        }
        Field::Stdout => stdout = Some(map.next_value_seed(BlobSeed(parser))?),
        Field::Stderr => stderr = Some(map.next_value_seed(BlobSeed(parser))?),
        _ => {
          map.next_value::<IgnoredAny>()?;
        }
      }
    }
    Ok(Parts { items, stdout, stderr })
  }
}

/// The fields of an entry and of its items that are read; others are
/// skipped.
enum Field {
  Outputs,
  Stdout,
  Stderr,
  Path,
  Type,
  Mode,
  Blob,
  Size,
  Target,
  Other,
}

impl<'de> de::Deserialize<'de> for Field {
  fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
    struct Name;
    impl Visitor<'_> for Name {
      type Value = Field;

      fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("a field name")
      }

      fn visit_str<E: de::Error>(self, name: &str) -> Result<Field, E> {
        Ok(match name {
          "outputs" => Field::Outputs,
          "stdout" => Field::Stdout,
          "stderr" => Field::Stderr,
          "path" => Field::Path,
          "type" => Field::Type,
          "mode" => Field::Mode,
          "blob" => Field::Blob,
          "size" => Field::Size,
          "target" => Field::Target,
          _ => Field::Other,
        })
      }
    }
    deserializer.deserialize_str(Name)
  }
}

/// A string, copied into a buffer unless it is longer than any path may
/// be: whether it was.
struct Text<'s>(&'s mut String);

impl<'de> DeserializeSeed<'de> for Text<'_> {
  type Value = bool;

  fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<bool, D::Error> {
    deserializer.deserialize_str(self)
  }
}

impl Visitor<'_> for Text<'_> {
  type Value = bool;

  fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
    formatter.write_str("a string")
  }

  fn visit_str<E: de::Error>(self, text: &str) -> Result<bool, E> {
    self.0.clear();
    if text.len() > LONGEST_ITEM_PATH {
      return Ok(false);
    }
    self.0.push_str(text);
    Ok(true)
  }
}

/// A captured stream's blob: `{"blob": HEX, "size": N}`.
struct BlobSeed<'p, 'o>(&'p mut Parser<'o>);

impl<'de> DeserializeSeed<'de> for BlobSeed<'_, '_> {
  type Value = Blob;

  fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Blob, D::Error> {
    deserializer.deserialize_map(self)
  }
}

impl<'de> Visitor<'de> for BlobSeed<'_, '_> {
  type Value = Blob;

  fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
    formatter.write_str("a blob")
  }

  fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Blob, A::Error> {
    let parser = self.0;
    parser.blob.clear();
    let mut size = None;
    while let Some(field) = map.next_key::<Field>()? {
      match field {
        Field::Blob => {
          map.next_value_seed(Text(&mut parser.blob))?;
        }
        Field::Size => size = Some(map.next_value::<u64>()?),
        _ => {
          map.next_value::<IgnoredAny>()?;
        }
      }
    }
    parser.blob(size)
  }
}

/// The list of items, each handed to the builder as it is read.
struct ItemsSeed<'p, 'o>(&'p mut Parser<'o>);

impl<'de> DeserializeSeed<'de> for ItemsSeed<'_, '_> {
  type Value = ();

  fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
    deserializer.deserialize_seq(self)
  }
}

impl<'de> Visitor<'de> for ItemsSeed<'_, '_> {
  type Value = ();

  fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
    formatter.write_str("a list of items")
  }

  fn visit_seq<A: SeqAccess<'de>>(self, mut items: A) -> Result<(), A::Error> {
    while items.next_element_seed(ItemSeed(&mut *self.0))?.is_some() {}
    Ok(())
  }
}

/// An item's type.
enum Type {
  Directory,
  File,
  Symlink,
  Other,
}

impl<'de> de::Deserialize<'de> for Type {
  fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
    struct Name;
    impl Visitor<'_> for Name {
      type Value = Type;

      fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("an item type")
      }

      fn visit_str<E: de::Error>(self, name: &str) -> Result<Type, E> {
        Ok(match name {
          "directory" => Type::Directory,
          "file" => Type::File,
          "symlink" => Type::Symlink,
          _ => Type::Other,
        })
      }
    }
    deserializer.deserialize_str(Name)
  }
}

/// One item, read into the parser's buffers and added to the builder.
struct ItemSeed<'p, 'o>(&'p mut Parser<'o>);

impl<'de> DeserializeSeed<'de> for ItemSeed<'_, '_> {
  type Value = ();

  fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
    deserializer.deserialize_map(self)
  }
}

impl<'de> Visitor<'de> for ItemSeed<'_, '_> {
  type Value = ();

  fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
    formatter.write_str("an item")
  }

  fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
    let parser = self.0;
    let (mut path, mut target, mut kind, mut mode, mut size) = (None, None, None, None, None);
    parser.blob.clear();
    while let Some(field) = map.next_key::<Field>()? {
      match field {
        Field::Path => path = Some(map.next_value_seed(Text(&mut parser.path))?),
        Field::Target => target = Some(map.next_value_seed(Text(&mut parser.target))?),
        Field::Type => kind = Some(map.next_value::<Type>()?),
        // Only the permission bits.
        Field::Mode => mode = Some((map.next_value::<u64>()? & 0o777) as u32),
        Field::Blob => {
          map.next_value_seed(Text(&mut parser.blob))?;
        }
        Field::Size => size = Some(map.next_value::<u64>()?),
        _ => {
          map.next_value::<IgnoredAny>()?;
        }
      }
    }
    match path {
      None => return Err(parser.refuse("an item has no path".into())),
      Some(false) => return Err(parser.refuse("a path is too long".into())),
      Some(true) => {}
    }
    let permissions = || mode.ok_or_else(|| "an item has no mode".to_string());
    let kind = match kind {
      Some(Type::Directory) => permissions().map(|mode| Kind::Directory { mode }),
      Some(Type::File) => {
        let blob = parser.blob(size)?;
        permissions().map(|mode| Kind::File { blob, mode })
      }
      Some(Type::Symlink) => match target {
        Some(true) => Ok(Kind::Symlink { target: &parser.target }),
        Some(false) => Err("a link target is too long".into()),
        None => Err("a link has no target".into()),
      },
      Some(Type::Other) | None => {
        Err(format!("path `{}` has an unknown type", parser.path.escape_debug()))
      }
    };
    match kind.and_then(|kind| parser.builder.add(&parser.path, kind)) {
      Ok(()) => Ok(()),
      Err(reason) => Err(parser.refuse(reason)),
    }
  }
}

/// Writes an entry's text as its items are described, so that no more of
/// it than the item at hand is ever in memory.
pub(in crate::execution::cache) struct Writer<W: Write> {
  sink: W,
  items: usize,
}

impl<W: Write> Writer<W> {
  /// Start the entry of a run of `recipe` that printed `stdout` and
  /// `stderr`.
  pub(in crate::execution::cache) fn start(
    mut sink: W,
    recipe: &str,
    stdout: &Blob,
    stderr: &Blob,
  ) -> io::Result<Self> {
    sink.write_all(b"{\"recipe\":")?;
    serde_json::to_writer(&mut sink, recipe)?;
    write!(
      sink,
      ",\"status\":0,\"stdout\":{{\"blob\":\"{}\",\"size\":{}}},\
       \"stderr\":{{\"blob\":\"{}\",\"size\":{}}},\"outputs\":[",
      stdout.hex(),
      stdout.size,
      stderr.hex(),
      stderr.size
    )?;
    Ok(Writer { sink, items: 0 })
  }

  /// Add the item at `path`.
  pub(in crate::execution::cache) fn item(&mut self, path: &str, kind: Kind<'_>) -> io::Result<()> {
    if self.items > 0 {
      self.sink.write_all(b",")?;
    }
    self.items += 1;
    self.sink.write_all(b"{\"path\":")?;
    serde_json::to_writer(&mut self.sink, path)?;
    match kind {
      Kind::Directory { mode } => write!(self.sink, ",\"type\":\"directory\",\"mode\":{mode}}}"),
      Kind::File { blob, mode } => write!(
        self.sink,
        ",\"type\":\"file\",\"mode\":{mode},\"blob\":\"{}\",\"size\":{}}}",
        blob.hex(),
        blob.size
      ),
      Kind::Symlink { target } => {
        self.sink.write_all(b",\"type\":\"symlink\",\"target\":")?;
        serde_json::to_writer(&mut self.sink, target)?;
        self.sink.write_all(b"}")
      }
    }
  }

  /// End the entry: the sink.
  pub(in crate::execution::cache) fn finish(mut self) -> io::Result<W> {
    self.sink.write_all(b"]}")?;
    Ok(self.sink)
  }
}
