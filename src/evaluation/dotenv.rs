//! Dotenv loading (reference.md §3.3).
