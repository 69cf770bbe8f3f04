//! Job Objects and waiting, for the supervisor: the Windows counterpart of
//! process groups. The run's first child gets a Job Object of its own, a
//! [`Group`] the supervisor owns, and every later child joins it; each
//! child starts suspended and runs only once it is in the job, so nothing
//! it starts escapes. Ending the job ends every process in it. A console
//! has no foreground group and no job control.
//!
//! Nothing here is process-wide: a job is found through the [`Group`] value
//! the run holds, never by a process id, so a later run never joins an
//! earlier run's job, and the job's handle is closed when the run drops the
//! group (a group the recipes left processes in is kept until the run
//! ends).
//!
//! Limits: the job is created with `JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE`, so
//! when `just` ends, killed or crashed included, every process still in the
//! job ends with it (the operating system closes the handle). Breakaway
//! policy: `JOB_OBJECT_LIMIT_BREAKAWAY_OK` and nothing silent: a process is
//! in the job unless it was started with `CREATE_BREAKAWAY_FROM_JOB`, which
//! is how a program that means to outlive `just` (a daemon a recipe starts)
//! leaves it.
//!
//! Console events (Ctrl-C, Ctrl-Break, closing the console) reach every
//! process of the console themselves. A process that ignores the event, or
//! has no console, or runs while the event went to `just` alone, would keep
//! the run waiting: [`GRACE`] after the event, the job is terminated.

use std::io;
use std::os::windows::io::{AsRawHandle, FromRawHandle, OwnedHandle};
use std::os::windows::process::ExitStatusExt;
use std::process::{Child, Command, ExitStatus};
use std::time::Duration;

use windows_sys::Win32::Foundation::{CloseHandle, FALSE, HANDLE, WAIT_FAILED};
use windows_sys::Win32::System::JobObjects::{
  AssignProcessToJobObject, CreateJobObjectW, JobObjectBasicAccountingInformation,
  JobObjectExtendedLimitInformation, QueryInformationJobObject, SetInformationJobObject,
  TerminateJobObject, JOBOBJECT_BASIC_ACCOUNTING_INFORMATION, JOBOBJECT_EXTENDED_LIMIT_INFORMATION,
  JOB_OBJECT_LIMIT_BREAKAWAY_OK, JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE,
};
use windows_sys::Win32::System::Threading::{
  ExitProcess, GetExitCodeProcess, OpenProcess, WaitForSingleObject, CREATE_SUSPENDED, INFINITE,
  PROCESS_QUERY_LIMITED_INFORMATION, PROCESS_SYNCHRONIZE,
};

pub(crate) use super::signal_table::{KILL, TERMINATE};

pub(crate) type Pid = u32;

/// How long the processes of a run have, after a console event, to end on
/// their own before their job is terminated.
pub(crate) const GRACE: Duration = Duration::from_secs(3);

#[link(name = "ntdll")]
unsafe extern "system" {
  /// Resumes every thread of a process: ntdll's counterpart of
  /// `ResumeThread` for a whole process, present since Windows XP.
  fn NtResumeProcess(process: HANDLE) -> i32;
}

/// The Job Object of the run's processes, owned by the run: dropping it
/// closes the job's handle, which ends the processes still in it
/// (`JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE`).
#[derive(Debug)]
pub(crate) struct Group {
  /// The process id of the group's first process.
  id: Pid,
  job: OwnedHandle,
}

impl Group {
  pub(crate) fn id(&self) -> Pid {
    self.id
  }
}

/// Start `command` in the job of `group`, or in a new job when None, which
/// is returned. Children always get a job (`own_group` is always true: a
/// console has no process group to share). `creation_flags` are the
/// caller's (`CommandExt::creation_flags` would be overwritten here: a
/// `Command` does not tell which flags it has); `CREATE_SUSPENDED` is added.
pub(crate) fn spawn(
  command: &mut Command,
  _own_group: bool,
  group: Option<&Group>,
  creation_flags: u32,
) -> io::Result<(Child, Option<Group>)> {
  if let Some(group) = group {
    return Ok((start_in(&group.job, command, creation_flags)?, None));
  }
  let job = new_job()?;
  let child = start_in(&job, command, creation_flags)?;
  let group = Group { id: child.id(), job };
  Ok((child, Some(group)))
}

/// Start `command` suspended, put it in `job`, then let it run.
fn start_in(job: &OwnedHandle, command: &mut Command, creation_flags: u32) -> io::Result<Child> {
  std::os::windows::process::CommandExt::creation_flags(command, creation_flags | CREATE_SUSPENDED);
  let mut child = command.spawn()?;
  if let Err(error) = join_and_resume(job, &child) {
    let _ = child.kill();
    let _ = child.wait();
    return Err(error);
  }
  Ok(child)
}

/// Put the suspended `child` in `job`, then let it run.
fn join_and_resume(job: &OwnedHandle, child: &Child) -> io::Result<()> {
  let process = child.as_raw_handle() as HANDLE;
  // SAFETY: both handles are open: the job's by its owner, the child's by
  // `child`, which was created with every access right.
  unsafe {
    if AssignProcessToJobObject(job.as_raw_handle() as HANDLE, process) == 0 {
      Err(io::Error::last_os_error())
    } else if NtResumeProcess(process) < 0 {
      Err(io::Error::other("cannot resume the new process"))
    } else {
      Ok(())
    }
  }
}

fn new_job() -> io::Result<OwnedHandle> {
  // SAFETY: a plain call with no security attributes and no name; the
  // handle is owned at once; the limits are a correctly sized local.
  unsafe {
    let job = CreateJobObjectW(std::ptr::null(), std::ptr::null());
    if job.is_null() {
      return Err(io::Error::last_os_error());
    }
    let job = OwnedHandle::from_raw_handle(job);
    let mut limits: JOBOBJECT_EXTENDED_LIMIT_INFORMATION = std::mem::zeroed();
    limits.BasicLimitInformation.LimitFlags =
      JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE | JOB_OBJECT_LIMIT_BREAKAWAY_OK;
    if SetInformationJobObject(
      job.as_raw_handle() as HANDLE,
      JobObjectExtendedLimitInformation,
      (&raw const limits).cast(),
      std::mem::size_of::<JOBOBJECT_EXTENDED_LIMIT_INFORMATION>() as u32,
    ) == 0
    {
      return Err(io::Error::last_os_error());
    }
    Ok(job)
  }
}

fn active_processes(job: &OwnedHandle) -> io::Result<u32> {
  // SAFETY: the job handle is open; the buffer is a correctly sized local.
  unsafe {
    let mut information: JOBOBJECT_BASIC_ACCOUNTING_INFORMATION = std::mem::zeroed();
    if QueryInformationJobObject(
      job.as_raw_handle() as HANDLE,
      JobObjectBasicAccountingInformation,
      (&raw mut information).cast(),
      std::mem::size_of::<JOBOBJECT_BASIC_ACCOUNTING_INFORMATION>() as u32,
      std::ptr::null_mut(),
    ) == 0
    {
      return Err(io::Error::last_os_error());
    }
    Ok(information.ActiveProcesses)
  }
}

fn terminate(job: &OwnedHandle, signal: i32) -> io::Result<()> {
  let status = crate::platform::exit::signal_status(signal) as u32;
  // SAFETY: the job handle is open.
  if unsafe { TerminateJobObject(job.as_raw_handle() as HANDLE, status) } == 0 {
    return Err(io::Error::last_os_error());
  }
  Ok(())
}

/// Whether the run must keep `group` after no child of it runs: while its
/// job holds processes the recipes left (closing its handle would end them
/// now; they end with the run instead).
pub(crate) fn needs_keeping(group: &Group) -> bool {
  active_processes(&group.job).is_ok_and(|active| active > 0)
}

/// End every process of `group` for a stop or kill, at once; after a
/// console event (SIGINT, SIGHUP), which reached the children already,
/// [`GRACE`] later if any is left. False if its job is gone.
pub(crate) fn signal_group(group: &Group, signal: i32) -> io::Result<bool> {
  if signal == TERMINATE || signal == KILL {
    terminate(&group.job, signal)?;
  } else {
    // The thread's own handle keeps the job open, should the run end first.
    let job = group.job.try_clone()?;
    std::thread::Builder::new()
      .name("job-grace".into())
      .spawn(move || {
        std::thread::sleep(GRACE);
        let ended = match active_processes(&job) {
          Ok(0) => Ok(()),
          Ok(_) => terminate(&job, signal),
          Err(error) => Err(error),
        };
        if let Err(error) = ended {
          let _ = crate::platform::stdio::stderr(&format!(
            "just: failed to end the recipes' processes: {error}\n"
          ));
        }
      })
      .map(drop)?;
  }
  Ok(true)
}

/// Whether any process of `group` is still running.
pub(crate) fn group_alive(group: &Group) -> io::Result<bool> {
  Ok(active_processes(&group.job)? > 0)
}

/// Wait for child `pid` to end.
pub(crate) fn wait(pid: Pid) -> io::Result<ExitStatus> {
  // SAFETY: the process handle is opened, waited on, read and closed here;
  // the child is not reaped by anyone else meanwhile (its `Child` holds its
  // own handle, so the id is not reused).
  unsafe {
    let process = OpenProcess(PROCESS_SYNCHRONIZE | PROCESS_QUERY_LIMITED_INFORMATION, FALSE, pid);
    if process.is_null() {
      return Err(io::Error::last_os_error());
    }
    let mut code = 0u32;
    let result = if WaitForSingleObject(process, INFINITE) == WAIT_FAILED
      || GetExitCodeProcess(process, &raw mut code) == 0
    {
      Err(io::Error::last_os_error())
    } else {
      Ok(ExitStatus::from_raw(code))
    };
    CloseHandle(process);
    result
  }
}

/// Waiting never reaps on Windows: a process's id is not reused while a
/// handle to it is open, and its `Child` holds one until it is waited for.
pub(crate) fn wait_unreaped(pid: Pid) -> io::Result<ExitStatus> {
  wait(pid)
}

/// See [`wait_unreaped`].
pub(crate) fn reap(_pid: Pid) -> io::Result<()> {
  Ok(())
}

/// A console has no process group to share with the children: they always
/// get a job of their own.
pub(crate) fn has_controlling_terminal() -> bool {
  false
}

/// Never reported on Windows.
pub(crate) fn is_busy_text(_error: &io::Error) -> bool {
  false
}

/// Processes are only ever signalled through their job on Windows.
pub(crate) fn signal_process(_pid: Pid, _signal: i32) -> io::Result<bool> {
  Ok(true)
}

/// Never asked for on Windows (children always have a job).
pub(crate) fn signal_own_group(_signal: i32) -> io::Result<bool> {
  Ok(true)
}

/// Never asked for on Windows (children always have a job).
pub(crate) fn own_job_is_only_ours() -> bool {
  false
}

/// Jobs hold the whole tree on Windows: never asked for.
pub(crate) fn descendants(_roots: &[Pid]) -> Vec<Pid> {
  Vec::new()
}

/// A process caught between its fork and its exec: never on Windows,
/// which starts a process with its program.
#[derive(Debug)]
pub(crate) struct Starting(std::convert::Infallible);

impl Starting {
  pub(crate) fn pid(&self) -> Pid {
    match self.0 {}
  }

  pub(crate) fn has_executed(&self) -> Option<bool> {
    match self.0 {}
  }
}

/// None on Windows: see [`Starting`].
pub(crate) fn starting(_processes: &[Pid]) -> Vec<Starting> {
  Vec::new()
}

/// End the process at once with `status`.
pub(crate) fn exit_now(status: i32) -> ! {
  // SAFETY: ends the process; nothing of ours is left half-written that the
  // exit status would not already report.
  unsafe { ExitProcess(status as u32) }
}
