//! `--evaluate` (cli-and-execution.md §5.7).
