//! The sandbox's launcher and init (Linux): see the parent module for what each does, and
//! docs/sandbox.md for why.

use std::ffi::OsString;
use std::fmt::Display;
use std::fs::{self, File};
use std::io;
use std::os::fd::AsRawFd;
use std::os::unix::fs::{DirBuilderExt, PermissionsExt, symlink};
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus};

use landlock::{
    ABI, Access, AccessFs, CompatLevel, Compatible, Ruleset, RulesetAttr, RulesetCreatedAttr,
    RulesetStatus, Scope, path_beneath_rules,
};
use nix::errno::Errno;
use nix::mount::{MntFlags, MsFlags, mount, umount2};
use nix::sched::{CloneFlags, unshare};
use nix::sys::prctl;
use nix::sys::resource::{Resource, getrlimit, setrlimit};
use nix::sys::signal::Signal;
use nix::sys::socket::{
    AddressFamily, MsgFlags, NetlinkAddr, SockFlag, SockProtocol, SockType, bind, recv, send,
    socket,
};
use nix::sys::wait::{WaitStatus, waitpid};
use nix::unistd::{Gid, Pid, Uid, chdir, pivot_root, setgroups, sethostname, setresgid, setresuid};
use rustix::thread::{
    CapabilitySet, CapabilitySets, capabilities, clear_ambient_capability_set,
    configure_capability_in_ambient_set, set_capabilities,
};

use super::{Caps, Config, DEVICES, INIT_ARG, NOBODY, SETUP_FAILED, SYSTEM_DIRS};

/// A setup step that failed, said as `cannot <step>: <why>`.
struct Failed(String);

fn failed<E: Display>(what: impl Display) -> impl FnOnce(E) -> Failed {
    move |error| Failed(format!("cannot {what}: {error}"))
}

/// What the init needs in the program's user namespace (and has nowhere else): mounts,
/// `pivot_root` and the host name (`CAP_SYS_ADMIN`), the loopback interface (`CAP_NET_ADMIN`).
/// It drops both before the program starts.
const INIT_CAPS: [CapabilitySet; 2] = [CapabilitySet::SYS_ADMIN, CapabilitySet::NET_ADMIN];

/// The Landlock ABI whose rights the sandbox asks for where the kernel has them.
const WANTED_ABI: ABI = ABI::V9;
/// The Landlock ABI the sandbox cannot do without: below it (Linux 6.2), `truncate(2)` is not
/// controlled, and a program could empty the files it may only read.
const REQUIRED_ABI: ABI = ABI::V3;

/// Where the judge's kernel lacks a mechanism, which one (before any program runs).
pub(super) fn check_kernel() -> Result<(), String> {
    Ruleset::default()
        .set_compatibility(CompatLevel::HardRequirement)
        .handle_access(AccessFs::from_all(REQUIRED_ABI))
        .and_then(|ruleset| ruleset.create())
        .map_err(|_| {
            "Landlock is not available at ABI 3 or later (it needs Linux 6.2 or later, with \
             landlock in the kernel's lsm= boot list; below ABI 3 a program could truncate the \
             files it may only read)"
                .to_owned()
        })?;
    let sysctl = |name: &str| {
        fs::read_to_string(format!("/proc/sys/{name}"))
            .ok()
            .and_then(|text| text.trim().parse::<i64>().ok())
    };
    if sysctl("user/max_user_namespaces") == Some(0) {
        return Err("user namespaces are disabled (sysctl user.max_user_namespaces = 0)".into());
    }
    if !Uid::effective().is_root() && sysctl("kernel/unprivileged_userns_clone") == Some(0) {
        return Err("unprivileged user namespaces are disabled \
                    (sysctl kernel.unprivileged_userns_clone = 0)"
            .into());
    }
    Ok(())
}

/// Why a probe may have failed, where the system says so: appended to the launcher's message.
pub(super) fn hints() -> Option<String> {
    let restricted = fs::read_to_string("/proc/sys/kernel/apparmor_restrict_unprivileged_userns")
        .is_ok_and(|text| text.trim() == "1");
    (restricted && !Uid::effective().is_root()).then(|| {
        "AppArmor restricts unprivileged user namespaces here \
         (sysctl kernel.apparmor_restrict_unprivileged_userns = 1)"
            .to_owned()
    })
}

/// The launcher: returns its exit status.
pub(super) fn launcher(args: &[OsString]) -> u8 {
    match launch(args) {
        Ok(code) => code,
        Err(Failed(why)) => {
            eprintln!("marathon sandbox: {why}");
            SETUP_FAILED
        }
    }
}

fn launch(args: &[OsString]) -> Result<u8, Failed> {
    if Uid::effective().is_root() {
        become_nobody()?;
    }
    let (uid, gid) = (Uid::effective(), Gid::effective());
    unshare(
        CloneFlags::CLONE_NEWUSER
            | CloneFlags::CLONE_NEWNS
            | CloneFlags::CLONE_NEWNET
            | CloneFlags::CLONE_NEWIPC
            | CloneFlags::CLONE_NEWUTS
            | CloneFlags::CLONE_NEWPID
            | CloneFlags::CLONE_NEWCGROUP,
    )
    .map_err(failed(
        "enter new user, mount, network, IPC, UTS, PID and cgroup namespaces",
    ))?;
    // Our own ids, unchanged: the program's files are the user's.
    fs::write("/proc/self/setgroups", "deny").map_err(failed("write /proc/self/setgroups"))?;
    fs::write("/proc/self/uid_map", format!("{uid} {uid} 1"))
        .map_err(failed("write /proc/self/uid_map"))?;
    fs::write("/proc/self/gid_map", format!("{gid} {gid} 1"))
        .map_err(failed("write /proc/self/gid_map"))?;
    pass_caps_to_init()?;
    // The first child since the unshare: PID 1 of the new PID namespace.
    let status = Command::new("/proc/self/exe")
        .arg(INIT_ARG)
        .args(args)
        .status()
        .map_err(failed("start the sandbox's init"))?;
    Ok(exit_code(status))
}

/// As root: the kernel does not apply `RLIMIT_NPROC` to a real uid 0, even inside a user
/// namespace, so root's programs run as `nobody`.
fn become_nobody() -> Result<(), Failed> {
    let (uid, gid) = (Uid::from_raw(NOBODY), Gid::from_raw(NOBODY));
    setgroups(&[]).map_err(failed("drop the supplementary groups"))?;
    setresgid(gid, gid, gid).map_err(failed("become group nobody"))?;
    setresuid(uid, uid, uid).map_err(failed("become user nobody"))?;
    // Changing uid made us non-dumpable, which gives our /proc files to root: the uid map
    // could not be written.
    prctl::set_dumpable(true).map_err(failed("become dumpable again"))
}

/// The launcher has every capability in its new user namespace; the init gets the two it needs
/// through the ambient set (a non-root exec keeps only those).
fn pass_caps_to_init() -> Result<(), Failed> {
    let mut sets = capabilities(None).map_err(failed("read the capabilities"))?;
    for cap in INIT_CAPS {
        sets.inheritable |= cap;
    }
    set_capabilities(None, sets).map_err(failed("set the inheritable capabilities"))?;
    for cap in INIT_CAPS {
        configure_capability_in_ambient_set(cap, true)
            .map_err(failed("raise an ambient capability"))?;
    }
    Ok(())
}

/// A child's status as ours: its exit status, or 128 + N for a death by signal N (the shell's
/// convention: an init cannot die by a signal of its own).
fn exit_code(status: ExitStatus) -> u8 {
    if let Some(code) = status.code() {
        return u8::try_from(code).unwrap_or(SETUP_FAILED);
    }
    status
        .signal()
        .and_then(|signal| u8::try_from(signal.checked_add(128)?).ok())
        .unwrap_or(SETUP_FAILED)
}

/// The init: returns its exit status (the shell's).
pub(super) fn init(config: &Config) -> u8 {
    match run_init(config) {
        Ok(code) => code,
        Err(Failed(why)) => {
            eprintln!("marathon sandbox: {why}");
            SETUP_FAILED
        }
    }
}

fn run_init(config: &Config) -> Result<u8, Failed> {
    // The judge kills the launcher with the rest of the tree; we follow it at once (and our
    // death ends every process of the PID namespace).
    prctl::set_pdeathsig(Signal::SIGKILL).map_err(failed("follow the launcher's death"))?;
    let fresh_proc = build_file_system(config)?;
    loopback_up().map_err(failed("bring the loopback interface up"))?;
    sethostname("sandbox").map_err(failed("set the host name"))?;
    drop_caps()?;
    set_rlimits(config.caps)?;
    restrict_files(config, fresh_proc)?;
    let shell = Command::new("sh")
        .arg("-c")
        .arg(&config.command)
        .spawn()
        .map_err(failed("start sh"))?;
    let shell = Pid::from_raw(
        i32::try_from(shell.id()).map_err(|_| Failed("the shell's pid is out of range".into()))?,
    );
    // PID 1 reaps every orphan of the namespace; the shell's end is the program's.
    loop {
        match waitpid(None::<Pid>, None) {
            Ok(WaitStatus::Exited(pid, code)) if pid == shell => {
                return Ok(u8::try_from(code).unwrap_or(SETUP_FAILED));
            }
            Ok(WaitStatus::Signaled(pid, signal, _)) if pid == shell => {
                return Ok(u8::try_from(128 + signal as i32).unwrap_or(SETUP_FAILED));
            }
            Ok(_) | Err(Errno::EINTR) => {}
            Err(e) => return Err(failed("wait for the program")(e)),
        }
    }
}

/// Makes the program's file system and moves into it: a new root (a small tmpfs on the scratch
/// directory, read-only once built) holding bind mounts of the system's directories, the
/// working directory and the allowed paths at their own paths, the device files, a `/proc`, and
/// the scratch directory (another tmpfs, capped) at its own path and at `/dev/shm`. Then the
/// working directory is the judge's. Whether `/proc` is a fresh one of the program's PID
/// namespace (the kernel may refuse one; then there is no `/proc` at all).
fn build_file_system(config: &Config) -> Result<bool, Failed> {
    let none = None::<&str>;
    // Nothing we mount reaches the host's namespace.
    mount(none, "/", none, MsFlags::MS_REC | MsFlags::MS_SLAVE, none)
        .map_err(failed("make the mounts private"))?;
    let root = &config.scratch;
    let inside = |path: &Path| root.join(path.strip_prefix("/").unwrap_or(path));
    mount(
        Some("tmpfs"),
        root,
        Some("tmpfs"),
        MsFlags::MS_NOSUID | MsFlags::MS_NODEV,
        Some("size=1m,nr_inodes=4096,mode=0755"),
    )
    .map_err(failed(format!("mount a new root on {}", root.display())))?;

    // The readable paths, each bound once: a path below one already bound comes with it.
    let mut sources: Vec<PathBuf> = SYSTEM_DIRS
        .iter()
        .map(PathBuf::from)
        .chain(config.read.iter().cloned())
        .collect();
    sources.sort_by_key(|path| (path.components().count(), path.clone()));
    let mut bound: Vec<PathBuf> = Vec::new();
    for source in sources {
        if bound.iter().any(|done| source.starts_with(done)) {
            continue;
        }
        let system = SYSTEM_DIRS.iter().any(|dir| source == Path::new(dir));
        let meta = match fs::symlink_metadata(&source) {
            Ok(meta) => meta,
            Err(e) if system && e.kind() == io::ErrorKind::NotFound => continue,
            Err(e) => return Err(failed(format!("read {}", source.display()))(e)),
        };
        let target = inside(&source);
        make_parents(&target)?;
        if meta.file_type().is_symlink() {
            // `/bin -> usr/bin` on a merged /usr: the same link, to what is bound anyway.
            let to =
                fs::read_link(&source).map_err(failed(format!("read {}", source.display())))?;
            symlink(&to, &target).map_err(failed(format!("link {}", target.display())))?;
            continue;
        }
        make_mount_point(&target, meta.is_dir())?;
        mount(
            Some(&source),
            &target,
            none,
            MsFlags::MS_BIND | MsFlags::MS_REC,
            none,
        )
        .map_err(failed(format!("make {} readable", source.display())))?;
        bound.push(source);
    }
    let covered = |path: &Path| bound.iter().any(|done| path.starts_with(done));

    let dev = Path::new("/dev");
    if !covered(dev) {
        let inside_dev = inside(dev);
        make_dir(&inside_dev)?;
        for name in DEVICES {
            let source = dev.join(name);
            if !source.exists() {
                continue;
            }
            let target = inside_dev.join(name);
            make_mount_point(&target, false)?;
            mount(Some(&source), &target, none, MsFlags::MS_BIND, none)
                .map_err(failed(format!("make {} usable", source.display())))?;
        }
        for (name, to) in [
            ("fd", "/proc/self/fd"),
            ("stdin", "/proc/self/fd/0"),
            ("stdout", "/proc/self/fd/1"),
            ("stderr", "/proc/self/fd/2"),
        ] {
            symlink(to, inside_dev.join(name)).map_err(failed(format!("link /dev/{name}")))?;
        }
    }

    // The scratch tmpfs, mounted aside, then bound where the program sees it.
    let aside = root.join(".scratch");
    make_dir(&aside)?;
    let caps = config.caps;
    mount(
        Some("tmpfs"),
        &aside,
        Some("tmpfs"),
        MsFlags::MS_NOSUID | MsFlags::MS_NODEV,
        Some(
            format!(
                "size={},nr_inodes={},mode=0700",
                caps.scratch_bytes, caps.scratch_files
            )
            .as_str(),
        ),
    )
    .map_err(failed("mount the scratch directory"))?;
    let (home, shm) = (aside.join("home"), aside.join("shm"));
    make_dir(&home)?;
    make_dir(&shm)?;
    fs::set_permissions(&home, fs::Permissions::from_mode(0o700))
        .map_err(failed("make the scratch directory private"))?;
    // Where the working directory holds the scratch directory, its (empty) host directory is
    // already there, in the bound copy.
    let scratch = inside(&config.scratch);
    fs::create_dir_all(&scratch).map_err(failed(format!("create {}", scratch.display())))?;
    mount(Some(&home), &scratch, none, MsFlags::MS_BIND, none)
        .map_err(failed("bind the scratch directory"))?;
    if !covered(dev) {
        let target = inside(&dev.join("shm"));
        make_dir(&target)?;
        mount(Some(&shm), &target, none, MsFlags::MS_BIND, none)
            .map_err(failed("bind /dev/shm"))?;
    }
    umount2(&aside, MntFlags::MNT_DETACH).map_err(failed("unmount the scratch's first place"))?;
    fs::remove_dir(&aside).map_err(failed("remove the scratch's first place"))?;

    // A /proc of the program's PID namespace, mounted while the host's is still in ours: the
    // kernel allows a new one only where a complete one is already visible.
    let proc_dir = Path::new("/proc");
    let fresh_proc = !covered(proc_dir) && {
        let target = inside(proc_dir);
        make_dir(&target)?;
        mount(
            Some("proc"),
            &target,
            Some("proc"),
            MsFlags::MS_NOSUID | MsFlags::MS_NODEV | MsFlags::MS_NOEXEC,
            none,
        )
        .is_ok()
    };

    // Into the new root; the old one is detached, unreachable from here.
    chdir(root).map_err(failed("enter the new root"))?;
    pivot_root(".", ".").map_err(failed("pivot into the new root"))?;
    umount2(".", MntFlags::MNT_DETACH).map_err(failed("detach the old root"))?;
    mount(
        none,
        "/",
        none,
        MsFlags::MS_REMOUNT
            | MsFlags::MS_BIND
            | MsFlags::MS_RDONLY
            | MsFlags::MS_NOSUID
            | MsFlags::MS_NODEV,
        none,
    )
    .map_err(failed("make the new root read-only"))?;
    chdir(&config.workdir).map_err(failed(format!(
        "enter the working directory {}",
        config.workdir.display()
    )))?;
    Ok(fresh_proc)
}

fn make_dir(path: &Path) -> Result<(), Failed> {
    fs::DirBuilder::new()
        .mode(0o755)
        .create(path)
        .map_err(failed(format!("create {}", path.display())))
}

fn make_parents(path: &Path) -> Result<(), Failed> {
    match path.parent() {
        Some(parent) => {
            fs::create_dir_all(parent).map_err(failed(format!("create {}", parent.display())))
        }
        None => Ok(()),
    }
}

/// An empty directory or file to mount `source` on.
fn make_mount_point(path: &Path, dir: bool) -> Result<(), Failed> {
    if dir {
        return fs::create_dir_all(path).map_err(failed(format!("create {}", path.display())));
    }
    make_parents(path)?;
    File::create(path)
        .map(drop)
        .map_err(failed(format!("create {}", path.display())))
}

/// Sets the loopback interface up (it starts down in a new network namespace), through a
/// netlink request: `RTM_NEWLINK` for interface 1, which is `lo` in a new namespace.
fn loopback_up() -> io::Result<()> {
    const RTM_NEWLINK: u16 = 16;
    const NLM_F_REQUEST: u16 = 1;
    const NLM_F_ACK: u16 = 4;
    const NLMSG_ERROR: u16 = 2;
    const IFF_UP: u32 = 1;
    const LOOPBACK_INDEX: i32 = 1;
    let socket = socket(
        AddressFamily::Netlink,
        SockType::Raw,
        SockFlag::SOCK_CLOEXEC,
        SockProtocol::NetlinkRoute,
    )?;
    bind(socket.as_raw_fd(), &NetlinkAddr::new(0, 0))?;
    let mut request = Vec::with_capacity(32);
    // struct nlmsghdr
    request.extend_from_slice(&32u32.to_ne_bytes());
    request.extend_from_slice(&RTM_NEWLINK.to_ne_bytes());
    request.extend_from_slice(&(NLM_F_REQUEST | NLM_F_ACK).to_ne_bytes());
    request.extend_from_slice(&1u32.to_ne_bytes()); // sequence number
    request.extend_from_slice(&0u32.to_ne_bytes()); // port id: the kernel's
    // struct ifinfomsg
    request.extend_from_slice(&[0, 0]); // family AF_UNSPEC, padding
    request.extend_from_slice(&0u16.to_ne_bytes()); // device type
    request.extend_from_slice(&LOOPBACK_INDEX.to_ne_bytes());
    request.extend_from_slice(&IFF_UP.to_ne_bytes()); // flags
    request.extend_from_slice(&IFF_UP.to_ne_bytes()); // which flags change
    send(socket.as_raw_fd(), &request, MsgFlags::empty())?;
    let mut reply = [0u8; 1024];
    let length = recv(socket.as_raw_fd(), &mut reply, MsgFlags::empty())?;
    // The acknowledgement: an NLMSG_ERROR message whose error is 0.
    let kind = reply
        .get(4..6)
        .filter(|_| length >= 20)
        .map(|bytes| u16::from_ne_bytes([bytes[0], bytes[1]]));
    let error = reply
        .get(16..20)
        .filter(|_| length >= 20)
        .map(|bytes| i32::from_ne_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]));
    match (kind, error) {
        (Some(NLMSG_ERROR), Some(0)) => Ok(()),
        (Some(NLMSG_ERROR), Some(error)) => Err(io::Error::from_raw_os_error(
            error.checked_neg().unwrap_or(i32::MAX),
        )),
        _ => Err(io::Error::other(
            "the kernel's reply is not an acknowledgement",
        )),
    }
}

/// No capability left, none to gain: the program runs as an ordinary process of the user (or of
/// `nobody`), and the init is not dumpable (the program cannot read or trace it).
fn drop_caps() -> Result<(), Failed> {
    clear_ambient_capability_set().map_err(failed("clear the ambient capabilities"))?;
    let none = CapabilitySet::empty();
    set_capabilities(
        None,
        CapabilitySets {
            effective: none,
            permitted: none,
            inheritable: none,
        },
    )
    .map_err(failed("drop the capabilities"))?;
    prctl::set_dumpable(false).map_err(failed("become non-dumpable"))
}

fn set_rlimits(caps: Caps) -> Result<(), Failed> {
    // The launcher and the init run as the same user in the same user namespace: the count
    // includes them.
    let processes = caps.processes.saturating_add(2);
    for (resource, name, limit) in [
        (Resource::RLIMIT_NPROC, "processes", processes),
        (Resource::RLIMIT_NOFILE, "open files", caps.open_files),
        (Resource::RLIMIT_FSIZE, "file size", caps.file_size),
        (Resource::RLIMIT_CORE, "core dumps", 0),
    ] {
        // Never above what we were given: raising a hard limit is not ours to do.
        let (_, hard) = getrlimit(resource).map_err(failed(format!("read the {name} limit")))?;
        let limit = limit.min(hard);
        setrlimit(resource, limit, limit).map_err(failed(format!("cap {name}")))?;
    }
    Ok(())
}

/// Landlock: read and execute in the system's directories, the working directory, the allowed
/// paths and `/proc`; read and write the device files; everything in the scratch directory and
/// `/dev/shm`; list any directory (the new root holds nothing else to list); nothing else. No signal and no abstract UNIX socket reaches a process outside
/// the sandbox (where the kernel has scopes, Landlock ABI 6).
fn restrict_files(config: &Config, fresh_proc: bool) -> Result<(), Failed> {
    let read = AccessFs::from_read(WANTED_ABI);
    let everything = AccessFs::from_all(WANTED_ABI);
    let device = AccessFs::ReadFile | AccessFs::WriteFile | AccessFs::IoctlDev;
    let mut readable: Vec<PathBuf> = SYSTEM_DIRS.iter().map(PathBuf::from).collect();
    readable.extend(config.read.iter().cloned());
    if fresh_proc {
        readable.push("/proc".into());
    }
    let devices: Vec<PathBuf> = DEVICES
        .iter()
        .map(|name| Path::new("/dev").join(name))
        .collect();
    let writable = [config.scratch.clone(), PathBuf::from("/dev/shm")];
    let status = Ruleset::default()
        .set_compatibility(CompatLevel::HardRequirement)
        .handle_access(AccessFs::from_all(REQUIRED_ABI))
        .and_then(|ruleset| {
            ruleset
                .set_compatibility(CompatLevel::BestEffort)
                .handle_access(everything)
        })
        .and_then(|ruleset| ruleset.scope(Scope::from_all(WANTED_ABI)))
        .and_then(|ruleset| ruleset.create())
        .and_then(|ruleset| ruleset.add_rules(path_beneath_rules(["/"], AccessFs::ReadDir)))
        .and_then(|ruleset| ruleset.add_rules(path_beneath_rules(&readable, read)))
        .and_then(|ruleset| ruleset.add_rules(path_beneath_rules(&devices, device)))
        .and_then(|ruleset| ruleset.add_rules(path_beneath_rules(&writable, everything)))
        .and_then(|ruleset| ruleset.restrict_self())
        .map_err(failed("apply Landlock"))?;
    if status.ruleset == RulesetStatus::NotEnforced {
        return Err(Failed(
            "cannot apply Landlock: not enforced by this kernel".into(),
        ));
    }
    Ok(())
}
