//! Loading of imports and modules, and analysis (language.md §4–§10).
