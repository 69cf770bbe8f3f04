//! The signals `just` names, by their POSIX numbers, so that names,
//! `[continue(…)]` and exit statuses (128 + number) read as they do on
//! Linux. Windows delivers only the first three, as console control events;
//! the rest are names justfiles may still spell.

/// Every signal `just` names: its number, its name, and whether a recipe
/// may continue after it (`[continue(NAME…)]`). The first three are SIGHUP,
/// SIGINT and SIGQUIT.
pub(crate) const SIGNALS: &[(i32, &str, bool)] = &[
  (SIGHUP, "SIGHUP", true),
  (SIGINT, "SIGINT", true),
  (3, "SIGQUIT", true),
  (4, "SIGILL", false),
  (5, "SIGTRAP", false),
  (6, "SIGABRT", false),
  (7, "SIGBUS", false),
  (8, "SIGFPE", false),
  (KILL, "SIGKILL", false),
  (10, "SIGUSR1", false),
  (11, "SIGSEGV", false),
  (12, "SIGUSR2", false),
  (13, "SIGPIPE", false),
  (14, "SIGALRM", false),
  (TERMINATE, "SIGTERM", false),
  (17, "SIGCHLD", false),
  (18, "SIGCONT", false),
  (19, "SIGSTOP", false),
  (20, "SIGTSTP", false),
  (21, "SIGTTIN", false),
  (22, "SIGTTOU", false),
  (23, "SIGURG", false),
  (24, "SIGXCPU", false),
  (25, "SIGXFSZ", false),
  (26, "SIGVTALRM", false),
  (27, "SIGPROF", false),
  (28, "SIGWINCH", false),
  (29, "SIGIO", false),
  (31, "SIGSYS", false),
];

pub(crate) const SIGHUP: i32 = 1;
pub(crate) const SIGINT: i32 = 2;
pub(crate) const KILL: i32 = 9;
pub(crate) const TERMINATE: i32 = 15;
