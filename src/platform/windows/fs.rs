//! File-system operations whose meaning depends on the operating system,
//! on Windows: what makes a file executable (its extension), file locks,
//! the text of OS strings, and what `--fmt` needs to replace a file without
//! changing its identity (`ReplaceFileW` keeps its attributes and security
//! descriptor).

use std::{
  ffi::OsStr,
  fs::{File, Metadata, OpenOptions, Permissions},
  io,
  os::windows::{ffi::OsStrExt, io::AsRawHandle},
  path::{Path, PathBuf},
};

use windows_sys::Win32::Foundation::HANDLE;
use windows_sys::Win32::Storage::FileSystem::{
  FileAllocationInfo, GetBinaryTypeW, GetFileInformationByHandle, LockFileEx, ReplaceFileW,
  SetFileInformationByHandle, BY_HANDLE_FILE_INFORMATION, FILE_ALLOCATION_INFO,
  LOCKFILE_EXCLUSIVE_LOCK, REPLACEFILE_WRITE_THROUGH,
};
use windows_sys::Win32::System::IO::OVERLAPPED;

/// Whether `path` is a file that may be executed: its extension is one of
/// `PATHEXT`'s, or, without an extension, it is an executable image.
pub(crate) fn is_executable(path: &Path) -> bool {
  if !path.is_file() {
    return false;
  }
  if let (Some(extensions), Some(extension)) = (std::env::var_os("PATHEXT"), path.extension()) {
    let extension = extension.to_string_lossy();
    return extensions
      .to_string_lossy()
      .split(';')
      .filter_map(|entry| entry.strip_prefix('.'))
      .any(|entry| !entry.is_empty() && entry.eq_ignore_ascii_case(&extension));
  }
  let wide = wide(path.as_os_str());
  let mut kind = 0;
  // SAFETY: a NUL-terminated wide path and a local out-parameter.
  unsafe { GetBinaryTypeW(wide.as_ptr(), &raw mut kind) != 0 }
}

/// The names under which `candidate` may be an executable: itself, and,
/// when it has no extension, itself with each extension of `PATHEXT`.
pub(crate) fn executable_names(candidate: PathBuf) -> Result<Vec<PathBuf>, String> {
  let Some(extensions) = std::env::var_os("PATHEXT").filter(|_| candidate.extension().is_none())
  else {
    return Ok(vec![candidate]);
  };
  let extensions = extensions.into_string().map_err(|text| {
    format!("`PATHEXT` environment variable is not valid unicode: {}", text.to_string_lossy())
  })?;
  let mut names = vec![candidate.clone()];
  for extension in extensions.split(';').filter(|entry| !entry.is_empty()) {
    if !extension.starts_with('.') {
      return Err(format!("`PATHEXT` entry `{extension}` does not start with `.`"));
    }
    let mut name = candidate.clone().into_os_string();
    name.push(extension);
    names.push(PathBuf::from(name));
  }
  Ok(names)
}

/// `path` with every `.`, `..` and link resolved, spelled as the current
/// directory is (`C:\dir`, `\\server\share`), not as the verbatim path
/// `canonicalize` gives (`\\?\C:\dir`).
pub(crate) fn physical_path(path: &Path) -> io::Result<PathBuf> {
  let canonical = std::fs::canonicalize(path)?;
  let Some(text) = canonical.to_str() else {
    return Ok(canonical);
  };
  Ok(match text.strip_prefix(r"\\?\") {
    Some(unc) if unc.starts_with(r"UNC\") => PathBuf::from(format!(r"\\{}", &unc[4..])),
    Some(drive) if drive.as_bytes().get(1) == Some(&b':') => PathBuf::from(drive),
    _ => canonical,
  })
}

/// Nothing to do: whether a file runs depends on its name, not its mode.
pub(crate) fn make_executable(_: &Path) -> io::Result<()> {
  Ok(())
}

/// None: a user's temporary folder is private to them already.
pub(crate) fn private_directory_permissions() -> Option<Permissions> {
  None
}

/// Blocks until this process holds the exclusive lock on `file`; the lock
/// is released when the file is closed.
pub(crate) fn lock_exclusive(file: &File) -> io::Result<()> {
  // SAFETY: an open handle, a zeroed OVERLAPPED (offset 0) for the call.
  let locked = unsafe {
    let mut overlapped: OVERLAPPED = std::mem::zeroed();
    LockFileEx(
      file.as_raw_handle() as HANDLE,
      LOCKFILE_EXCLUSIVE_LOCK,
      0,
      u32::MAX,
      u32::MAX,
      &raw mut overlapped,
    )
  };
  if locked == 0 {
    return Err(io::Error::last_os_error());
  }
  Ok(())
}

/// An OS string as the operating system holds it, as JSON:
/// `{"Windows": [UTF-16 code units]}`.
pub(crate) fn os_string_json(text: &OsStr) -> serde_json::Value {
  serde_json::json!({ "Windows": text.encode_wide().collect::<Vec<u16>>() })
}

/// Whether `path` is the file's only name (no hard links), so that
/// replacing it keeps every name pointing at the new text.
pub(crate) fn is_only_link(path: &Path, _metadata: &Metadata) -> io::Result<bool> {
  let file = File::open(path)?;
  // SAFETY: an open handle and a local out-parameter.
  unsafe {
    let mut information: BY_HANDLE_FILE_INFORMATION = std::mem::zeroed();
    if GetFileInformationByHandle(file.as_raw_handle() as HANDLE, &raw mut information) == 0 {
      return Err(io::Error::last_os_error());
    }
    Ok(information.nNumberOfLinks == 1)
  }
}

/// Creates the file `path`, which must not exist (in the user's folder, so
/// private to them by inheritance).
pub(crate) fn create_private(path: &Path) -> io::Result<File> {
  OpenOptions::new().write(true).create_new(true).open(path)
}

/// Nothing to do: [`replace`] gives the new file the original's attributes
/// (the read-only flag among them) and security descriptor. (A read-only
/// temporary file could not even be removed after a failed replacement.)
pub(crate) fn take_identity(_file: &File, _original: &Metadata) -> io::Result<bool> {
  Ok(true)
}

/// Puts `replacement` in the place of `target`, keeping the target's
/// attributes, security descriptor and creation time.
pub(crate) fn replace(replacement: &Path, target: &Path) -> io::Result<()> {
  let (target, replacement) = (wide(target.as_os_str()), wide(replacement.as_os_str()));
  // SAFETY: NUL-terminated wide paths; no backup file, no reserved pointers.
  let replaced = unsafe {
    ReplaceFileW(
      target.as_ptr(),
      replacement.as_ptr(),
      std::ptr::null(),
      REPLACEFILE_WRITE_THROUGH,
      std::ptr::null(),
      std::ptr::null(),
    )
  };
  if replaced == 0 {
    return Err(io::Error::last_os_error());
  }
  Ok(())
}

/// Reserves disk space for `length` bytes of `file`, so that a full disk
/// fails here rather than halfway through a rewrite.
pub(crate) fn allocate(file: &File, length: u64) -> io::Result<()> {
  let mut information =
    FILE_ALLOCATION_INFO { AllocationSize: i64::try_from(length).map_err(io::Error::other)? };
  // SAFETY: an open handle and a correctly sized information block.
  let set = unsafe {
    SetFileInformationByHandle(
      file.as_raw_handle() as HANDLE,
      FileAllocationInfo,
      (&raw mut information).cast(),
      std::mem::size_of::<FILE_ALLOCATION_INFO>() as u32,
    )
  };
  if set == 0 {
    return Err(io::Error::last_os_error());
  }
  Ok(())
}

fn wide(text: &OsStr) -> Vec<u16> {
  text.encode_wide().chain(Some(0)).collect()
}

/// The bytes of an OS string: its UTF-8, with unpaired surrogates replaced.
pub(crate) fn os_str_bytes(text: &OsStr) -> Vec<u8> {
  text.to_string_lossy().into_owned().into_bytes()
}

/// The longest path the system takes, as `path_length` counts it.
pub(crate) const LONGEST_PATH: usize = 32_767;

/// The longest name of a file the system takes, as `path_length` counts
/// it.
pub(crate) const LONGEST_NAME: usize = 255;

/// The length of `path` as the system counts it: UTF-16 units.
pub(crate) fn path_length(path: &OsStr) -> usize {
  path.encode_wide().count()
}
