//! String literal processing: unindentation, escapes, shell expansion (language.md §3).
