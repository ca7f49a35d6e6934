//! `--sandbox`: an external program that cannot reach the network, the user's files or its
//! judge. Linux only, without root, without a setuid helper and without `unsafe`: the kernel's
//! own mechanisms (user, mount, network, PID, IPC, UTS and cgroup namespaces, Landlock,
//! rlimits), set up by marathon's own binary re-executed as a launcher (docs/sandbox.md).
//!
//! What the judge spawns for a sandboxed player is `marathon __sandbox-launch ... -- COMMAND`
//! instead of `sh -c COMMAND`, with a cleared environment ([`PASSED_ENV`], `HOME` and `TMPDIR`,
//! and whatever the judge adds, such as [`crate::TIME_LIMIT_ENV`] and the player's tag):
//!
//! 1. **The launcher** (in the judge's PID namespace, a child of the judge): as root it first
//!    becomes `nobody` ([`NOBODY`]: the kernel exempts uid 0 from `RLIMIT_NPROC`, so a root
//!    program's process cap would not hold); it then enters new user, mount, network, IPC, UTS,
//!    PID and cgroup namespaces, maps its own uid and gid, and starts the init below with the two
//!    capabilities it needs (in the new user namespace only), then waits for it and exits as it
//!    did.
//! 2. **The init** (PID 1 of the new PID namespace, so everything the program starts dies with
//!    it): builds the program's file system (a fresh root holding the system's directories, the
//!    working directory and the allowed paths, bound from the host, a few device files, a fresh
//!    `/proc` of its own PID namespace, and the scratch directory: a size-capped tmpfs, also
//!    `/dev/shm`), brings the loopback interface up, drops every capability, sets the rlimits
//!    ([`Caps`]), applies Landlock (read and execute where it reads, write only in the scratch
//!    directory, no signals out of the sandbox), then runs `sh -c COMMAND` and reaps every
//!    process until the shell exits, and exits as the shell did (a death by signal N as status
//!    128 + N, by the shell's convention).
//!
//! The program stays a descendant of the process the judge spawned, so the judge's cleanup,
//! clock and meters walk its tree as they would without the sandbox.

use std::ffi::{OsStr, OsString};
use std::io;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};

#[cfg(target_os = "linux")]
mod launch;

/// `argv[1]` of the launcher: the judge's child, outside the program's PID namespace.
pub const LAUNCH_ARG: &str = "__sandbox-launch";
/// `argv[1]` of the init: PID 1 of the program's PID namespace.
pub const INIT_ARG: &str = "__sandbox-init";

/// The exit status of a launcher or init that could not set the sandbox up (after saying why on
/// stderr); a program can exit with it too, so the judge does not read anything into it.
pub const SETUP_FAILED: u8 = 125;

/// The levels of a sandboxed program's tree that are marathon's own (the launcher, then the
/// init), which the judge's meters (`usage.rs`) leave out.
pub const OWN_LEVELS: usize = 2;

/// The uid and gid a root user's programs run as in the sandbox.
pub const NOBODY: u32 = 65534;

/// The variables copied from marathon's environment into a sandboxed program's (when set);
/// everything else is cleared. `HOME` and `TMPDIR` are the scratch directory, and the judge adds
/// its own (`MARATHON_TIME_LIMIT`, the player's tag, ...).
pub const PASSED_ENV: &[&str] = &["PATH", "LANG", "LC_ALL", "TERM"];

/// The `PATH` of a program when marathon has none.
const DEFAULT_PATH: &str = "/usr/local/bin:/usr/bin:/bin";

/// The system's directories a program reads and runs programs from (those that exist).
pub const SYSTEM_DIRS: &[&str] = &[
    "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/usr", "/etc", "/opt", "/nix",
];

/// The device files a program may use (read and write: null, zero and full discard or fail).
pub const DEVICES: &[&str] = &["null", "zero", "full", "random", "urandom"];

/// What a sandboxed program may use up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Caps {
    /// Processes and threads of the program, its shell included (`RLIMIT_NPROC`, counted in
    /// the program's own user namespace, so other programs of the same user do not count).
    pub processes: u64,
    /// Open files per process (`RLIMIT_NOFILE`).
    pub open_files: u64,
    /// The largest file a process may write, in bytes (`RLIMIT_FSIZE`: beyond it, SIGXFSZ).
    pub file_size: u64,
    /// The scratch directory's size in bytes (a tmpfs: beyond it, writes fail with ENOSPC).
    pub scratch_bytes: u64,
    /// Files and directories in the scratch directory (the tmpfs's inodes).
    pub scratch_files: u64,
}

impl Default for Caps {
    /// Far above what a contest program needs (a JVM starts some 20 threads; a program writes
    /// a log at most), far below what would hurt the machine.
    fn default() -> Self {
        Caps {
            processes: 128,
            open_files: 256,
            file_size: 16 << 20,
            scratch_bytes: 64 << 20,
            scratch_files: 1024,
        }
    }
}

/// How to run external programs in a sandbox: the launcher binary, what they may read, and
/// their caps.
#[derive(Clone, Debug)]
pub struct Sandbox {
    /// The `marathon` binary, whose `main` hands [`LAUNCH_ARG`] and [`INIT_ARG`] to [`entry`].
    launcher: PathBuf,
    /// Read (and execute) besides the system's directories: the working directory first, then
    /// the paths the user allowed; absolute and without symbolic links.
    read: Vec<PathBuf>,
    workdir: PathBuf,
    caps: Caps,
}

impl Sandbox {
    /// A sandbox run by `launcher` (the `marathon` binary) whose programs read the working
    /// directory and `allow_read`. Refuses a path that does not exist or is `/` (which would let
    /// the program read everything).
    pub fn new(launcher: PathBuf, allow_read: &[PathBuf]) -> Result<Self, String> {
        let workdir = std::env::current_dir()
            .map_err(|e| format!("cannot tell the working directory: {e}"))?;
        let mut read = vec![workdir.clone()];
        for path in allow_read {
            let real = path
                .canonicalize()
                .map_err(|e| format!("--allow-read {}: {e}", path.display()))?;
            read.push(real);
        }
        for path in &read {
            if path.parent().is_none() {
                return Err(format!(
                    "{} is the whole file system: the program could read everything (run \
                     marathon from the program's folder, allow only what it needs)",
                    path.display()
                ));
            }
        }
        Ok(Sandbox {
            launcher,
            read,
            workdir,
            caps: Caps::default(),
        })
    }

    /// The same sandbox with other caps.
    pub fn with_caps(mut self, caps: Caps) -> Self {
        self.caps = caps;
        self
    }

    pub fn caps(&self) -> Caps {
        self.caps
    }

    /// The working directory the programs read (and start in).
    pub fn workdir(&self) -> &Path {
        &self.workdir
    }

    /// The user's home directory, when a path the programs read holds it (the working directory
    /// is the home directory or above it): worth a warning.
    pub fn exposed_home(&self) -> Option<PathBuf> {
        let home = PathBuf::from(std::env::var_os("HOME")?)
            .canonicalize()
            .ok()?;
        self.read
            .iter()
            .any(|path| home.starts_with(path))
            .then_some(home)
    }

    /// Whether this kernel has what the sandbox needs, and if not, which mechanism is missing.
    /// A quick look; [`Sandbox::probe`] runs a program and is the real test.
    pub fn check_kernel() -> Result<(), String> {
        #[cfg(target_os = "linux")]
        {
            launch::check_kernel()
        }
        #[cfg(not(target_os = "linux"))]
        {
            Err("the sandbox needs Linux (namespaces and Landlock)".into())
        }
    }

    /// Runs `exit 0` in the sandbox: `Err` says why the sandbox cannot be set up here (the
    /// launcher's own words).
    pub fn probe(&self) -> Result<(), String> {
        Self::check_kernel()?;
        let mut prepared = self
            .prepare("exit 0")
            .map_err(|e| format!("cannot prepare the sandbox: {e}"))?;
        let output = prepared
            .command
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .output()
            .map_err(|e| format!("cannot start the launcher: {e}"))?;
        if output.status.success() {
            return Ok(());
        }
        let said = String::from_utf8_lossy(&output.stderr);
        let mut said = match said.trim() {
            "" => format!("the launcher failed ({})", output.status),
            said => said.to_owned(),
        };
        if let Some(hint) = restriction() {
            said = format!("{said} ({hint})");
        }
        #[cfg(unix)]
        if said.contains("Permission denied") && nix::unistd::Uid::effective().is_root() {
            said = format!(
                "{said} (as root, programs run as nobody ({NOBODY}): what they read must be \
                 readable by other users)"
            );
        }
        Err(said)
    }

    /// The command that runs `sh -c shell_command` in this sandbox, and its scratch directory
    /// (removed when the guard is dropped: drop it once the program's tree is dead).
    pub fn prepare(&self, shell_command: &str) -> io::Result<Prepared> {
        let scratch = Scratch::create()?;
        let config = Config {
            scratch: scratch.path.clone(),
            workdir: self.workdir.clone(),
            read: self.read.clone(),
            caps: self.caps,
            command: shell_command.into(),
        };
        let mut command = Command::new(&self.launcher);
        command
            .arg(LAUNCH_ARG)
            .args(config.to_args())
            .current_dir(&self.workdir)
            .env_clear();
        for name in PASSED_ENV {
            if let Some(value) = std::env::var_os(name) {
                command.env(name, value);
            }
        }
        if std::env::var_os("PATH").is_none() {
            command.env("PATH", DEFAULT_PATH);
        }
        command
            .env("HOME", &scratch.path)
            .env("TMPDIR", &scratch.path);
        Ok(Prepared { command, scratch })
    }
}

/// A policy of the system's that keeps the sandbox from working although the kernel has every
/// mechanism (AppArmor's restriction of unprivileged user namespaces, Ubuntu's default since
/// 24.04), when there is one.
pub fn restriction() -> Option<String> {
    #[cfg(target_os = "linux")]
    {
        launch::hints()
    }
    #[cfg(not(target_os = "linux"))]
    {
        None
    }
}

/// A sandboxed program, ready to spawn: the launcher's command (add the judge's variables and
/// pipes), and the scratch directory's guard.
pub struct Prepared {
    pub command: Command,
    pub scratch: Scratch,
}

/// The command that runs `sh -c shell_command`, in `sandbox` when there is one (then with the
/// guard of its scratch directory).
pub fn shell(
    shell_command: &str,
    sandbox: Option<&Sandbox>,
) -> io::Result<(Command, Option<Scratch>)> {
    match sandbox {
        Some(sandbox) => {
            let prepared = sandbox.prepare(shell_command)?;
            Ok((prepared.command, Some(prepared.scratch)))
        }
        None => {
            let mut command = Command::new("sh");
            command.arg("-c").arg(shell_command);
            Ok((command, None))
        }
    }
}

/// A program's scratch directory on the host: an empty directory, fresh for each case, on which
/// the sandbox mounts the program's file system (in its own mount namespace, so nothing the
/// program writes ever reaches the host's disk). Dropping the guard removes it.
#[derive(Debug)]
pub struct Scratch {
    path: PathBuf,
}

impl Scratch {
    fn create() -> io::Result<Self> {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let base = std::env::temp_dir();
        let base = base.canonicalize().unwrap_or(base);
        let mut attempts = 0;
        loop {
            let n = NEXT.fetch_add(1, Ordering::Relaxed);
            let path = base.join(format!("marathon-sandbox-{}-{n}", std::process::id()));
            let mut builder = std::fs::DirBuilder::new();
            #[cfg(unix)]
            std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
            match builder.create(&path) {
                Ok(()) => return Ok(Scratch { path }),
                // Left by an earlier marathon with our pid that was killed: take another name.
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists && attempts < 100 => {
                    attempts += 1;
                }
                Err(e) => {
                    return Err(io::Error::new(
                        e.kind(),
                        format!("cannot create a scratch directory {}: {e}", path.display()),
                    ));
                }
            }
        }
    }

    /// The directory, the same inside the sandbox (where it is the program's `HOME` and
    /// `TMPDIR`) and outside.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        // Empty on the host (the program's files live in its mount namespace, gone with it);
        // remove_dir_all all the same, in case the launcher failed halfway.
        let _ = std::fs::remove_dir_all(&self.path);
    }
}

/// What the launcher and the init are told, on their command line.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Config {
    scratch: PathBuf,
    workdir: PathBuf,
    read: Vec<PathBuf>,
    caps: Caps,
    command: OsString,
}

impl Config {
    fn to_args(&self) -> Vec<OsString> {
        let mut args: Vec<OsString> = vec!["--scratch".into(), self.scratch.clone().into()];
        args.extend(["--workdir".into(), self.workdir.clone().into()]);
        for path in &self.read {
            args.extend(["--read".into(), path.clone().into()]);
        }
        let caps = self.caps;
        for (flag, value) in [
            ("--processes", caps.processes),
            ("--open-files", caps.open_files),
            ("--file-size", caps.file_size),
            ("--scratch-bytes", caps.scratch_bytes),
            ("--scratch-files", caps.scratch_files),
        ] {
            args.extend([flag.into(), value.to_string().into()]);
        }
        args.extend(["--".into(), self.command.clone()]);
        args
    }

    fn parse(args: &[OsString]) -> Result<Self, String> {
        let mut scratch = None;
        let mut workdir = None;
        let mut read = Vec::new();
        let mut caps = Caps::default();
        let mut command = None;
        let mut rest = args.iter();
        while let Some(flag) = rest.next() {
            if flag == "--" {
                command = rest.next().cloned();
                if rest.next().is_some() {
                    return Err("more than one command after --".into());
                }
                break;
            }
            let value = rest
                .next()
                .ok_or_else(|| format!("{} needs a value", flag.to_string_lossy()))?;
            let number = |value: &OsStr| {
                value
                    .to_str()
                    .and_then(|v| v.parse::<u64>().ok())
                    .ok_or_else(|| format!("{}: not a number", flag.to_string_lossy()))
            };
            match flag.to_str() {
                Some("--scratch") => scratch = Some(PathBuf::from(value)),
                Some("--workdir") => workdir = Some(PathBuf::from(value)),
                Some("--read") => read.push(PathBuf::from(value)),
                Some("--processes") => caps.processes = number(value)?,
                Some("--open-files") => caps.open_files = number(value)?,
                Some("--file-size") => caps.file_size = number(value)?,
                Some("--scratch-bytes") => caps.scratch_bytes = number(value)?,
                Some("--scratch-files") => caps.scratch_files = number(value)?,
                _ => return Err(format!("unknown flag {}", flag.to_string_lossy())),
            }
        }
        let absolute = |what: &str, path: Option<PathBuf>| match path {
            Some(path) if path.is_absolute() => Ok(path),
            Some(path) => Err(format!("{what} {} is not absolute", path.display())),
            None => Err(format!("no {what}")),
        };
        let config = Config {
            scratch: absolute("--scratch", scratch)?,
            workdir: absolute("--workdir", workdir)?,
            read,
            caps,
            command: command.ok_or("no command after --")?,
        };
        if let Some(path) = config.read.iter().find(|p| !p.is_absolute()) {
            return Err(format!("--read {} is not absolute", path.display()));
        }
        Ok(config)
    }
}

/// The launcher's and the init's entry: `Some(exit code)` when this process was started as one
/// of them (`argv[1]` is [`LAUNCH_ARG`] or [`INIT_ARG`]), `None` otherwise. Call it first thing
/// in `main`, before any thread is started: a process with threads cannot enter a user
/// namespace.
pub fn entry() -> Option<ExitCode> {
    let mut args = std::env::args_os().skip(1);
    let role = args.next()?;
    let launcher = role == LAUNCH_ARG;
    if !launcher && role != INIT_ARG {
        return None;
    }
    let rest: Vec<OsString> = args.collect();
    let config = match Config::parse(&rest) {
        Ok(config) => config,
        Err(e) => {
            eprintln!("marathon sandbox: {e}");
            return Some(ExitCode::from(SETUP_FAILED));
        }
    };
    #[cfg(target_os = "linux")]
    let code = if launcher {
        launch::launcher(&rest)
    } else {
        launch::init(&config)
    };
    #[cfg(not(target_os = "linux"))]
    let code = {
        let _ = (launcher, config);
        eprintln!("marathon sandbox: the sandbox needs Linux");
        SETUP_FAILED
    };
    Some(ExitCode::from(code))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_config_survives_its_command_line() {
        let config = Config {
            scratch: "/tmp/marathon-sandbox-1-2".into(),
            workdir: "/home/a b/bot".into(),
            read: vec!["/home/a b/bot".into(), "/opt/x -- y".into()],
            caps: Caps {
                processes: 7,
                open_files: 8,
                file_size: 9,
                scratch_bytes: 10,
                scratch_files: 11,
            },
            command: "python3 bot.py -- --read /etc".into(),
        };
        assert_eq!(Config::parse(&config.to_args()), Ok(config));
    }

    #[test]
    fn a_bad_config_is_refused() {
        let parse =
            |args: &[&str]| Config::parse(&args.iter().map(OsString::from).collect::<Vec<_>>());
        let ok = ["--scratch", "/s", "--workdir", "/w", "--", "true"];
        assert!(parse(&ok).is_ok());
        assert!(parse(&["--scratch", "s", "--workdir", "/w", "--", "true"]).is_err());
        assert!(parse(&["--scratch", "/s", "--workdir", "/w"]).is_err());
        assert!(
            parse(&[
                "--scratch",
                "/s",
                "--workdir",
                "/w",
                "--processes",
                "x",
                "--",
                "t"
            ])
            .is_err()
        );
        assert!(
            parse(&[
                "--scratch",
                "/s",
                "--workdir",
                "/w",
                "--bogus",
                "1",
                "--",
                "t"
            ])
            .is_err()
        );
        assert!(parse(&["--scratch", "/s", "--workdir", "/w", "--", "a", "b"]).is_err());
    }

    #[test]
    fn the_whole_file_system_is_not_readable() {
        let error = Sandbox::new("/bin/true".into(), &["/".into()]).unwrap_err();
        assert!(error.contains("whole file system"), "{error}");
        let error = Sandbox::new("/bin/true".into(), &["/no/such/path/x".into()]).unwrap_err();
        assert!(error.contains("/no/such/path/x"), "{error}");
    }

    #[test]
    fn a_scratch_directory_is_fresh_and_removed() {
        let first = Scratch::create().unwrap();
        let second = Scratch::create().unwrap();
        assert_ne!(first.path(), second.path());
        let path = first.path().to_path_buf();
        assert!(path.is_dir());
        std::fs::write(path.join("left"), "x").unwrap();
        drop(first);
        assert!(!path.exists());
    }
}
