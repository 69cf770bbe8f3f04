//! `--dump --dump-format json` / `--json` (cli-and-execution.md §5.6).
