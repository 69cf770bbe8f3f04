//! Running `[cache]` recipes on a Remote Execution API server's workers.

use super::{option, switch, text, Flag, Kind, Takes};

/// The rows of this file.
pub(crate) const ROWS: &[Flag] =
  &[REMOTE_EXECUTOR, REMOTE_FALLBACK, REMOTE_JOBS, REMOTE_PROPERTY, REMOTE_TIMEOUT];

pub(crate) const REMOTE_EXECUTOR: Flag = Flag {
  env: Some("JUST_REMOTE_EXECUTOR"),
  ..text(
    "remote-executor",
    "URL",
    "Run `[cache]` recipes on the workers of this grpc:// or grpcs:// Remote Execution API server (unstable)",
    |o, v| {
      o.remote_executor = v.string();
    },
  )
};

pub(crate) const REMOTE_FALLBACK: Flag = switch(
  "remote-fallback",
  "JUST_REMOTE_FALLBACK",
  "Run `[cache]` recipes locally when the `--remote-executor` cannot be reached",
  |o, v| {
    o.remote_fallback = v.switch();
  },
);

pub(crate) const REMOTE_JOBS: Flag = Flag {
  env: Some("JUST_REMOTE_JOBS"),
  default: Some("64"),
  ..option(
    "remote-jobs",
    Takes::Value("N", Kind::Positive),
    "Have at most N `[cache]` recipes in flight on the `--remote-executor`, apart from `--jobs` (default {default})",
    |o, v| {
      o.remote_jobs = v.positive().unwrap_or(64);
    },
  )
};

pub(crate) const REMOTE_PROPERTY: Flag = option(
  "remote-property",
  Takes::Values("KEY=VALUE", Kind::Text),
  "Ask for workers with this platform property, besides the OS and processor (unstable)",
  |o, v| {
    o.remote_properties = v.strings();
  },
);

pub(crate) const REMOTE_TIMEOUT: Flag = Flag {
  env: Some("JUST_REMOTE_TIMEOUT"),
  ..option(
    "remote-timeout",
    Takes::Value("SECONDS", Kind::Positive),
    "Ask the `--remote-executor` to stop an action that runs longer than SECONDS",
    |o, v| {
      o.remote_timeout = v.positive().map(|seconds| seconds as u64);
    },
  )
};

#[cfg(test)]
mod tests {
  use crate::cli::flags::testing::{error, options, strings};

  #[test]
  fn remote_executor_takes_a_url() {
    let options = options(&["--remote-executor", "grpc://127.0.0.1:1/main"]);
    assert_eq!(options.remote_executor.as_deref(), Some("grpc://127.0.0.1:1/main"));
  }

  #[test]
  fn remote_jobs_default_to_64_and_must_be_positive() {
    assert_eq!(options(&[]).remote_jobs, 64);
    assert_eq!(options(&["--remote-jobs", "3"]).remote_jobs, 3);
    assert!(!error(&["--remote-jobs", "0"]).is_empty());
  }

  #[test]
  fn remote_properties_accumulate() {
    let options = options(&["--remote-property", "a=1", "--remote-property", "b=2"]);
    assert_eq!(options.remote_properties, strings(&["a=1", "b=2"]));
  }

  #[test]
  fn remote_timeout_and_fallback() {
    let options = options(&["--remote-timeout", "5", "--remote-fallback"]);
    assert_eq!(options.remote_timeout, Some(5));
    assert!(options.remote_fallback);
  }
}
