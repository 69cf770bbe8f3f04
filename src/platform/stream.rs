//! Which standard output stream: the one word `stdio` and the operating
//! system's writers (`os::streams`) share.

/// A standard output stream.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Stream {
  Stdout,
  Stderr,
}
