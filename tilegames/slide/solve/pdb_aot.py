"""The PDB IDA* kernel compiled ahead of time, so a fresh process solves without importing numba.

`pdb_kernels.ida_pdb` through numba costs a fresh process ~0.6 s before the first node (importing numba,
then its dispatcher loading the cached kernel). The same function compiled by `numba.pycc` into a plain
extension module (in the cache directory, `aot/`) imports in a millisecond. It is the *same bytecode*: the
extension is compiled from `ida_pdb.py_func` with one global swapped, the clock (numba's object mode does
not compile ahead of time; the extension reads CLOCK_MONOTONIC, which is what `time.perf_counter` reads on
Linux). So paths and node counts are identical (tested).

The extension is built once per version of the kernels' source, numba, NumPy and Python (its name holds a
hash of them), lazily: the first solve that finds it missing runs the JIT kernel and starts the build in a
detached, niced background process (`python -m tilegames.slide.solve.pdb_aot DIR`; about 10 s of CPU),
which writes it atomically. It lives in the default cache directory whatever `cache_dir` the tables use.
No C compiler, another platform, `TILEGAMES_AOT=0` or any failure: the JIT kernel, as before.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import importlib.machinery
import importlib.util
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import threading
import time
import warnings
from pathlib import Path
from types import ModuleType
from typing import Any

from tilegames.common import cache_directory

GROUPS = (2, 3, 4, 5)
"""Table counts compiled for (one exported function each): 7-8, 6-6-3, 6-6-6-6, 5-5-5-5-4."""
_HERE = Path(__file__).resolve().parent
_SOURCES = ("pdb_kernels.py", "kernels.py", "pdb_aot.py")
_loaded: dict[Path, ModuleType | None] = {}  # per cache directory: the module, or None when absent


@functools.cache
def module_name() -> str:
    """The extension's name: a hash of what it is compiled from (the kernels' source; numba, llvmlite
    and NumPy as installed, by their files' size and time; Python), so a stale one is never loaded."""
    digest = hashlib.sha256(sys.version.encode())
    for name in _SOURCES:
        digest.update((_HERE / name).read_bytes())
    for package in ("numba", "llvmlite", "numpy"):
        spec = importlib.util.find_spec(package)  # finds without importing
        origin = spec.origin if spec is not None else None
        if origin is not None:
            stat = os.stat(origin)
            digest.update(f"{origin} {stat.st_size} {stat.st_mtime_ns}".encode())
    return f"tg_ida_pdb_{digest.hexdigest()[:16]}"


def enabled() -> bool:
    return sys.platform == "linux" and os.environ.get("TILEGAMES_AOT", "1") != "0"


def _path(directory: Path) -> Path:
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    return directory / "aot" / f"{module_name()}{suffix}"


def load(directory: Path | None = None) -> ModuleType | None:
    """The compiled extension from `directory` (default: the cache directory, $TILEGAMES_CACHE or the
    user's, whatever directory the tables come from), or None (not built, disabled, or unloadable)."""
    if not enabled():
        return None
    directory = directory or cache_directory()
    if directory not in _loaded:
        path = _path(directory)
        module = None
        if path.is_file():
            with contextlib.suppress(ImportError, OSError):
                spec = importlib.util.spec_from_file_location(module_name(), path)
                if spec is not None and spec.loader is not None:
                    module = importlib.util.module_from_spec(spec)
                    spec.loader.exec_module(module)
        _loaded[directory] = module
    return _loaded[directory]


def build(directory: Path) -> Path:
    """Compile the extension into `directory`/aot (atomically: built in a temporary directory, renamed
    into place). Needs numba and a C compiler; raises whatever fails."""
    from numba import types

    with warnings.catch_warnings():  # pending deprecation since numba 0.57, still shipped in 0.68
        warnings.simplefilter("ignore")
        from numba.pycc import CC  # type: ignore[attr-defined]

    from tilegames.slide.solve import pdb_kernels

    name = module_name()
    target = _path(directory)
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=target.parent) as tmp:
        cc = CC(name)  # type: ignore[no-untyped-call]
        cc.output_dir = tmp
        cc.verbose = False
        kernel = aot_kernel(pdb_kernels)
        i64, arr = types.int64, types.Array
        ro_u8 = arr(types.uint8, 1, "C", readonly=True)
        for groups in GROUPS:
            signature = types.Tuple((i64, i64, i64))(  # type: ignore[no-untyped-call]
                arr(i64, 1, "C"), i64, i64, i64, arr(i64, 1, "C"), arr(i64, 2, "C"),
                arr(i64, 1, "C"), arr(i64, 2, "C"), types.UniTuple(ro_u8, groups),  # type: ignore[no-untyped-call]
                arr(i64, 1, "C"), types.boolean, i64, i64, i64, types.float64, arr(i64, 1, "C"),
                types.float64,
            )  # fmt: skip
            cc.export(f"ida_pdb_{groups}", signature)(kernel)  # type: ignore[no-untyped-call]
        cc.compile()
        built = next(Path(tmp).glob(f"{name}*{sysconfig.get_config_var('EXT_SUFFIX')}"))
        os.replace(built, target)
    return target


def aot_kernel(pdb_kernels: ModuleType) -> Any:
    """`ida_pdb`'s Python function with the clock replaced by one that compiles ahead of time."""
    import types as pytypes

    import numpy as np
    from numba import njit
    from numba import types as nbtypes

    clock_gettime = nbtypes.ExternalFunction(
        "clock_gettime", nbtypes.int32(nbtypes.int32, nbtypes.uintp)
    )

    @njit
    def monotonic() -> float:  # CLOCK_MONOTONIC = 1 on Linux, what time.perf_counter reads
        ts = np.zeros(2, np.int64)
        clock_gettime(1, ts.ctypes.data)  # type: ignore[call-overload]
        return ts[0] + ts[1] * 1e-9  # type: ignore[no-any-return]

    source = pdb_kernels.ida_pdb.py_func
    namespace = dict(source.__globals__)
    namespace["_clock"] = monotonic
    return pytypes.FunctionType(source.__code__, namespace, source.__name__)


def start_build(directory: Path) -> None:
    """Build the extension in a detached background process, niced, once: a lock file marks a build under
    way (or failed: it is left behind then, and retried only when an hour old)."""
    lock = directory / "aot" / f"{module_name()}.building"
    if shutil.which("cc") is None:
        return
    with contextlib.suppress(OSError):
        lock.parent.mkdir(parents=True, exist_ok=True)
        with contextlib.suppress(FileNotFoundError):
            if time.time() - lock.stat().st_mtime > 3600:
                lock.unlink()
        fd = os.open(lock, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
        os.close(fd)
        subprocess.Popen(
            [sys.executable, "-m", "tilegames.slide.solve.pdb_aot", str(directory)],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            start_new_session=True,
        )  # fmt: skip


def ida_pdb(*args: Any) -> tuple[int, int, int]:
    """`pdb_kernels.ida_pdb(*args)`: through the compiled extension when it is there, else the JIT kernel
    (and the extension's build is started for next time).

    Off the main thread always the JIT kernel: it releases the GIL, so searches in other threads run
    beside it (the extension holds the GIL for the whole search)."""
    tables = args[8]
    if threading.current_thread() is threading.main_thread() and len(tables) in GROUPS:
        module = load()
        if module is not None:
            with contextlib.suppress(TypeError):  # argument types it was not compiled for
                return getattr(module, f"ida_pdb_{len(tables)}")(*args)  # type: ignore[no-any-return]
        elif enabled():
            start_build(cache_directory())
    from tilegames.slide.solve import pdb_kernels

    return pdb_kernels.ida_pdb(*args)  # type: ignore[no-any-return]


def main() -> None:
    """`python -m tilegames.slide.solve.pdb_aot DIR`: build the extension into DIR/aot."""
    os.nice(10)
    directory = Path(sys.argv[1])
    build(directory)
    with contextlib.suppress(OSError):
        (directory / "aot" / f"{module_name()}.building").unlink()


if __name__ == "__main__":
    main()
