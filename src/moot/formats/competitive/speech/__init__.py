"""Speaking time: speeches synthesised with espeak-ng (from the ``espeakng-loader``
package) and measured, and the controller that fits a speech into its time window.
See docs/competitive.md."""

from moot.formats.competitive.speech.duration import (
    MAX_TRIES,
    OVERRUN,
    SECONDS_PER_WORD,
    TOLERANCE,
    BudgetSearch,
    BudgetStep,
    Clock,
    DurationSource,
    EspeakClock,
    EstimateClock,
    TimedSpeech,
    acontrol_duration,
    control_duration,
    default_clock,
)
from moot.formats.competitive.speech.espeak import (
    VOICES,
    Espeak,
    SpeechError,
    SpeechUnavailable,
    Synthesis,
    Voice,
    espeak,
    locate,
)
from moot.formats.competitive.speech.wav import write_wav

__all__ = [
    "MAX_TRIES",
    "OVERRUN",
    "SECONDS_PER_WORD",
    "TOLERANCE",
    "VOICES",
    "BudgetSearch",
    "BudgetStep",
    "Clock",
    "DurationSource",
    "Espeak",
    "EspeakClock",
    "EstimateClock",
    "SpeechError",
    "SpeechUnavailable",
    "Synthesis",
    "TimedSpeech",
    "Voice",
    "acontrol_duration",
    "control_duration",
    "default_clock",
    "espeak",
    "locate",
    "write_wav",
]
