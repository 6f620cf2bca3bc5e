"""``moot doctor``: can this machine run moot? Every check says what it found and,
when something is wrong, the fix. The report is plain text a bug report can quote.

Checks: Python and moot; the CPU and how busy it is; the local runtime in use
(xllamacpp's prebuilt wheel or llama-cpp-python built from source; ``MOOT_LOCAL_RUNTIME``)
and the CPU variant of its llama.cpp build (the features it uses: a build with AVX-512
or AMX kernels is a ``-march=native`` build, which has crashed on some virtual
machines; an AVX2 build cannot run on a CPU without AVX2); the embedded
model file; a tiny generation in the model worker, with its speed; the run store
(``MOOT_STORE`` or ``--store``: an SQLite file or a PostgreSQL server, named without a
password) with its engine, schema version, on PostgreSQL the time a read takes and
whether the source search has its pg_trgm index; the model specs in use, with API keys
masked. Nothing here is sent anywhere.
"""

from __future__ import annotations

import importlib.metadata
import os
import platform
import re
import sqlite3
import sys
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Literal

from moot.errors import MootError

Status = Literal["ok", "warn", "fail"]
NATIVE_ONLY_FEATURES = ("AVX512", "AVX512_VBMI", "AVX512_VNNI", "AVX512_BF16", "AMX_INT8")
"""llama.cpp features a portable build never enables: their presence means the build
was compiled for the CPU it was built on (``-march=native``)."""
PROBE_TOKENS = 24
ROUND_TRIPS = 5
"""Reads of the store timed to report its latency."""
KEY_VARIABLES = ("OPENAI_API_KEY",)


@dataclass(frozen=True)
class Check:
    """One finding: what was checked, the status, what was found, and the fix."""

    name: str
    status: Status
    detail: str
    fix: str = ""


@dataclass
class Report:
    """Every check, in order; healthy when none failed."""

    checks: list[Check] = field(default_factory=list)

    @property
    def healthy(self) -> bool:
        return all(c.status != "fail" for c in self.checks)

    def add(self, name: str, status: Status, detail: str, fix: str = "") -> None:
        self.checks.append(Check(name, status, detail, fix))

    def as_text(self) -> str:
        lines = []
        for c in self.checks:
            lines.append(f"[{c.status:4}] {c.name}: {c.detail}")
            if c.fix:
                lines.append(f"       fix: {c.fix}")
        verdict = "moot can run here" if self.healthy else "moot cannot run here as configured"
        lines.append(verdict)
        return "\n".join(lines) + "\n"

    def as_json(self) -> dict[str, object]:
        return {
            "healthy": self.healthy,
            "checks": [
                {"name": c.name, "status": c.status, "detail": c.detail, "fix": c.fix}
                for c in self.checks
            ],
        }


def _version(package: str) -> str | None:
    try:
        return importlib.metadata.version(package)
    except importlib.metadata.PackageNotFoundError:
        return None


def cpu_summary(cpuinfo: Path = Path("/proc/cpuinfo")) -> tuple[str, set[str]]:
    """The CPU's model name and flags (Linux); the platform's processor elsewhere."""
    try:
        text = cpuinfo.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return platform.processor() or platform.machine(), set()
    name = re.search(r"^model name\s*:\s*(.+)$", text, re.MULTILINE)
    flags = re.search(r"^flags\s*:\s*(.+)$", text, re.MULTILINE)
    return (
        name.group(1).strip() if name else platform.machine(),
        set(flags.group(1).split()) if flags else set(),
    )


def build_features(system_info: str) -> set[str]:
    """The features llama.cpp reports as enabled (``AVX2 = 1`` -> ``AVX2``)."""
    return {m.group(1) for m in re.finditer(r"([A-Z0-9_]+) = 1", system_info)}


def native_features(features: set[str]) -> list[str]:
    """The CPU-specific features in a build's feature list (empty for a portable build)."""
    return sorted(f for f in features if f in NATIVE_ONLY_FEATURES)


def cpu_variant(features: set[str]) -> str:
    """Which CPU variant a llama.cpp build is, from the features it reports."""
    native = native_features(features)
    if native:
        return f"native build with {', '.join(native)}"
    simd = [f for f in ("AVX2", "AVX", "FMA", "F16C", "NEON", "ARM_FMA", "SVE") if f in features]
    if "AVX2" in features:
        return f"x86-64 AVX2 build ({' '.join(simd)}): no AVX-512 or AMX kernels used"
    if "NEON" in features:
        return f"ARM build ({' '.join(simd)})"
    return f"generic build ({' '.join(sorted(features)) or 'no SIMD features reported'})"


def load_finding(load: float, cores: int) -> tuple[Status, str, str]:
    """The status, finding and fix for a one-minute load average of ``load`` on
    ``cores`` cores. llama.cpp's threads wait for each other at every step, so on an
    oversubscribed CPU the embedded model slows far more than in proportion (a
    debate measured at 20+ minutes instead of about two at a load of 8-25 on 2 cores)."""
    detail = f"load average {load:.1f} over the last minute on {cores} cores"
    if load <= cores:
        return "ok", detail, ""
    return (
        "warn",
        detail + ": the CPU is oversubscribed",
        "the embedded model slows far more than in proportion on a busy CPU; run it when"
        " the other work is done, or use a model served elsewhere (--model openai:...)",
    )


def mask(value: str) -> str:
    """A secret shown only as present, with its length."""
    return f"set ({len(value)} characters, not shown)"


def _check_platform(report: Report) -> set[str]:
    from moot import __version__

    report.add(
        "python",
        "ok" if sys.version_info >= (3, 11) else "fail",
        f"{platform.python_version()} ({sys.executable})",
        "" if sys.version_info >= (3, 11) else "moot needs Python 3.11 or newer",
    )
    report.add("moot", "ok", f"{__version__} ({Path(__file__).resolve().parent})")
    name, flags = cpu_summary()
    shown = sorted(f for f in flags if f in ("avx2", "fma", "f16c", "avx512f", "amx_tile"))
    cores = os.cpu_count() or 1
    report.add("cpu", "ok", f"{name}; {cores} cores; flags: {' '.join(shown) or '-'}")
    report.add("load", *load_finding(os.getloadavg()[0], cores))
    return flags


RUNTIME_BUILDS = {
    "xllamacpp": "prebuilt wheel, nothing compiled",
    "llama-cpp-python": "compiled from source on install",
}
"""How each runtime's llama.cpp came to this machine (the runtime line says it)."""


def _check_local(report: Report, spec: str, cpu_flags: set[str]) -> None:
    from moot.llm.local import (
        INSTALL_HINT,
        REBUILD_HINT,
        RUNTIME_VARIABLE,
        LocalBackend,
        choose_runtime,
        embedded_model_path,
    )
    from moot.llm.types import GenerationSettings

    try:
        runtime = choose_runtime()
    except MootError as exc:
        report.add("runtime", "fail", str(exc), INSTALL_HINT)
        return
    chosen = (
        f"{RUNTIME_VARIABLE}={os.environ[RUNTIME_VARIABLE]}"
        if os.environ.get(RUNTIME_VARIABLE)
        else "the default: xllamacpp if installed, else llama-cpp-python"
    )
    others = [
        f"{name} {_version(name) or 'not installed'}"
        for name in ("xllamacpp", "llama-cpp-python")
        if name != runtime
    ]
    report.add(
        "runtime",
        "ok",
        f"{runtime} {_version(runtime) or '?'} ({RUNTIME_BUILDS[runtime]}; {chosen});"
        f" also: {', '.join(others)}",
    )
    path_text = spec.partition(":")[2]
    try:
        path = Path(path_text) if path_text else embedded_model_path()
        backend = LocalBackend(str(path) if path_text else None, seed=0, runtime=runtime)
    except MootError as exc:
        report.add("model file", "fail", str(exc), INSTALL_HINT)
        return
    if not path.is_file():
        report.add("model file", "fail", f"{path} does not exist", INSTALL_HINT)
        return
    size = path.stat().st_size
    report.add("model file", "ok", f"{path} ({size / 1e6:.1f} MB)")
    try:
        info = backend.info()
        system = str(info.get("system_info", ""))
        features = build_features(system)
        native = native_features(features)
        variant = cpu_variant(features)
        if native:
            report.add(
                "llama.cpp build",
                "warn",
                f"{system} -- uses {', '.join(native)}: a build for the CPU it was"
                " compiled on (-march=native), which has crashed on some virtual machines",
                f"if debates crash, {REBUILD_HINT}",
            )
        elif "AVX2" in features and cpu_flags and "avx2" not in cpu_flags:
            report.add(
                "llama.cpp build",
                "fail",
                f"{system} -- uses AVX2, which this CPU does not have",
                REBUILD_HINT,
            )
        else:
            report.add("llama.cpp build", "ok", system)
        report.add("cpu variant", "ok", f"{runtime}: {variant}")
        report.add(
            "threads",
            "ok",
            f"{info.get('n_threads_generation', info.get('n_threads'))} generating,"
            f" {info.get('n_threads')} evaluating prompts",
        )
        started = time.perf_counter()
        reply = backend.request(
            "generate",
            {
                "messages": [{"role": "user", "content": "Say hello in five words."}],
                "schema": None,
                "settings": asdict(
                    GenerationSettings(temperature=0.0, max_tokens=PROBE_TOKENS, seed=0)
                ),
            },
        )
        seconds = time.perf_counter() - started
        timings = reply.get("timings") or {}
        generated = int(timings.get("generated_tokens", 0))
        gen_ms = float(timings.get("generation_ms", 0.0))
        speed = f"{generated / (gen_ms / 1000):.1f} tokens/s" if gen_ms > 0 else "speed unknown"
        report.add(
            "generation",
            "ok",
            f"{reply.get('completion_tokens')} tokens in {seconds:.2f} s in the worker ({speed})",
        )
    except MootError as exc:
        report.add("generation", "fail", str(exc), REBUILD_HINT)
    finally:
        backend.stop()


def _check_store(report: Report) -> None:
    from moot.store import MIGRATIONS, Store
    from moot.store.connection import default_location, is_url

    location = default_location()
    postgres = is_url(location)
    shown = str(location)
    fix = (
        "check that the server is up and reachable from here, and the password in"
        " PGPASSWORD or ~/.pgpass (never in the URL); then moot store migrate"
        if postgres
        else "set MOOT_HOME to a writable directory, or move the broken moot.db aside"
    )
    try:
        if postgres:
            from moot.store.postgres import public_url

            shown = public_url(shown)
        with Store(location) as store:
            applied = [name for name, _ in store.migrations()]
            server = store.server()
            search = store.trigram_search()
            started = time.perf_counter()
            for _ in range(ROUND_TRIPS):
                store.get_debate("doctor")
            round_trip_ms = (time.perf_counter() - started) / ROUND_TRIPS * 1000
    except (MootError, OSError, sqlite3.Error) as exc:
        report.add("run store", "fail", f"{shown}: {exc}", fix)
        return
    latest = MIGRATIONS[-1][0]
    current = applied[-1] if applied else "none"
    detail = f"{shown} ({server}, schema {current}, {len(applied)} migrations"
    if postgres:
        detail += f", a read {round_trip_ms:.1f} ms"
    report.add("run store", "ok" if current == latest else "warn", detail + ")")
    if not search:
        report.add(
            "source search",
            "warn",
            f"{shown} has no pg_trgm extension: a search of the sources reads every"
            " passage of the documents asked for",
            "CREATE EXTENSION pg_trgm in that database (as its owner), then moot store migrate",
        )


def _check_specs(report: Report, specs: Sequence[str]) -> None:
    from moot.llm.backend import resolve_backend

    for spec in specs:
        if spec.startswith("local"):
            report.add("model spec", "ok", spec)
            continue
        try:
            backend = resolve_backend(spec)
        except MootError as exc:
            report.add("model spec", "fail", f"{spec}: {exc}", "fix the spec or its key variable")
            continue
        report.add("model spec", "ok", backend.spec)
    for variable in (*KEY_VARIABLES, "OPENAI_BASE_URL"):
        value = os.environ.get(variable)
        if value is None:
            continue
        shown = value if variable == "OPENAI_BASE_URL" else mask(value)
        report.add("environment", "ok", f"{variable} {shown}")


def diagnose(specs: Sequence[str]) -> Report:
    """Run every check for the model ``specs`` in use."""
    report = Report()
    flags = _check_platform(report)
    local_specs = sorted({s for s in specs if s == "local" or s.startswith("local:")})
    for spec in local_specs:
        _check_local(report, spec, flags)
    _check_store(report)
    _check_specs(report, specs)
    return report
