//! `--jobserver`: a GNU make jobserver shared with the recipes' processes.
//!
//! Without a parent jobserver, `just` creates a pool for `--jobs N` (or the
//! number of CPUs): `just` itself owns one slot, the implicit one every
//! jobserver client has, and the pipe holds the other N - 1. Under a parent
//! jobserver (`make -jN` running `just`), `just` uses that pool instead.
//! Each recipe body runs with one slot: the implicit one if it is free,
//! otherwise a token read from the pool. Its processes inherit the pool
//! through `MAKEFLAGS`/`CARGO_MAKEFLAGS`, so a `make` or `cargo` they run
//! starts further jobs only with tokens of the same pool.

use std::process::Command;
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};

use jobserver::{Acquired, Client, HelperThread};

use super::error::ExecutionError;
use crate::options::Options;

/// The pool, and a helper thread reading tokens from it on request, so a
/// waiting recipe can take either a token or the implicit slot, whichever
/// comes first.
struct Pool {
  client: Client,
  helper: HelperThread,
}

static POOL: Mutex<Option<Pool>> = Mutex::new(None);

fn pool() -> MutexGuard<'static, Option<Pool>> {
  POOL.lock().unwrap_or_else(PoisonError::into_inner)
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

static SLOTS: Mutex<Slots> =
  Mutex::new(Slots { implicit_taken: false, tokens: Vec::new(), waiting: 0, error: None });
static CHANGED: Condvar = Condvar::new();

fn slots() -> MutexGuard<'static, Slots> {
  SLOTS.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Connect to the parent's jobserver or create one; no-op unless
/// `--jobserver` was given.
pub fn start<'src>(config: &Options) -> Result<(), ExecutionError<'src>> {
  if !config.jobserver || pool().is_some() {
    return Ok(());
  }
  let failure = |source: std::io::Error| ExecutionError::Message {
    message: format!("could not set up the jobserver: {source}"),
  };
  // SAFETY: the descriptors named in MAKEFLAGS are only used if they are
  // open pipes (checked), and nothing else in `just` uses them.
  let inherited = unsafe { Client::from_env_ext(true) }.client.ok();
  let client = match inherited {
    Some(client) => client,
    None => {
      let slots = config.jobs.unwrap_or_else(|| {
        std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
      });
      Client::new(slots - 1).map_err(failure)?
    }
  };
  let helper = client.clone().into_helper_thread(receive).map_err(failure)?;
  *pool() = Some(Pool { client, helper });
  Ok(())
}

/// Stop using the pool: the helper thread stops and every token it read
/// goes back, so a parent `make` gets all its tokens back before `just`
/// exits (a token read just before exit would otherwise be lost).
pub fn stop() {
  let stopped = pool().take();
  drop(stopped);
  let tokens = std::mem::take(&mut slots().tokens);
  drop(tokens);
}

/// Called on the helper thread with each token read from the pool. A token
/// nobody waits for any more goes straight back.
fn receive(token: std::io::Result<Acquired>) {
  let mut slots = slots();
  match token {
    Ok(token) if slots.waiting > slots.tokens.len() => slots.tokens.push(token),
    Ok(token) => drop(token),
    Err(error) => slots.error = Some(error.to_string()),
  }
  drop(slots);
  CHANGED.notify_all();
}

/// Hand the pool to a recipe's process (`MAKEFLAGS`, `MFLAGS`,
/// `CARGO_MAKEFLAGS` and the inherited descriptors).
pub fn configure(command: &mut Command) {
  if let Some(pool) = pool().as_ref() {
    pool.client.configure_make(command);
  }
}

/// One slot of the pool, held while a recipe body runs.
pub enum Token {
  /// No jobserver in use.
  Unused,
  Implicit,
  Pooled(#[allow(dead_code)] Acquired),
}

/// Wait for a slot; without `--jobserver` returns at once.
pub fn acquire<'src>() -> Result<Token, ExecutionError<'src>> {
  let mut slots = slots();
  {
    let pool = pool();
    let Some(pool) = pool.as_ref() else {
      return Ok(Token::Unused);
    };
    if !slots.implicit_taken {
      slots.implicit_taken = true;
      return Ok(Token::Implicit);
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
      break Ok(Token::Implicit);
    }
    if let Some(token) = slots.tokens.pop() {
      break Ok(Token::Pooled(token));
    }
    slots = CHANGED.wait(slots).unwrap_or_else(PoisonError::into_inner);
  };
  slots.waiting -= 1;
  // Tokens beyond those still waited for go back to the pool.
  let surplus = slots.tokens.len().saturating_sub(slots.waiting);
  let surplus: Vec<Acquired> = slots.tokens.drain(..surplus).collect();
  drop(slots);
  drop(surplus);
  token
}

impl Drop for Token {
  fn drop(&mut self) {
    if let Token::Implicit = self {
      slots().implicit_taken = false;
      CHANGED.notify_all();
    }
  }
}
