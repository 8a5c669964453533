"""Storage faults for tests, each made for real in a child process: the code under test is
the real code, and nothing of the journal is patched.

- `read_only(path)`: argv run with `path` (a folder or a file) read-only. As root (who
  writes through any permission bit) it is bound read-only in a private mount namespace
  of the child (`unshare --mount`): writes there fail with EROFS, as on a card the kernel
  remounted read-only; otherwise its write permissions are taken away for the run.
- `Shim`: a small LD_PRELOAD library, built here with the system's C compiler, that makes
  the journal's files fail the way a failing card does, switched on and off while the
  child runs (see `SHIM_C`).
"""
from __future__ import annotations

import atexit
import contextlib
import functools
import os
import shutil
import subprocess
import tempfile
from pathlib import Path


@functools.lru_cache(maxsize=1)
def _unshare() -> str | None:
    """Why a private read-only bind mount cannot be made here, or None when it can."""
    if shutil.which("unshare") is None:
        return "no unshare command"
    probe = subprocess.run(["unshare", "--mount", "--propagation", "private", "mount", "--bind", "/tmp", "/tmp"],
                           capture_output=True, text=True)
    why = probe.stderr.strip() or probe.stdout.strip()
    return None if probe.returncode == 0 else f"unshare --mount refused: {why}"


def read_only_reason() -> str | None:
    """Why `read_only` cannot run here, or None."""
    return _unshare() if os.geteuid() == 0 else None


@contextlib.contextmanager
def read_only(path: Path):
    """Yields a function argv -> argv that runs argv with `path` (a folder or a file)
    read-only (see above)."""
    path = Path(path)
    if os.geteuid() == 0:
        def wrap(argv):
            script = 'mount --bind "$0" "$0" && mount -o remount,ro,bind "$0" && exec "$@"'
            return ["unshare", "--mount", "--propagation", "private", "sh", "-c", script, str(path), *argv]
        yield wrap
        return
    modes = {p: p.stat().st_mode for p in ([path, *path.iterdir()] if path.is_dir() else [path])}
    try:
        for p, mode in modes.items():
            p.chmod(mode & ~0o222)
        yield lambda argv: list(argv)
    finally:
        for p, mode in modes.items():
            p.chmod(mode)


def tree(folder: Path) -> dict:
    """Every file of `folder` and its bytes: what `read only` must leave exactly as it was."""
    return {p.name: p.read_bytes() for p in sorted(Path(folder).iterdir()) if p.is_file()}


# ---- the LD_PRELOAD shim -------------------------------------------------------------------

SHIM_C = r"""
/* Storage faults for the journal's files, switched while the process runs.

   CORBEILLE_FAULT names a control file; its first word is the fault now:
     (empty)    none
     enospc     writes fail with ENOSPC, statvfs says no block is free    (a full card)
     erofs      opens for writing, writes, truncations and syncs fail with EROFS, statvfs
                says the filesystem is read-only, access(W_OK) fails      (ext4 remounted ro)
     eio-fsync  fsync and fdatasync fail with EIO                          (a failing card)
     eio-write  writes fail with EIO
     short      a write writes half of what it was given and the next one nothing
   Only files whose path holds CORBEILLE_FAULT_MATCH ("journal.sqlite" by default) and
   CORBEILLE_FAULT_DIR (the card's folder, when set) are hit; statvfs and access only for
   paths in that folder. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

static int short_pending = 0;

static void fault(char *out, size_t size) {
    out[0] = 0;
    const char *ctl = getenv("CORBEILLE_FAULT");
    if (!ctl) return;
    int fd = (int)syscall(SYS_openat, AT_FDCWD, ctl, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return;
    ssize_t n = syscall(SYS_read, fd, out, size - 1);
    syscall(SYS_close, fd);
    out[n > 0 ? n : 0] = 0;
    for (char *p = out; *p; p++) if (*p == '\n' || *p == ' ') { *p = 0; break; }
}

static const char *match(void) {
    const char *m = getenv("CORBEILLE_FAULT_MATCH");
    return m ? m : "journal.sqlite";
}

static int dir_hit(const char *path);

static int path_hit(const char *path) {
    return path && strstr(path, match()) != NULL && dir_hit(path);
}

static int fd_hit(int fd) {
    char link[64], path[4096];
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    ssize_t n = readlink(link, path, sizeof path - 1);
    if (n <= 0) return 0;
    path[n] = 0;
    return path_hit(path);
}

static int dir_hit(const char *path) {
    const char *dir = getenv("CORBEILLE_FAULT_DIR");
    return path && (!dir || strstr(path, dir) != NULL);
}

#define REAL(name, ret, ...) \
    static ret (*real_##name)(__VA_ARGS__); \
    if (!real_##name) real_##name = (ret (*)(__VA_ARGS__))dlsym(RTLD_NEXT, #name);

static ssize_t write_fault(int fd, size_t count, int *handled) {
    char f[32];
    *handled = 0;
    fault(f, sizeof f);
    if (!f[0] || !fd_hit(fd)) return 0;
    *handled = 1;
    if (!strcmp(f, "enospc")) { errno = ENOSPC; return -1; }
    if (!strcmp(f, "erofs")) { errno = EROFS; return -1; }
    if (!strcmp(f, "eio-write")) { errno = EIO; return -1; }
    if (!strcmp(f, "short")) {
        if (short_pending || count < 2) { short_pending = 0; return 0; }
        short_pending = 1;
        *handled = 2;                    /* the caller writes half */
        return (ssize_t)(count / 2);
    }
    *handled = 0;
    return 0;
}

ssize_t write(int fd, const void *buf, size_t count) {
    REAL(write, ssize_t, int, const void *, size_t)
    int handled;
    ssize_t r = write_fault(fd, count, &handled);
    if (handled == 2) return real_write(fd, buf, (size_t)r);
    if (handled) return r;
    return real_write(fd, buf, count);
}

ssize_t pwrite(int fd, const void *buf, size_t count, off_t offset) {
    REAL(pwrite, ssize_t, int, const void *, size_t, off_t)
    int handled;
    ssize_t r = write_fault(fd, count, &handled);
    if (handled == 2) return real_pwrite(fd, buf, (size_t)r, offset);
    if (handled) return r;
    return real_pwrite(fd, buf, count, offset);
}

ssize_t pwrite64(int fd, const void *buf, size_t count, off64_t offset) {
    REAL(pwrite64, ssize_t, int, const void *, size_t, off64_t)
    int handled;
    ssize_t r = write_fault(fd, count, &handled);
    if (handled == 2) return real_pwrite64(fd, buf, (size_t)r, offset);
    if (handled) return r;
    return real_pwrite64(fd, buf, count, offset);
}

static int sync_fault(int fd) {
    char f[32];
    fault(f, sizeof f);
    if (!f[0] || !fd_hit(fd)) return 0;
    if (!strcmp(f, "eio-fsync")) { errno = EIO; return -1; }
    if (!strcmp(f, "erofs")) { errno = EROFS; return -1; }
    return 0;
}

int fsync(int fd) {
    REAL(fsync, int, int)
    return sync_fault(fd) ? -1 : real_fsync(fd);
}

int fdatasync(int fd) {
    REAL(fdatasync, int, int)
    return sync_fault(fd) ? -1 : real_fdatasync(fd);
}

static int truncate_fault(int fd) {
    char f[32];
    fault(f, sizeof f);
    if (!f[0] || !fd_hit(fd)) return 0;
    if (!strcmp(f, "erofs")) { errno = EROFS; return -1; }
    if (!strcmp(f, "enospc")) { errno = ENOSPC; return -1; }
    return 0;
}

int ftruncate(int fd, off_t length) {
    REAL(ftruncate, int, int, off_t)
    return truncate_fault(fd) ? -1 : real_ftruncate(fd, length);
}

int ftruncate64(int fd, off64_t length) {
    REAL(ftruncate64, int, int, off64_t)
    return truncate_fault(fd) ? -1 : real_ftruncate64(fd, length);
}

static int open_fault(const char *path, int flags) {
    char f[32];
    if (!(flags & (O_WRONLY | O_RDWR | O_CREAT))) return 0;
    fault(f, sizeof f);
    if (strcmp(f, "erofs") || !path_hit(path)) return 0;
    errno = EROFS;
    return -1;
}

#define OPEN_MODE(flags) \
    mode_t mode = 0; \
    if (flags & (O_CREAT | O_TMPFILE)) { va_list ap; va_start(ap, flags); mode = va_arg(ap, mode_t); va_end(ap); }

int open(const char *path, int flags, ...) {
    REAL(open, int, const char *, int, ...)
    OPEN_MODE(flags)
    return open_fault(path, flags) ? -1 : real_open(path, flags, mode);
}

int open64(const char *path, int flags, ...) {
    REAL(open64, int, const char *, int, ...)
    OPEN_MODE(flags)
    return open_fault(path, flags) ? -1 : real_open64(path, flags, mode);
}

int openat(int dirfd, const char *path, int flags, ...) {
    REAL(openat, int, int, const char *, int, ...)
    OPEN_MODE(flags)
    return open_fault(path, flags) ? -1 : real_openat(dirfd, path, flags, mode);
}

int openat64(int dirfd, const char *path, int flags, ...) {
    REAL(openat64, int, int, const char *, int, ...)
    OPEN_MODE(flags)
    return open_fault(path, flags) ? -1 : real_openat64(dirfd, path, flags, mode);
}

#define STATVFS_FAULT(path, buf) do { \
    char f[32]; \
    fault(f, sizeof f); \
    if (dir_hit(path)) { \
        if (!strcmp(f, "enospc")) { (buf)->f_bavail = 0; (buf)->f_bfree = 0; } \
        if (!strcmp(f, "erofs")) (buf)->f_flag |= ST_RDONLY; \
    } } while (0)

int statvfs(const char *path, struct statvfs *buf) {
    REAL(statvfs, int, const char *, struct statvfs *)
    int r = real_statvfs(path, buf);
    if (r == 0) STATVFS_FAULT(path, buf);
    return r;
}

int statvfs64(const char *path, struct statvfs64 *buf) {
    REAL(statvfs64, int, const char *, struct statvfs64 *)
    int r = real_statvfs64(path, buf);
    if (r == 0) STATVFS_FAULT(path, buf);
    return r;
}

static int access_fault(const char *path, int mode) {
    char f[32];
    if (!(mode & W_OK)) return 0;
    fault(f, sizeof f);
    if (strcmp(f, "erofs") || !dir_hit(path)) return 0;
    errno = EROFS;
    return -1;
}

int access(const char *path, int mode) {
    REAL(access, int, const char *, int)
    return access_fault(path, mode) ? -1 : real_access(path, mode);
}

int faccessat(int dirfd, const char *path, int mode, int flags) {
    REAL(faccessat, int, int, const char *, int, int)
    return access_fault(path, mode) ? -1 : real_faccessat(dirfd, path, mode, flags);
}
"""


@functools.lru_cache(maxsize=1)
def _compiler() -> str | None:
    for name in (os.environ.get("CC"), "cc", "gcc", "clang"):
        if name and shutil.which(name):
            return name
    return None


@functools.lru_cache(maxsize=1)
def _built() -> tuple[Path | None, str | None]:
    """The shim built once per process, in a folder of its own (every test's child loads
    the same library; only the control file is the test's): (the library, None), or
    (None, why it cannot be built)."""
    compiler = _compiler()
    if compiler is None:
        return None, "no C compiler (cc, gcc or clang) to build the fault-injection shim"
    folder = Path(tempfile.mkdtemp(prefix="corbeille-faults-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    source, library = folder / "corbeille_faults.c", folder / "corbeille_faults.so"
    source.write_text(SHIM_C)
    built = subprocess.run([compiler, "-shared", "-fPIC", "-O1", "-o", str(library), str(source), "-ldl"],
                           capture_output=True, text=True)
    if built.returncode != 0:
        return None, f"the fault-injection shim does not build: {built.stderr.strip()[:300]}"
    return library, None


class Shim:
    """The shim (see SHIM_C), its control file in `folder`; `env` is what a child needs to
    load it, `set(fault)` switches the fault while it runs. `reason` says why it cannot
    be built (no C compiler), else None."""

    def __init__(self, folder: Path, watched: Path):
        self.control = Path(folder) / "fault"
        self.control.write_text("")
        self.library, self.reason = _built()
        self.env = {"LD_PRELOAD": str(self.library), "CORBEILLE_FAULT": str(self.control),
                    "CORBEILLE_FAULT_DIR": str(watched)}

    def set(self, fault: str = "") -> None:
        self.control.write_text(fault)
