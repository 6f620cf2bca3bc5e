"""Build llama.cpp's C++ ``llama-server`` from PyPI sources, cached per machine.

The test suite runs moot against the real llama.cpp server, the one Ollama, LM
Studio and many self-hosters build on. Its sources come from PyPI, the one package
index a CI machine is sure to reach: the llama-cpp-python sdist vendors llama.cpp
(``vendor/llama.cpp``). This module downloads that sdist with pip (hash-pinned),
builds only the ``llama-server`` target with CMake, and caches the binary:

    ~/.cache/moot-dev/llama-server/<llama-cpp-python version>-<hash of build flags>/

(``$MOOT_DEV_CACHE`` replaces ``~/.cache/moot-dev``). The build is portable
(``GGML_NATIVE=OFF``: no ``-march=native``), static (the binary has no shared
libraries of its own, so it can be moved) and offline (no web UI, which llama.cpp
would otherwise download from Hugging Face; no OpenSSL). It takes minutes, once.

Concurrent builders cannot corrupt the cache: one build runs at a time per machine
(a lock file), every build happens in a temporary directory beside the cache entry,
and the finished entry appears by one atomic ``rename``. An entry is used only if
its ``build.json`` (written last, inside the renamed directory) is present.

    python tools/llama_server.py build     # build if needed; print the binary's path
    python tools/llama_server.py path      # print the cached binary's path, or exit 1

:func:`serve` runs the built server on a GGUF on a free loopback port (the tests'
fixture and the benchmarks use it).

Requirements: ``cmake`` (3.14 or newer), ``make`` or ``ninja``, and a C++17 compiler
(``g++`` or ``clang++``). What is missing is named before anything is downloaded.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tarfile
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

#: The llama-cpp-python release whose vendored llama.cpp is built (the same release
#: requirements/dev.txt installs, so both servers under test share one llama.cpp).
VERSION = "0.3.36"

#: sha256 of ``llama_cpp_python-0.3.36.tar.gz`` on PyPI; pip refuses any other file.
SDIST_SHA256 = "832db0699007f1be95a7e41ef12e88926b02ba836461e36a36372db2760c1a2e"

TARGET = "llama-server"

#: CMake options of the build; part of the cache key.
CMAKE_FLAGS: tuple[str, ...] = (
    "-DCMAKE_BUILD_TYPE=Release",
    "-DGGML_NATIVE=OFF",  # portable: no -march=native
    "-DBUILD_SHARED_LIBS=OFF",  # one self-contained binary, safe to move
    "-DLLAMA_BUILD_TESTS=OFF",
    "-DLLAMA_BUILD_EXAMPLES=OFF",
    "-DLLAMA_BUILD_SERVER=ON",
    "-DLLAMA_BUILD_UI=OFF",  # no npm build of the web UI
    "-DLLAMA_USE_PREBUILT_UI=OFF",  # and no download of it from Hugging Face
    "-DLLAMA_OPENSSL=OFF",  # loopback HTTP only; no libssl-dev needed
)

#: Where the build's own output goes, relative to a cache entry.
BUILD_LOG = "build.log"
BUILD_INFO = "build.json"

_MIN_CMAKE = (3, 14)


class BuildError(RuntimeError):
    """The server could not be built; the message says why and what to install."""


@dataclass(frozen=True)
class Toolchain:
    cmake: str
    generator: list[str]
    jobs: int


def cache_root() -> Path:
    """``$MOOT_DEV_CACHE``, else ``$XDG_CACHE_HOME/moot-dev``, else ``~/.cache/moot-dev``."""
    explicit = os.environ.get("MOOT_DEV_CACHE")
    if explicit:
        return Path(explicit).expanduser()
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg).expanduser() if xdg else Path.home() / ".cache"
    return base / "moot-dev"


def build_key() -> str:
    """The cache entry's name: the version and a hash of the build flags."""
    flags = "\n".join((VERSION, SDIST_SHA256, *CMAKE_FLAGS))
    return f"{VERSION}-{hashlib.sha256(flags.encode()).hexdigest()[:12]}"


def entry_dir() -> Path:
    return cache_root() / "llama-server" / build_key()


def cached_binary() -> Path | None:
    """The cached ``llama-server``, if a complete build is cached."""
    entry = entry_dir()
    binary = entry / "bin" / TARGET
    if (entry / BUILD_INFO).is_file() and binary.is_file() and os.access(binary, os.X_OK):
        return binary
    return None


def _cmake_version(cmake: str) -> tuple[int, int] | None:
    try:
        out = subprocess.run(
            [cmake, "--version"], capture_output=True, text=True, check=False, timeout=30
        ).stdout
    except OSError:
        return None
    match = re.search(r"version (\d+)\.(\d+)", out)
    return (int(match.group(1)), int(match.group(2))) if match else None


def check_toolchain() -> Toolchain:
    """The build tools, or a ``BuildError`` that names every missing one."""
    missing: list[str] = []
    cmake = shutil.which("cmake")
    if cmake is None:
        missing.append("cmake (3.14 or newer)")
    else:
        version = _cmake_version(cmake)
        if version is None or version < _MIN_CMAKE:
            shown = ".".join(map(str, version)) if version else "unknown"
            missing.append(f"cmake 3.14 or newer (found {cmake}, version {shown})")
    cxx = os.environ.get("CXX") or next(
        (c for c in ("c++", "g++", "clang++") if shutil.which(c)), None
    )
    if cxx is None or shutil.which(cxx) is None:
        missing.append("a C++17 compiler (g++ or clang++; or set CXX)")
    cc = os.environ.get("CC") or next((c for c in ("cc", "gcc", "clang") if shutil.which(c)), None)
    if cc is None or shutil.which(cc) is None:
        missing.append("a C compiler (gcc or clang; or set CC)")
    generator: list[str] = []
    if shutil.which("ninja"):
        generator = ["-G", "Ninja"]
    elif shutil.which("make") is None:
        missing.append("make (or ninja)")
    if missing or cmake is None:
        raise BuildError(
            f"building {TARGET} (llama.cpp's C++ server, for the tests against it) needs: "
            + "; ".join(missing)
            + ". On Debian or Ubuntu: apt-get install cmake g++ make"
        )
    return Toolchain(cmake=cmake, generator=generator, jobs=max(1, os.cpu_count() or 1))


@contextlib.contextmanager
def _build_lock(root: Path) -> Iterator[None]:
    """One build at a time per cache: others wait here, then find the entry built."""
    root.mkdir(parents=True, exist_ok=True)
    with (root / ".build.lock").open("a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _run(command: list[str], log: Path, cwd: Path | None = None) -> None:
    with log.open("a", encoding="utf-8") as out:
        out.write(f"\n$ {' '.join(command)}\n")
        out.flush()
        result = subprocess.run(command, cwd=cwd, stdout=out, stderr=subprocess.STDOUT, check=False)
    if result.returncode != 0:
        tail = log.read_text(encoding="utf-8", errors="replace")[-4000:]
        raise BuildError(
            f"{command[0]} failed with exit code {result.returncode} while building {TARGET};"
            f" the full log is {log}. Its end:\n{tail}"
        )


def _download_sdist(into: Path, log: Path) -> Path:
    """The llama-cpp-python sdist from PyPI, checked against ``SDIST_SHA256``."""
    requirement = into / "requirement.txt"
    requirement.write_text(f"llama-cpp-python=={VERSION} --hash=sha256:{SDIST_SHA256}\n")
    _run(
        [
            sys.executable,
            "-m",
            "pip",
            "download",
            "--no-deps",
            "--no-binary",
            ":all:",
            "--require-hashes",
            "--disable-pip-version-check",
            "-r",
            str(requirement),
            "-d",
            str(into),
        ],
        log,
    )
    found = sorted(into.glob("llama_cpp_python-*.tar.gz"))
    if not found:
        raise BuildError(f"pip download left no llama-cpp-python sdist in {into}; see {log}")
    return found[0]


def _extract_llama_cpp(sdist: Path, into: Path) -> Path:
    """Extract the vendored llama.cpp; returns its source directory."""
    with tarfile.open(sdist) as archive:
        members = [m for m in archive.getmembers() if "/vendor/llama.cpp/" in f"{m.name}/"]
        if not members:
            raise BuildError(f"{sdist.name} has no vendor/llama.cpp")
        archive.extractall(into, members=members, filter="data")
    sources = next(into.glob("*/vendor/llama.cpp"), None)
    if sources is None or not (sources / "CMakeLists.txt").is_file():
        raise BuildError(f"{sdist.name}: vendor/llama.cpp has no CMakeLists.txt")
    return sources


def build(*, quiet: bool = False) -> Path:
    """Return the cached ``llama-server``, building it first if needed."""
    found = cached_binary()
    if found is not None:
        return found
    toolchain = check_toolchain()
    root = entry_dir().parent
    with _build_lock(root):
        found = cached_binary()  # built by another process while this one waited
        if found is not None:
            return found
        started = time.monotonic()
        work = Path(tempfile.mkdtemp(prefix=f".{build_key()}.", dir=root))
        try:
            staged = work / "entry"
            (staged / "bin").mkdir(parents=True)
            log = staged / BUILD_LOG
            if not quiet:
                print(f"building {TARGET} {VERSION} (minutes, once); log: {log}", file=sys.stderr)
            sdist = _download_sdist(work, log)
            sources = _extract_llama_cpp(sdist, work / "src")
            build_dir = work / "build"
            _run(
                [
                    toolchain.cmake,
                    "-S",
                    str(sources),
                    "-B",
                    str(build_dir),
                    *toolchain.generator,
                    *CMAKE_FLAGS,
                ],
                log,
            )
            _run(
                [
                    toolchain.cmake,
                    "--build",
                    str(build_dir),
                    "--target",
                    TARGET,
                    "--parallel",
                    str(toolchain.jobs),
                ],
                log,
            )
            produced = next((p for p in build_dir.rglob(TARGET) if p.is_file()), None)
            if produced is None:
                raise BuildError(f"the build finished but produced no {TARGET}; see {log}")
            shutil.copy2(produced, staged / "bin" / TARGET)
            info = {
                "target": TARGET,
                "llama_cpp_python": VERSION,
                "sdist_sha256": SDIST_SHA256,
                "cmake_flags": list(CMAKE_FLAGS),
                "build_seconds": round(time.monotonic() - started, 1),
                "built_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            }
            (staged / BUILD_INFO).write_text(json.dumps(info, indent=2) + "\n")
            final = entry_dir()
            if final.exists():
                # an incomplete entry (no build.json): never used, safe to replace
                shutil.rmtree(final)
            os.rename(staged, final)
        finally:
            shutil.rmtree(work, ignore_errors=True)
    binary = cached_binary()
    if binary is None:
        raise BuildError(f"{TARGET} was built but is not in the cache at {entry_dir()}")
    if not quiet:
        seconds = json.loads((entry_dir() / BUILD_INFO).read_text())["build_seconds"]
        print(f"built {binary} in {seconds:.0f} s", file=sys.stderr)
    return binary


class ServerError(RuntimeError):
    """The built server did not start; the message ends with its log."""


def free_port() -> int:
    """A loopback TCP port that was free a moment ago."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    return port


def _healthy(root: str) -> bool:
    """``/health`` answers 200 once the model is loaded (503 while loading)."""
    try:
        with urllib.request.urlopen(f"{root}/health", timeout=2) as response:  # noqa: S310
            return bool(response.status == 200)
    except (urllib.error.URLError, OSError):
        return False


@contextlib.contextmanager
def serve(
    model: Path,
    *,
    log: Path,
    threads: int = 1,
    ctx_size: int = 16384,
    start_timeout: float = 120.0,
) -> Iterator[str]:
    """Run the cached (or freshly built) ``llama-server`` on ``model`` on a free
    loopback port, its output in ``log``; yields its root URL (the OpenAI API is
    under ``/v1``) and stops it afterwards. The server's defaults hold otherwise (4
    slots sharing one KV cache, the model's chat template). One thread by default:
    on a CPU shared with other work, llama.cpp's threads wait on each other at every
    step (measured 6-10x slower with 2 threads than with 1 on 2 busy cores)."""
    binary = build()
    port = free_port()
    root = f"http://127.0.0.1:{port}"
    command = [
        str(binary),
        *("--model", str(model), "--host", "127.0.0.1", "--port", str(port)),
        *("--ctx-size", str(ctx_size), "--threads", str(threads)),
    ]
    with log.open("wb") as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + start_timeout
        while not _healthy(root):
            if process.poll() is not None or time.monotonic() > deadline:
                state = "exited" if process.poll() is not None else "did not answer in time"
                tail = log.read_text(encoding="utf-8", errors="replace")[-3000:]
                raise ServerError(f"{TARGET} {state}; its log ends:\n{tail}")
            time.sleep(0.2)
        yield root
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def main(argv: list[str]) -> int:
    command = argv[0] if argv else "build"
    if command == "path":
        found = cached_binary()
        if found is None:
            print(f"{TARGET} is not built yet: python tools/llama_server.py build", file=sys.stderr)
            return 1
        print(found)
        return 0
    if command == "build":
        try:
            print(build())
        except BuildError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 1
        return 0
    print("usage: python tools/llama_server.py [build | path]", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
