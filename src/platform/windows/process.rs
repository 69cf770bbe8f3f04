//! Job Objects and waiting, for the supervisor: the Windows counterpart of
//! process groups. The run's first child gets a Job Object of its own, the
//! "group" named by that child's process id, and every later child joins
//! it; each child starts suspended and runs only once it is in the job, so
//! nothing it starts escapes. Ending the job ends every process in it. A
//! console has no foreground group and no job control.

use std::io;
use std::os::windows::io::AsRawHandle;
use std::os::windows::process::{CommandExt, ExitStatusExt};
use std::process::{Child, Command, ExitStatus};
use std::sync::{Mutex, MutexGuard, PoisonError};

use windows_sys::Win32::Foundation::{CloseHandle, FALSE, HANDLE, WAIT_FAILED};
use windows_sys::Win32::System::Diagnostics::ToolHelp::{
  CreateToolhelp32Snapshot, Thread32First, Thread32Next, TH32CS_SNAPTHREAD, THREADENTRY32,
};
use windows_sys::Win32::System::JobObjects::{
  AssignProcessToJobObject, CreateJobObjectW, JobObjectBasicAccountingInformation,
  QueryInformationJobObject, TerminateJobObject, JOBOBJECT_BASIC_ACCOUNTING_INFORMATION,
};
use windows_sys::Win32::System::Threading::{
  ExitProcess, GetExitCodeProcess, OpenProcess, OpenThread, ResumeThread, WaitForSingleObject,
  CREATE_SUSPENDED, INFINITE, PROCESS_QUERY_LIMITED_INFORMATION, PROCESS_SYNCHRONIZE,
  THREAD_SUSPEND_RESUME,
};

pub(crate) use super::signal_table::{KILL, TERMINATE};

pub(crate) type Pid = u32;

/// The Job Object of each group, by the group's id (handles kept as
/// integers: a raw handle is not `Send`).
static JOBS: Mutex<Vec<(Pid, isize)>> = Mutex::new(Vec::new());

fn jobs() -> MutexGuard<'static, Vec<(Pid, isize)>> {
  JOBS.lock().unwrap_or_else(PoisonError::into_inner)
}

fn job_of(group: Pid) -> Option<HANDLE> {
  jobs().iter().find(|(id, _)| *id == group).map(|&(_, job)| job as HANDLE)
}

fn gone() -> io::Error {
  io::Error::new(io::ErrorKind::NotFound, "the recipes' job has ended")
}

/// Start `command` in the job of `group`, or in a new job when None.
/// Children always get a job (`own_group` is always true: a console has no
/// process group to share).
pub(crate) fn spawn(
  command: &mut Command,
  _own_group: bool,
  group: Option<Pid>,
) -> io::Result<Child> {
  let job = match group {
    Some(group) => job_of(group).ok_or_else(gone)?,
    None => new_job()?,
  };
  command.creation_flags(CREATE_SUSPENDED);
  let mut child = match command.spawn() {
    Ok(child) => child,
    Err(error) => {
      if group.is_none() {
        // SAFETY: the job was just created and is not listed anywhere.
        unsafe { CloseHandle(job) };
      }
      return Err(error);
    }
  };
  // SAFETY: both handles are open: the job's by the table or above, the
  // child's by `child`.
  let assigned = if unsafe { AssignProcessToJobObject(job, child.as_raw_handle() as HANDLE) } == 0 {
    Err(io::Error::last_os_error())
  } else {
    resume(child.id())
  };
  if let Err(error) = assigned {
    let _ = child.kill();
    let _ = child.wait();
    if group.is_none() {
      // SAFETY: as above.
      unsafe { CloseHandle(job) };
    }
    return Err(error);
  }
  if group.is_none() {
    jobs().push((child.id(), job as isize));
  }
  Ok(child)
}

fn new_job() -> io::Result<HANDLE> {
  // SAFETY: a plain call with no security attributes and no name.
  let job = unsafe { CreateJobObjectW(std::ptr::null(), std::ptr::null()) };
  if job.is_null() {
    return Err(io::Error::last_os_error());
  }
  Ok(job)
}

/// Resume the threads of a process started suspended.
fn resume(pid: u32) -> io::Result<()> {
  // SAFETY: a thread snapshot walked with a correctly sized entry; every
  // handle opened is closed.
  unsafe {
    let snapshot = CreateToolhelp32Snapshot(TH32CS_SNAPTHREAD, 0);
    if snapshot as isize == -1 {
      return Err(io::Error::last_os_error());
    }
    let mut entry: THREADENTRY32 = std::mem::zeroed();
    entry.dwSize = std::mem::size_of::<THREADENTRY32>() as u32;
    let mut more = Thread32First(snapshot, &raw mut entry) != 0;
    let mut result = Err(io::Error::other("no thread to resume"));
    while more {
      if entry.th32OwnerProcessID == pid {
        let thread = OpenThread(THREAD_SUSPEND_RESUME, FALSE, entry.th32ThreadID);
        if thread.is_null() {
          result = Err(io::Error::last_os_error());
        } else {
          result =
            if ResumeThread(thread) == u32::MAX { Err(io::Error::last_os_error()) } else { Ok(()) };
          CloseHandle(thread);
        }
      }
      more = Thread32Next(snapshot, &raw mut entry) != 0;
    }
    CloseHandle(snapshot);
    result
  }
}

/// The run is done with `group`: close its job (what is left in it runs
/// on, as on Unix) and forget it.
pub(crate) fn retire_group(group: Pid) {
  jobs().retain(|&(id, handle)| {
    if id != group {
      return true;
    }
    // SAFETY: the handle is closed once, as it leaves the table.
    unsafe { CloseHandle(handle as HANDLE) };
    false
  });
}

/// End every process of `group` for a stop or kill; false if its job is
/// gone. Console events (SIGINT, SIGHUP) reached the children already.
pub(crate) fn signal_group(group: Pid, signal: i32) -> io::Result<bool> {
  let Some(job) = job_of(group) else {
    return Ok(false);
  };
  if signal == TERMINATE || signal == KILL {
    let status = crate::platform::exit::signal_status(signal) as u32;
    // SAFETY: the job handle stays open while it is listed.
    if unsafe { TerminateJobObject(job, status) } == 0 {
      return Err(io::Error::last_os_error());
    }
  }
  Ok(true)
}

/// Whether any process of `group` is still running. A job with none left
/// is closed and forgotten.
pub(crate) fn group_alive(group: Pid) -> io::Result<bool> {
  let Some(job) = job_of(group) else {
    return Ok(false);
  };
  // SAFETY: the job handle is open; the buffer is a correctly sized local.
  let active = unsafe {
    let mut information: JOBOBJECT_BASIC_ACCOUNTING_INFORMATION = std::mem::zeroed();
    if QueryInformationJobObject(
      job,
      JobObjectBasicAccountingInformation,
      (&raw mut information).cast(),
      std::mem::size_of::<JOBOBJECT_BASIC_ACCOUNTING_INFORMATION>() as u32,
      std::ptr::null_mut(),
    ) == 0
    {
      return Err(io::Error::last_os_error());
    }
    information.ActiveProcesses
  };
  if active == 0 {
    jobs().retain(|&(id, handle)| {
      if id != group {
        return true;
      }
      // SAFETY: the handle is closed once, as it leaves the table.
      unsafe { CloseHandle(handle as HANDLE) };
      false
    });
  }
  Ok(active > 0)
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

/// Waiting never reaps on Windows (the `Child` holds the handle).
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
pub(crate) fn own_job_is_only_ours() -> bool {
  false
}

/// Never asked for on Windows.
pub(crate) fn own_group_id() -> Pid {
  0
}

/// Jobs hold the whole tree on Windows: never asked for.
pub(crate) fn descendants(_roots: &[Pid]) -> Vec<Pid> {
  Vec::new()
}

/// End the process at once with `status`.
pub(crate) fn exit_now(status: i32) -> ! {
  // SAFETY: ends the process; nothing of ours is left half-written that the
  // exit status would not already report.
  unsafe { ExitProcess(status as u32) }
}
