//! `--jobserver`: a GNU make jobserver shared with the recipes' processes.
//!
//! Without a parent jobserver, `just` creates a pool for `--jobs N` (or the
//! number of CPUs): `just` itself owns one slot, the implicit one every
//! jobserver client has, and the pipe holds the other N - 1. Under a parent
//! jobserver (`make -jN` running `just`), `just` uses that pool instead,
//! provided its descriptors were make's pipe when `just` started: a rule
//! without `+` names them in `MAKEFLAGS` but closes them, and `just` then
//! warns as a sub-make does and creates its own pool.
//! Each recipe body runs with one slot: the implicit one if it is free,
//! otherwise a token read from the pool. Its processes inherit the pool
//! through `MAKEFLAGS`/`CARGO_MAKEFLAGS`, so a `make` or `cargo` they run
//! starts further jobs only with tokens of the same pool.

use std::process::Command;
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};

use jobserver::{Acquired, Client, FromEnvErrorKind, HelperThread};

use super::error::ExecutionError;
use crate::options::Options;
use crate::platform::{self, stdio};

/// The pool, and a helper thread reading tokens from it on request, so a
/// waiting recipe can take either a token or the implicit slot, whichever
/// comes first.
struct Pool {
  client: Client,
  helper: HelperThread,
}

#[derive(Default)]
struct Slots {
  /// Whether a recipe body runs with the implicit slot.
  implicit_taken: bool,
  /// Tokens read by the helper thread and not yet taken.
  tokens: Vec<Acquired>,
  waiting: usize,
  error: Option<String>,
}

/// What the helper thread shares with the run.
#[derive(Default)]
pub(crate) struct Shared {
  slots: Mutex<Slots>,
  changed: Condvar,
}

impl Shared {
  fn slots(&self) -> MutexGuard<'_, Slots> {
    self.slots.lock().unwrap_or_else(PoisonError::into_inner)
  }
}

/// A run's jobserver client: unused until `start`, released on drop.
#[derive(Default)]
pub(crate) struct Jobserver {
  pool: Mutex<Option<Pool>>,
  shared: Arc<Shared>,
}

impl Jobserver {
  fn pool(&self) -> MutexGuard<'_, Option<Pool>> {
    self.pool.lock().unwrap_or_else(PoisonError::into_inner)
  }

  /// Connect to the parent's jobserver or create one; no-op unless
  /// `--jobserver` was given.
  pub(crate) fn start<'src>(&self, config: &Options) -> Result<(), ExecutionError<'src>> {
    let mut pool = self.pool();
    if !config.jobserver || pool.is_some() {
      return Ok(());
    }
    let failure = |source: std::io::Error| ExecutionError::Message {
      message: format!("could not set up the jobserver: {source}"),
    };
    let client = match inherited() {
      Inherited::Pool(client) => client,
      found => {
        let slots = config.jobs.unwrap_or_else(|| {
          std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
        });
        if let Inherited::Unavailable = found {
          // As GNU make says it in a sub-make.
          let _ = stdio::stderr_line(&format!(
            "warning: jobserver unavailable: using --jobs {slots}. Add '+' to parent make rule."
          ));
        }
        Client::new(slots - 1).map_err(failure)?
      }
    };
    let shared = Arc::clone(&self.shared);
    let helper =
      client.clone().into_helper_thread(move |token| receive(&shared, token)).map_err(failure)?;
    *pool = Some(Pool { client, helper });
    Ok(())
  }

  /// Stop using the pool: the helper thread stops and every token it read
  /// goes back, so a parent `make` gets all its tokens back before `just`
  /// exits (a token read just before exit would otherwise be lost).
  pub(crate) fn stop(&self) {
    let stopped = self.pool().take();
    drop(stopped);
    let tokens = std::mem::take(&mut self.shared.slots().tokens);
    drop(tokens);
  }

  /// Hand the pool to a recipe's process (`MAKEFLAGS`, `MFLAGS`,
  /// `CARGO_MAKEFLAGS` and the inherited descriptors).
  pub(crate) fn configure(&self, command: &mut Command) {
    if let Some(pool) = self.pool().as_ref() {
      pool.client.configure_make(command);
    }
  }

  /// Wait for a slot; without `--jobserver` returns at once.
  pub(crate) fn acquire<'src>(&self) -> Result<Token<'_>, ExecutionError<'src>> {
    let shared = &*self.shared;
    let mut slots = shared.slots();
    {
      let pool = self.pool();
      let Some(pool) = pool.as_ref() else {
        return Ok(Token::Unused);
      };
      if !slots.implicit_taken {
        slots.implicit_taken = true;
        return Ok(Token::Implicit(shared));
      }
      slots.waiting += 1;
      pool.helper.request_token();
    }
    let token = loop {
      if let Some(error) = slots.error.take() {
        break Err(ExecutionError::Message {
          message: format!("could not get a jobserver token: {error}"),
        });
      }
      if !slots.implicit_taken {
        slots.implicit_taken = true;
        break Ok(Token::Implicit(shared));
      }
      if let Some(token) = slots.tokens.pop() {
        break Ok(Token::Pooled(token));
      }
      slots = shared.changed.wait(slots).unwrap_or_else(PoisonError::into_inner);
    };
    slots.waiting -= 1;
    // Tokens beyond those still waited for go back to the pool.
    let surplus = slots.tokens.len().saturating_sub(slots.waiting);
    let surplus: Vec<Acquired> = slots.tokens.drain(..surplus).collect();
    drop(slots);
    drop(surplus);
    token
  }
}

/// What the environment says of a parent's jobserver.
enum Inherited {
  /// None named (or named as disabled, or not understood).
  None,
  /// Named, but its pipe is not there: a `make` rule without `+` names its
  /// descriptors and closes them.
  Unavailable,
  Pool(Client),
}

fn inherited() -> Inherited {
  // Descriptors that were not the parent's pipe when `just` started may be
  // `just`'s own pipes by now (the signal self-pipe): never taken.
  if !platform::parent_jobserver_usable() {
    return Inherited::Unavailable;
  }
  // SAFETY: the descriptors named in MAKEFLAGS were open pipes before
  // `just` opened any of its own (checked at start-up) and are checked
  // again; nothing else in `just` uses them.
  match unsafe { Client::from_env_ext(true) }.client {
    Ok(client) => Inherited::Pool(client),
    Err(error) => match error.kind() {
      FromEnvErrorKind::CannotOpenPath
      | FromEnvErrorKind::CannotOpenFd
      | FromEnvErrorKind::NotAPipe => Inherited::Unavailable,
      _ => Inherited::None,
    },
  }
}

impl Drop for Jobserver {
  fn drop(&mut self) {
    self.stop();
  }
}

/// Called on the helper thread with each token read from the pool. A token
/// nobody waits for any more goes straight back.
fn receive(shared: &Shared, token: std::io::Result<Acquired>) {
  let mut slots = shared.slots();
  match token {
    Ok(token) if slots.waiting > slots.tokens.len() => slots.tokens.push(token),
    Ok(token) => drop(token),
    Err(error) => slots.error = Some(error.to_string()),
  }
  drop(slots);
  shared.changed.notify_all();
}

/// One slot of the pool, held while a recipe body runs.
pub(crate) enum Token<'j> {
  /// No jobserver in use.
  Unused,
  Implicit(&'j Shared),
  Pooled(#[allow(dead_code)] Acquired),
}

impl Drop for Token<'_> {
  fn drop(&mut self) {
    if let Token::Implicit(shared) = self {
      shared.slots().implicit_taken = false;
      shared.changed.notify_all();
    }
  }
}
