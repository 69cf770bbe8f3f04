//! Built-in functions (reference.md §1).
