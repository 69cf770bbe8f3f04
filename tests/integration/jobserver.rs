//! `--jobserver`: `make` run by a recipe shares the `--jobs` pool, and
//! `just` run by `make -jN` takes its slots from make's pool.
//!
//! Each job appends `start NAME` to `log`, then waits until it sees another
//! job running or every job has started (deadline 20 s, reached only when
//! the jobs cannot overlap), then appends `end NAME`. So with a pool of two
//! slots the jobs overlap in pairs at once, never three, and the log shows a
//! peak of exactly two without depending on timing.

tests! {
  ;
  extensions:
  make_in_a_recipe_shares_the_jobs_pool,
  recipes_see_the_pool_in_makeflags,
  just_under_make_takes_its_slots_from_make,
  just_under_a_make_rule_without_plus_warns_and_uses_its_jobs,
  make_under_just_under_a_make_rule_without_plus_shares_the_jobs_pool,
  signal_under_a_make_rule_without_plus_reaches_the_recipes,
}

use crate::common::Test;

const JOB: &str = r#"log=log; name=$1; total=$2
echo "start $name" >> $log
deadline=$(($(date +%s) + 20))
while :; do
  starts=$(grep -c '^start' $log); ends=$(grep -c '^end' $log)
  [ $((starts - ends)) -ge 2 ] && break
  [ $starts -ge $total ] && break
  [ $(date +%s) -gt $deadline ] && break
  sleep 0.01
done
echo "end $name" >> $log
"#;

/// The most jobs running at once according to the log, and how many ran.
fn peak_and_count(log: &str) -> (usize, usize) {
  let (mut running, mut peak, mut count) = (0usize, 0, 0);
  for line in log.lines() {
    if line.starts_with("start ") {
      running += 1;
      count += 1;
      peak = peak.max(running);
    } else if line.starts_with("end ") {
      running -= 1;
    }
  }
  (peak, count)
}

fn require_make() {
  let found = std::process::Command::new("make").arg("--version").output().is_ok();
  assert!(found, "these tests need GNU make on PATH (`.ci/run` installs it)");
}

fn make_in_a_recipe_shares_the_jobs_pool() {
  require_make();
  let output = Test::new()
    .justfile("build:\n  @make -s\n")
    .write("job.sh", JOB)
    .write(
      "Makefile",
      "JOBS := 1 2 3 4 5 6 7 8\nall: $(JOBS)\n$(JOBS):\n\t@sh job.sh $@ 8\n.PHONY: all $(JOBS)\n",
    )
    .args(&["--jobserver", "--jobs", "2"])
    .run();
  let log = std::fs::read_to_string(output.root.join("log")).expect("read log");
  assert_eq!(peak_and_count(&log), (2, 8), "log:\n{log}");
}

fn recipes_see_the_pool_in_makeflags() {
  Test::new()
    .justfile("show:\n  @echo \"$MAKEFLAGS\" | grep -c -- '--jobserver-auth='\n")
    .args(&["--jobserver", "--jobs", "3"])
    .stdout("1\n")
    .run();
  Test::new()
    .justfile("show:\n  @echo \"[${MAKEFLAGS-unset}]\"\n")
    .args(&["--jobs", "3"])
    .stdout("[unset]\n")
    .run();
}

fn just_under_make_takes_its_slots_from_make() {
  require_make();
  let mut justfile = String::from("[parallel]\nall: j1 j2 j3 j4 j5 j6\n");
  for job in 1..=6 {
    justfile.push_str(&format!("j{job}:\n  @sh job.sh {job} 6\n"));
  }
  let just = env!("CARGO_BIN_EXE_just");
  let output = Test::new()
    .justfile("build:\n  @make -s -j2 -f outer.mk\n")
    .write("outer.mk", &format!("all:\n\t+@{just} --jobserver -f inner.just -d . all\n"))
    .write("inner.just", &justfile)
    .write("job.sh", JOB)
    .run();
  let log = std::fs::read_to_string(output.root.join("log")).expect("read log");
  assert_eq!(peak_and_count(&log), (2, 6), "log:\n{log}");
}

/// A justfile of `count` `[parallel]` jobs logging to `log`.
fn parallel_jobs(count: usize) -> String {
  let mut justfile =
    format!("[parallel]\nall:{}\n", (1..=count).map(|job| format!(" j{job}")).collect::<String>());
  for job in 1..=count {
    justfile.push_str(&format!("j{job}:\n  @sh job.sh {job} {count}\n"));
  }
  justfile
}

const UNAVAILABLE: &str =
  "warning: jobserver unavailable: using --jobs 2. Add '+' to parent make rule.\n";

/// `make -j4` runs `just` from a rule without `+`: `MAKEFLAGS` names the
/// pool's descriptors, but make closed them, and `just`'s own pipes take
/// their numbers. `just` warns and runs with the two slots of `--jobs 2`.
fn just_under_a_make_rule_without_plus_warns_and_uses_its_jobs() {
  require_make();
  let just = env!("CARGO_BIN_EXE_just");
  let output = Test::new()
    .justfile("build:\n  @make -s -j4 -f outer.mk\n")
    .write("outer.mk", &format!("all:\n\t@{just} --jobserver --jobs 2 -f inner.just -d . all\n"))
    .write("inner.just", &parallel_jobs(6))
    .write("job.sh", JOB)
    .stderr(UNAVAILABLE)
    .run();
  let log = std::fs::read_to_string(output.root.join("log")).expect("read log");
  assert_eq!(peak_and_count(&log), (2, 6), "log:\n{log}");
}

/// A `make` run by a recipe of that `just` gets `just`'s own pool: it
/// neither warns that the jobserver is unavailable nor runs serially.
fn make_under_just_under_a_make_rule_without_plus_shares_the_jobs_pool() {
  require_make();
  let just = env!("CARGO_BIN_EXE_just");
  let output = Test::new()
    .justfile("build:\n  @make -s -j4 -f outer.mk\n")
    .write("outer.mk", &format!("all:\n\t@{just} --jobserver --jobs 2 -f inner.just -d . inner\n"))
    .write("inner.just", "inner:\n  @make -s -f jobs.mk\n")
    .write(
      "jobs.mk",
      "JOBS := 1 2 3 4 5 6\nall: $(JOBS)\n$(JOBS):\n\t@sh job.sh $@ 6\n.PHONY: all $(JOBS)\n",
    )
    .write("job.sh", JOB)
    .stderr(UNAVAILABLE)
    .run();
  let log = std::fs::read_to_string(output.root.join("log")).expect("read log");
  assert_eq!(peak_and_count(&log), (2, 6), "log:\n{log}");
}

/// The descriptors make named are `just`'s signal self-pipe by the time a
/// pool would be set up: reading tokens from it would eat signals. Recipe
/// `a` waits until `b` (which needs the second slot) has run, then sends
/// SIGTERM to `just`, which must pass it on to `a`.
fn signal_under_a_make_rule_without_plus_reaches_the_recipes() {
  require_make();
  let just = env!("CARGO_BIN_EXE_just");
  let wait_then_kill = "@deadline=$(($(date +%s) + 120)); \
    while [ ! -e b-ran ] && [ $(date +%s) -le $deadline ]; do sleep 0.01; done; \
    kill -TERM $PPID; sleep 120";
  Test::new()
    .justfile("build:\n  @make -s -j4 -f outer.mk\n")
    .write("outer.mk", &format!("all:\n\t@{just} --jobserver --jobs 2 -f inner.just -d . all\n"))
    .write(
      "inner.just",
      &format!("[parallel]\nall: a b\na:\n  {wait_then_kill}\nb:\n  @touch b-ran\n"),
    )
    .stderr_regex(&format!(
      "{}error: recipe `a` was terminated on line 4 by signal 15\nmake: \\*\\*\\* .*Error 143\n\
       error: recipe `build` failed on line 2 with exit code 2\n",
      regex::escape(UNAVAILABLE)
    ))
    .status(2)
    .run();
}
