//! The top-level driver: parse the command line, dispatch the subcommand,
//! print errors, return the exit status.

pub fn main() -> i32 {
  0
}
