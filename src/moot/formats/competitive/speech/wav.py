"""Writing a synthesised speech as a WAV file (16-bit mono PCM)."""

from __future__ import annotations

import wave
from pathlib import Path

from moot.formats.competitive.speech.espeak import Synthesis


def write_wav(path: Path, synthesis: Synthesis) -> Path:
    """Write ``synthesis`` (synthesised with ``keep_audio=True``) to ``path``."""
    if synthesis.audio is None:
        raise ValueError("the synthesis kept no audio: synthesise with keep_audio=True")
    path.parent.mkdir(parents=True, exist_ok=True)
    with wave.open(str(path), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(synthesis.sample_rate)
        out.writeframes(synthesis.audio)
    return path
