"""Technical indicators, computed from a series' values oldest first.

Each function returns the indicator's value at the last element, or ``None`` when
the series is too short for it. Definitions (also in docs/market.md):

- **SMA-n**: the mean of the last ``n`` closes.
- **EMA-n**: ``alpha = 2 / (n + 1)``; seeded with the SMA of the first ``n`` values,
  then ``EMA_t = alpha * x_t + (1 - alpha) * EMA_{t-1}``.
- **MACD (12, 26, 9)**: line = EMA-12 - EMA-26 of the closes (both as above, defined
  from the 26th close); signal = EMA-9 of the MACD line (seeded with the mean of its
  first 9 values, so defined from the 34th close); histogram = line - signal.
- **RSI-14, Wilder**: from the close-to-close changes; the first average gain (loss)
  is the mean of the first 14 gains (losses, as positive numbers), then
  ``avg = (avg * 13 + current) / 14``. RSI = 100 - 100 / (1 + avg gain / avg loss);
  100 when the average loss is 0, 50 when both are 0. Needs 15 closes.
- **ATR-14, Wilder**: true range ``TR_t = max(high_t - low_t, |high_t - close_{t-1}|,
  |low_t - close_{t-1}|)`` from the second bar on; the first ATR is the mean of the
  first 14 TRs, then ``ATR = (ATR * 13 + TR) / 14``. Needs 15 bars.
- **Volume ratio**: the last volume divided by the mean volume of the 20 sessions
  before it (the last session excluded). Needs 21 volumes; ``None`` if that mean is 0.
- **Return over k sessions**: ``(close_t / close_{t-k} - 1) * 100``. Needs k + 1 closes.
- **52-week range**: the highest high and lowest low of the last 252 bars; distance
  of the close from them in percent, ``(close / high - 1) * 100`` (<= 0) and
  ``(close / low - 1) * 100`` (>= 0). Needs 252 bars.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass

SESSIONS_PER_YEAR = 252


def _period(n: int, name: str = "period") -> None:
    if n < 1:
        raise ValueError(f"{name} must be at least 1, got {n}")


def sma(values: Sequence[float], n: int) -> float | None:
    """Simple moving average of the last ``n`` values."""
    _period(n)
    if len(values) < n:
        return None
    return math.fsum(values[-n:]) / n


def ema_series(values: Sequence[float], n: int) -> list[float | None]:
    """EMA-n at every position (``None`` before the ``n``-th value), seeded with the
    SMA of the first ``n`` values."""
    _period(n)
    out: list[float | None] = [None] * len(values)
    if len(values) < n:
        return out
    alpha = 2 / (n + 1)
    current = math.fsum(values[:n]) / n
    out[n - 1] = current
    for i in range(n, len(values)):
        current = alpha * values[i] + (1 - alpha) * current
        out[i] = current
    return out


@dataclass(frozen=True)
class Macd:
    line: float
    signal: float
    histogram: float


def macd(closes: Sequence[float], fast: int = 12, slow: int = 26, signal: int = 9) -> Macd | None:
    """MACD line, signal line and histogram at the last close (see the module docstring)."""
    if not 1 <= fast < slow:
        raise ValueError(f"MACD needs 1 <= fast < slow, got fast={fast}, slow={slow}")
    _period(signal, "signal")
    fast_ema, slow_ema = ema_series(closes, fast), ema_series(closes, slow)
    line = [
        f - s
        for f, s in zip(fast_ema[slow - 1 :], slow_ema[slow - 1 :], strict=True)
        if f is not None and s is not None
    ]
    signal_ema = ema_series(line, signal)
    if not signal_ema or signal_ema[-1] is None:
        return None
    return Macd(line[-1], signal_ema[-1], line[-1] - signal_ema[-1])


def _wilder(values: Sequence[float], n: int) -> float | None:
    """Wilder's smoothing: the mean of the first ``n`` values, then
    ``(previous * (n - 1) + value) / n`` for each later value."""
    if len(values) < n:
        return None
    current = math.fsum(values[:n]) / n
    for value in values[n:]:
        current = (current * (n - 1) + value) / n
    return current


def rsi(closes: Sequence[float], n: int = 14) -> float | None:
    """Relative strength index with Wilder's smoothing (see the module docstring)."""
    _period(n)
    changes = [b - a for a, b in itertools.pairwise(closes)]
    gain = _wilder([max(c, 0.0) for c in changes], n)
    loss = _wilder([max(-c, 0.0) for c in changes], n)
    if gain is None or loss is None:
        return None
    if loss == 0:
        return 50.0 if gain == 0 else 100.0
    return 100 - 100 / (1 + gain / loss)


def true_ranges(
    highs: Sequence[float], lows: Sequence[float], closes: Sequence[float]
) -> list[float]:
    """True range of every bar after the first."""
    if not len(highs) == len(lows) == len(closes):
        raise ValueError("highs, lows and closes must have the same length")
    return [
        max(highs[i] - lows[i], abs(highs[i] - closes[i - 1]), abs(lows[i] - closes[i - 1]))
        for i in range(1, len(closes))
    ]


def atr(
    highs: Sequence[float], lows: Sequence[float], closes: Sequence[float], n: int = 14
) -> float | None:
    """Average true range with Wilder's smoothing (see the module docstring)."""
    _period(n)
    return _wilder(true_ranges(highs, lows, closes), n)


def volume_ratio(volumes: Sequence[float], n: int = 20) -> float | None:
    """The last volume over the mean of the ``n`` volumes before it."""
    _period(n)
    if len(volumes) < n + 1:
        return None
    mean = math.fsum(volumes[-n - 1 : -1]) / n
    if mean == 0:
        return None
    return volumes[-1] / mean


def period_return(closes: Sequence[float], k: int) -> float | None:
    """Return over the last ``k`` sessions, in percent."""
    _period(k, "k")
    if len(closes) < k + 1:
        return None
    return (closes[-1] / closes[-1 - k] - 1) * 100


@dataclass(frozen=True)
class Range52w:
    high: float
    low: float
    vs_high_pct: float
    vs_low_pct: float


def range_52w(
    highs: Sequence[float],
    lows: Sequence[float],
    closes: Sequence[float],
    window: int = SESSIONS_PER_YEAR,
) -> Range52w | None:
    """The 52-week (``window``-bar) high and low and the close's distance from them."""
    _period(window, "window")
    if not len(highs) == len(lows) == len(closes):
        raise ValueError("highs, lows and closes must have the same length")
    if len(closes) < window:
        return None
    high, low, close = max(highs[-window:]), min(lows[-window:]), closes[-1]
    return Range52w(high, low, (close / high - 1) * 100, (close / low - 1) * 100)
