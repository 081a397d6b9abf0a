"""The native target: the generated module compiled to C by Cython, for playouts by the thousand.

The Python source the compiler writes for a ruleset (``compile_program``, ``quiet_source``) is
handed as it is to Cython and the C compiler Python was built with, once per ruleset and options;
the extension is kept in a cache directory and loaded from there afterwards. Cython compiles
untyped Python with Python's own semantics, so a native game is the same game — the same
decisions, events and end for the same seed (tests/test_native.py) — only faster. What C code
lacks is Python's frames: a rule that fails in native code is played again in Python to be
reported at its line (Game.playout).
"""

from __future__ import annotations

import ast
import hashlib
import importlib.util
import os
import shlex
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

# gcc -O2: playouts of the largest bundled ruleset 6–14 % faster than at -O1 (and -O0 is slower than
# Python), for a build of 71 s instead of 40 s, once per ruleset and options
OPT = "-O2"
# Calls between compiled functions through tp_call, which counts them against Python's recursion
# limit: rules that recurse without end then stop with RecursionError, as in Python, instead of
# overflowing the C stack (vectorcall skips the count; this costs ~4 % of a playout). Cython's
# function type is shared by every module of a Cython version that names the same ABI, and one
# built with vectorcall sets a flag ours would not honour: ours name an ABI of their own.
ABI = "_fuda_novectorcall"
DEFINES = ("-DCYTHON_VECTORCALL=0", f'-D__PYX_MONITORING_ABI_SUFFIX="{ABI}"')
# gcc's time grows faster than a function's size: the largest bundled ruleset's largest procedure
# (51 kB of Python) compiles in seconds, a 275 kB one (a turn with every continuation spliced in) in minutes;
# functions above this many characters stay in Python (the rest of the module still runs in C)
MAX_FUNCTION = 100_000
PENDING: dict[str, Any] = {}     # the namespace a module being imported binds its free names from
_LOADED: dict[str, dict[str, Any]] = {}   # an extension loads once per process: its globals by module name


class NativeError(Exception):
    """Why the rules cannot run natively (no Cython, no C compiler, a failed build)."""


def cache_dir() -> Path:
    """Where built extensions are kept: $FUDA_CACHE, else $XDG_CACHE_HOME/fuda or ~/.cache/fuda."""
    root = os.environ.get("FUDA_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "fuda")
    return Path(root) / "native"


def _compiler() -> list[str]:
    cc = shlex.split(sysconfig.get_config_var("CC") or "cc")
    if not cc or shutil.which(cc[0]) is None:
        raise NativeError(f"no C compiler: `{cc[0] if cc else 'cc'}` (the one Python was built with) is not "
                          "installed (on Debian: apt install gcc)")
    return cc


def _cython_version() -> str:
    try:
        import Cython
    except ImportError:
        raise NativeError("Cython is not installed: pip install 'fuda[native]'") from None
    return str(Cython.__version__)


def helpers_source(module: Any) -> str:
    """A Python module's functions alone, without their annotations (which Cython would take for C
    types): the engine's runtime helpers, compiled beside the rules; its classes, constants and
    caches stay the Python module's, bound like any free name (``module_text``)."""
    tree = ast.parse(Path(module.__file__).read_text(encoding="utf-8"))
    funcs: list[ast.stmt] = [n for n in tree.body if isinstance(n, ast.FunctionDef)]
    for node in ast.walk(ast.Module(funcs, type_ignores=[])):
        if isinstance(node, ast.arg):
            node.annotation = None
        elif isinstance(node, ast.FunctionDef):
            node.returns = None
        if isinstance(node, ast.FunctionDef | ast.For | ast.While | ast.If | ast.With | ast.Try | ast.ExceptHandler):
            # `x: T = v` → `x = v`; a bare `x: T` goes
            node.body = [ast.Assign([s.target], s.value, lineno=s.lineno) if isinstance(s, ast.AnnAssign)
                         and s.value is not None else s for s in node.body
                         if not (isinstance(s, ast.AnnAssign) and s.value is None)] or [ast.Pass()]
    return ast.unparse(ast.Module(funcs, type_ignores=[])) + "\n"


def module_text(source: str, ns: dict[str, Any]) -> str:
    """The .pyx text: a first line binding the module's free names from ``PENDING`` (Cython must
    know every global when it compiles), then the source, but for functions too large to compile
    (``MAX_FUNCTION``), which are left out and bound to their Python version in ``ns``."""
    lines = source.splitlines(keepends=True)
    own: set[str] = set()
    for n in ast.parse(source).body:
        if isinstance(n, ast.FunctionDef) and n.name in ns and n.end_lineno is not None \
                and sum(map(len, lines[n.lineno - 1:n.end_lineno])) > MAX_FUNCTION:
            lines[n.lineno - 1:n.end_lineno] = [""] * (n.end_lineno - n.lineno + 1)     # its lines stay, empty
        elif isinstance(n, ast.FunctionDef | ast.ClassDef):
            own.add(n.name)
        elif isinstance(n, ast.Assign):
            own |= {t.id for t in n.targets if isinstance(t, ast.Name)}
    source = "".join(lines)
    free = sorted(k for k in ns if k.isidentifier() and not k.startswith("__") and k not in own)
    first = f"import {__name__} as _native; _NS = _native.PENDING; " + "; ".join(f"{k} = _NS[{k!r}]" for k in free)
    return first + "\n" + source


def load(modules: list[tuple[str, dict[str, Any]]], label: str, note: Callable[[str], None] | None = None,
         opt: str = OPT, once: str = "once for these rules and options") -> list[dict[str, Any]]:
    """The globals of each (source, namespace) compiled to C, its free names bound from the
    namespace; the ones the cache lacks are built first, side by side (seconds to minutes by their
    size; ``note`` is told). Raises NativeError."""
    cc = _compiler()
    where = cache_dir()
    todo: list[tuple[str, str, Path]] = []
    paths: list[tuple[str, Path]] = []
    for source, ns in modules:
        text = module_text(source, ns)
        modname, path = target(text, cc, opt)
        paths.append((modname, path))
        if modname not in _LOADED and not _intact(path):
            todo.append((text, modname, path))
    if todo:
        if note is not None:
            note(f"{label}: compiling to C with Cython, {once} (from seconds to a few minutes, by its size; kept in {where})")
        try:
            with ThreadPoolExecutor(max_workers=len(todo)) as pool:    # the work is in the compilers' processes
                list(pool.map(lambda job: _build(job[0], job[1], job[2], cc, opt, label), todo))
        except OSError as e:        # the cache cannot be written (a file in the way, a full disk)
            raise NativeError(f"cannot build in {where}: {e.strerror or e}; set FUDA_CACHE to a writable "
                              "directory") from None
    return [_import(modname, path, ns) for (modname, path), (_, ns) in zip(paths, modules, strict=True)]


def target(text: str, cc: list[str], opt: str = OPT) -> tuple[str, Path]:
    """The module name and cache path of a .pyx text: a hash of everything the build depends on."""
    key = hashlib.sha256("\0".join((text, _cython_version(), sys.version, " ".join(cc), opt, *DEFINES)).encode())
    modname = f"fuda_native_{key.hexdigest()[:24]}"
    return modname, cache_dir() / (modname + (sysconfig.get_config_var("EXT_SUFFIX") or ".so"))


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _intact(path: Path) -> bool:
    """The extension is there and as it was built: the dynamic loader would crash the process
    (SIGBUS, an assertion) on a truncated or damaged file instead of raising ImportError."""
    sums = path.with_name(path.name + ".sha256")
    try:
        return sums.read_text(encoding="ascii").strip() == _digest(path)
    except OSError:
        return False


def _import(modname: str, path: Path, ns: dict[str, Any]) -> dict[str, Any]:
    if modname in _LOADED:
        return _LOADED[modname]
    PENDING.clear()
    PENDING.update(ns)
    try:
        spec = importlib.util.spec_from_file_location(modname, path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    except ImportError as e:        # a damaged cache file: built again next time
        path.unlink(missing_ok=True)
        raise NativeError(f"{path}: could not be loaded ({e}); removed, it is built again next time") from None
    finally:
        PENDING.clear()
    kinds = {type(v).__module__ for v in vars(module).values() if type(v).__name__ == "cython_function_or_method"}
    if any(ABI not in k for k in kinds):        # a Cython that no longer reads the define: unsafe to call
        path.unlink(missing_ok=True)
        raise NativeError(f"Cython {_cython_version()} does not build the functions fuda needs (their type is "
                          f"{', '.join(sorted(kinds))}); Cython 3.1 to 3.3 does")
    # kept for the process's life: a Cython module's constants are freed with the module object,
    # while its functions (held by games) still use them
    sys.modules[modname] = module
    _LOADED[modname] = module.__dict__
    return module.__dict__


def _build(text: str, modname: str, path: Path, cc: list[str], opt: str, label: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=path.parent, prefix=".build-") as tmp:
        pyx = Path(tmp) / f"{modname}.pyx"
        pyx.write_text(text, encoding="utf-8")
        c = pyx.with_suffix(".c")
        so = Path(tmp) / path.name
        _run([sys.executable, "-m", "cython", "-3", str(pyx), "-o", str(c)], f"Cython on {label}")
        include = sysconfig.get_paths()["include"]
        _run([*cc, "-shared", "-fPIC", opt, *DEFINES, "-w", "-I", include, str(c), "-o", str(so)],
             f"the C compiler on {label}")
        sums = Path(tmp) / (path.name + ".sha256")
        sums.write_text(_digest(so) + "\n", encoding="ascii")
        # whole or not at all: another process may be loading it; its checksum first (_intact)
        os.replace(sums, path.with_name(sums.name))
        os.replace(so, path)


def _run(cmd: list[str], what: str) -> None:
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        tail = "\n".join((r.stderr or r.stdout).strip().splitlines()[-12:])
        raise NativeError(f"{what} failed:\n{tail}")


def available() -> str | None:
    """None when rules can be compiled here, else why not."""
    try:
        _cython_version()
        _compiler()
    except NativeError as e:
        return str(e)
    return None

