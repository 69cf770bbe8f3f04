//! Built-in constants (reference.md §2).
