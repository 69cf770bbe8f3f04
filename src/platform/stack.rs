//! Threads with large stacks. `just` and its language server run on a
//! thread with a `LARGE` stack: analysis, evaluation and dependency
//! resolution recurse once per nesting level or chain link (long `+`
//! chains, variable chains, dependency chains), which overflows the default
//! main stack. Only touched pages are committed. A stage that needs a
//! stack of some size (the parser) asks for it with `with_stack`, which
//! runs in place on a thread known to have one.

use std::cell::Cell;

/// Stack of the thread that runs `just` or its language server.
pub(crate) const LARGE: usize = 1024 * 1024 * 1024;

thread_local! {
  /// The size of this thread's stack when it was started here, else 0.
  // The initializer is `const` already; clippy's lint misreads the macro's
  // expansion for Windows targets.
  #[allow(clippy::missing_const_for_thread_local)]
  static KNOWN_SIZE: Cell<usize> = const { Cell::new(0) };
}

/// Start `main` on a thread named `name` with a `LARGE` stack.
pub(crate) fn spawn_on_large_stack<T: Send + 'static>(
  name: &str,
  main: impl FnOnce() -> T + Send + 'static,
) -> std::io::Result<std::thread::JoinHandle<T>> {
  std::thread::Builder::new().name(name.into()).stack_size(LARGE).spawn(|| {
    KNOWN_SIZE.set(LARGE);
    main()
  })
}

/// Run `run` on a thread (named `name`) whose stack has at least `size`
/// bytes, or in place if this thread's is known to, or if no such thread
/// can be started. Callers that need it for many steps wrap the whole loop
/// in this: one thread, not one per step.
pub(crate) fn with_stack<T: Send, F: FnOnce() -> T + Send>(size: usize, name: &str, run: F) -> T {
  if KNOWN_SIZE.get() >= size {
    return run();
  }
  let slot = std::sync::Mutex::new(Some(run));
  let take = || slot.lock().ok().and_then(|mut slot| slot.take());
  let on_thread = std::thread::scope(|scope| {
    let spawned =
      std::thread::Builder::new().name(name.into()).stack_size(size).spawn_scoped(scope, || {
        KNOWN_SIZE.set(size);
        take().map(|run| run())
      });
    spawned
      .ok()
      .map(|handle| handle.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)))
  });
  match on_thread.flatten() {
    Some(value) => value,
    None => take().map_or_else(|| unreachable!("`run` is taken only once"), |run| run()),
  }
}

#[cfg(test)]
mod tests {
  use super::*;

  #[test]
  fn a_large_stack_runs_smaller_needs_in_place() {
    let handle = spawn_on_large_stack("test", || {
      let outer = std::thread::current().id();
      with_stack(LARGE / 4, "inner", move || std::thread::current().id() == outer)
    });
    assert!(handle.unwrap().join().unwrap());
  }

  #[test]
  fn a_thread_of_unknown_stack_starts_one_of_the_size_asked() {
    let outer = std::thread::current().id();
    let (id, name) = with_stack(8 * 1024 * 1024, "sized", || {
      (std::thread::current().id(), std::thread::current().name().map(str::to_owned))
    });
    assert_ne!(id, outer);
    assert_eq!(name.as_deref(), Some("sized"));
  }
}
