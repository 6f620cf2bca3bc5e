"""espeak-ng from the espeakng-loader wheel: real synthesis of English and Mandarin,
durations that grow with the text, WAV files, and how the library is found."""

from __future__ import annotations

import array
import os
import subprocess
import sys
import threading
import wave
from pathlib import Path

import pytest

from moot.errors import ConfigError
from moot.formats.competitive.speech import (
    SpeechUnavailable,
    Synthesis,
    espeak,
    locate,
    write_wav,
)
from moot.text import sentence_ends, word_count

DATA = Path(__file__).parent.parent / "data" / "speech"
EN = (DATA / "en.txt").read_text(encoding="utf-8")
ZH = (DATA / "zh.txt").read_text(encoding="utf-8")
REPEAT = 0.05
"""Seconds two syntheses of a short text may differ by: espeak-ng's durations vary a
little from run to run (measured: up to 0.02 s on a sentence, 0.1 s on 4 minutes)."""


def test_the_library_and_its_data_come_from_the_wheel() -> None:
    library, data = locate()
    assert "espeakng_loader" in library.parts
    assert (data / "cmn_dict").is_file()
    assert (data / "en_dict").is_file()
    engine = espeak()
    assert engine.version.startswith("1.5")
    assert engine.sample_rate == 22050


def test_a_short_english_sentence_lasts_about_a_second() -> None:
    seconds = espeak().synthesise("Thank you, chair.", "en").seconds
    assert 0.6 < seconds < 2.5


@pytest.mark.parametrize(("lang", "text"), [("en", EN), ("zh", ZH)])
def test_a_speech_is_read_at_a_speakers_pace(lang: str, text: str) -> None:
    """About 130-140 words a minute (a Chinese word being 1.5 characters)."""
    seconds = espeak().synthesise(text, lang).seconds
    per_minute = word_count(text) / seconds * 60
    assert 115 < per_minute < 155, per_minute


@pytest.mark.parametrize(("lang", "text"), [("en", EN), ("zh", ZH)])
def test_longer_text_takes_longer(lang: str, text: str) -> None:
    ends = sentence_ends(text)
    prefixes = [text[:end] for end in ends[:: max(1, len(ends) // 6)]]
    durations = [espeak().synthesise(prefix, lang).seconds for prefix in prefixes]
    assert durations == sorted(durations)
    assert len(set(durations)) == len(durations)
    # doubling the text roughly doubles the time (the Mandarin voice reads every character)
    half = espeak().synthesise(text[: len(text) // 2], lang).seconds
    assert 1.7 < espeak().synthesise(text, lang).seconds / half < 2.3


def test_chinese_is_read_by_the_mandarin_voice() -> None:
    """Read by the English voice, Chinese characters would not be spoken one by one;
    the Mandarin voice gives each character about a third of a second."""
    sentence = "我们认为海南更适合冬天旅行。"
    seconds = espeak().synthesise(sentence, "zh").seconds
    assert 0.2 < seconds / 13 < 0.5


def test_the_audio_is_kept_when_asked() -> None:
    plain = espeak().synthesise("One, two, three.", "en")
    kept = espeak().synthesise("One, two, three.", "en", keep_audio=True)
    assert plain.audio is None
    assert kept.audio is not None
    assert len(kept.audio) == 2 * kept.samples
    assert kept.seconds == pytest.approx(plain.seconds, abs=REPEAT)


@pytest.mark.parametrize(("lang", "text"), [("en", "Thank you, chair."), ("zh", "谢谢主席。")])
def test_a_wav_file_is_valid(tmp_path: Path, lang: str, text: str) -> None:
    synthesis = espeak().synthesise(text, lang, keep_audio=True)
    path = write_wav(tmp_path / "speeches" / f"{lang}.wav", synthesis)
    header = path.read_bytes()[:12]
    assert header[:4] == b"RIFF"
    assert header[8:12] == b"WAVE"
    with wave.open(str(path), "rb") as audio:
        assert audio.getnchannels() == 1
        assert audio.getsampwidth() == 2
        assert audio.getframerate() == synthesis.sample_rate
        assert audio.getnframes() == synthesis.samples
        samples = array.array("h", audio.readframes(audio.getnframes()))
    assert max(abs(s) for s in samples) > 1000  # speech, not silence


def test_a_wav_needs_the_audio(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="keep_audio=True"):
        write_wav(tmp_path / "x.wav", Synthesis(samples=10, sample_rate=22050))


def test_an_unknown_language_is_refused() -> None:
    with pytest.raises(ConfigError, match="no voice for language 'fr'"):
        espeak().synthesise("Bonjour.", "fr")


def test_concurrent_callers_get_their_own_durations() -> None:
    texts = [("en", EN[:400]), ("zh", ZH[:200]), ("en", EN[:900]), ("zh", ZH[:500])]
    alone = [espeak().synthesise(text, lang).seconds for lang, text in texts]
    together: dict[int, float] = {}

    def run(index: int) -> None:
        lang, text = texts[index]
        together[index] = espeak().synthesise(text, lang).seconds

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(texts)) for _ in (0, 1)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert [together[i] for i in range(len(texts))] == pytest.approx(alone, abs=REPEAT)


def test_the_environment_can_name_another_build(monkeypatch: pytest.MonkeyPatch) -> None:
    library, data = locate()
    monkeypatch.setenv("MOOT_ESPEAK_LIBRARY", str(library))
    monkeypatch.setenv("MOOT_ESPEAK_DATA", str(data))
    assert locate() == (library, data)
    monkeypatch.delenv("MOOT_ESPEAK_DATA")
    with pytest.raises(SpeechUnavailable, match="set both MOOT_ESPEAK_LIBRARY and"):
        locate()
    monkeypatch.setenv("MOOT_ESPEAK_DATA", str(library.parent))
    with pytest.raises(SpeechUnavailable, match="no espeak-ng voice data in"):
        locate()
    monkeypatch.setenv("MOOT_ESPEAK_LIBRARY", str(library.parent / "missing.so"))
    with pytest.raises(SpeechUnavailable, match="no espeak-ng library at"):
        locate()


@pytest.mark.process
def test_without_espeak_the_estimate_is_used_and_labelled(tmp_path: Path) -> None:
    """In a process where espeak-ng cannot be found, durations are estimates, and the
    controller's result says so."""
    script = (
        "from moot.formats.competitive.speech import control_duration, default_clock\n"
        "clock = default_clock()\n"
        "print(clock.source)\n"
        "print(clock.reason)\n"
        "result = control_duration(lambda n: 'word ' * n, 120, 'en')\n"
        "print(result.duration_source, result.measured_seconds, len(result.steps))\n"
    )
    env = {
        **os.environ,
        "MOOT_ESPEAK_LIBRARY": str(tmp_path / "none.so"),
        "MOOT_ESPEAK_DATA": str(tmp_path),
    }
    done = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True
    )
    source, reason, result = done.stdout.splitlines()
    assert source == "estimate"
    assert reason.startswith("no espeak-ng library at")
    assert result == "estimate 120.06 1"  # 261 words * 0.46 s
