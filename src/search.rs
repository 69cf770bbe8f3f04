//! Finding the justfile (cli-and-execution.md §4).
