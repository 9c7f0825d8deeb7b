"""One writer per corpus folder: a lock file that names its holder, held while a build or a refresh writes.

``.lock`` in the folder holds the writer's pid, host, start time and command, under an OS lock
(``flock``) that the kernel drops when the writer ends however it ends: a lock file left by a
killed writer is stale and the next writer takes it over. Where the file system has no such
locks, a lock file whose pid no longer runs on this host is stale. A second writer gets a
one-line :class:`InputError` naming the holder, before any work. :func:`corpus_writer` is what a
writer holds: the lock, the folder's leftover temporary files removed, a full disk one line.

>>> import tempfile
>>> d = tempfile.mkdtemp()
>>> with FolderLock(d, "corpus build"):
...     try:
...         FolderLock(d, "corpus refresh").acquire()
...     except InputError as exc:
...         print(str(exc).replace(d, "DIR").split(" (pid")[0])
corpus DIR is being written by another process
>>> os.path.exists(os.path.join(d, LOCK_NAME))  # let go: the file is gone
False
"""

from __future__ import annotations

import errno
import json
import os
import socket
import sys
from contextlib import contextmanager, suppress
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Iterator

from binokel_sim.errors import InputError, WriteError, shown
from binokel_sim.output import is_temporary, os_reason

try:
    import fcntl
except ImportError:  # pragma: no cover - not on POSIX: the pid check alone
    fcntl = None  # type: ignore[assignment]

LOCK_NAME = ".lock"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, ValueError):
        return True  # another user's process (or a number we cannot ask about): assume it runs
    return True


def _holder(text: str) -> dict[str, Any]:
    try:
        info = json.loads(text)
    except ValueError:
        return {}
    return info if isinstance(info, dict) else {}


def _describe(info: dict[str, Any]) -> str:
    pid, host, since = info.get("pid"), info.get("host"), info.get("started")
    if not isinstance(pid, int):
        return "another process"
    where = "" if host == socket.gethostname() else f" on {shown(host, 40)}"
    return f"another process (pid {pid}{where}, since {shown(since, 40)})"


class FolderLock:
    """The write lock of corpus ``folder`` for ``what`` (e.g. ``corpus build``); a context manager."""

    def __init__(self, folder: str | os.PathLike, what: str):
        self.folder = Path(folder)
        self.path = self.folder / LOCK_NAME
        self.what = what
        self.fd: int | None = None

    def _refuse(self, info: dict[str, Any]) -> InputError:
        return InputError(f"corpus {os.fspath(self.folder)} is being written by {_describe(info)}: one writer at "
                          f"a time; run {self.what} again when it has finished (lock file {self.path})")

    def acquire(self) -> FolderLock:
        for _ in range(20):  # the holder may let go and unlink the file between our open and our lock
            try:
                fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
            except OSError as exc:
                raise InputError(f"corpus {os.fspath(self.folder)}: cannot create its lock file "
                                 f"({exc.strerror})") from None
            info = _holder(os.pread(fd, 4096, 0).decode("utf-8", "replace"))
            if not self._lock(fd, info):
                os.close(fd)
                raise self._refuse(info)
            try:
                same = os.fstat(fd).st_ino == os.stat(self.path).st_ino
            except FileNotFoundError:
                same = False
            if not same:
                os.close(fd)
                continue
            if info.get("pid") not in (None, os.getpid()):
                print(f"warning: corpus {os.fspath(self.folder)}: taking over the lock of {_describe(info)}, "
                      "which no longer runs", file=sys.stderr)
            me = {"pid": os.getpid(), "host": socket.gethostname(), "what": self.what,
                  "started": datetime.now(UTC).isoformat(timespec="seconds")}
            os.ftruncate(fd, 0)
            os.pwrite(fd, (json.dumps(me) + "\n").encode(), 0)
            self.fd = fd
            return self
        raise InputError(f"corpus {os.fspath(self.folder)}: its lock file keeps changing; try again")

    def _lock(self, fd: int, info: dict[str, Any]) -> bool:
        """Take the OS lock (False: someone holds it); without OS locks, the pid check."""
        if fcntl is not None:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return True
            except BlockingIOError:
                return False
            except OSError as exc:
                if exc.errno not in (errno.ENOLCK, errno.EOPNOTSUPP, errno.ENOSYS, errno.EINVAL):
                    raise
        pid = info.get("pid")
        ours = info.get("host") == socket.gethostname()
        return not isinstance(pid, int) or pid == os.getpid() or (ours and not _alive(pid))

    def release(self) -> None:
        if self.fd is None:
            return
        try:
            if os.fstat(self.fd).st_ino == os.stat(self.path).st_ino:
                os.unlink(self.path)  # before letting go: a waiting writer's open then finds no file
        except OSError:
            pass
        os.close(self.fd)
        self.fd = None

    def __enter__(self) -> FolderLock:
        return self.acquire()

    def __exit__(self, *exc: object) -> None:
        self.release()


@contextmanager
def corpus_writer(folder: str | os.PathLike, what: str, create: bool = True) -> Iterator[FolderLock]:
    """Hold ``folder``'s write lock for ``what`` (e.g. ``binokel corpus build``): the folder is created if
    ``create``, the temporary files of writes a killed writer left are removed, and a write that fails
    (disk full, read-only file system) is one line saying that the finished chunks are kept."""
    folder = Path(folder)
    made = create and not folder.exists()
    if create:
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise InputError(f"corpus {os.fspath(folder)}: cannot create the folder ({os_reason(exc)})") from None
    lock = FolderLock(folder, what)
    try:
        lock.acquire()
        for p in folder.iterdir():
            if is_temporary(p.name) and p.is_file():
                p.unlink()
        yield lock
    except WriteError as exc:
        raise WriteError(f"{exc}; corpus {os.fspath(folder)} keeps every finished chunk: make room and run "
                         f"{what} again") from None
    finally:
        lock.release()
        if made:  # nothing was written (a refused build): leave no empty folder behind
            with suppress(OSError):
                folder.rmdir()
