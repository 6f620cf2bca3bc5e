"""Technical indicators against values worked out by hand (the working is in the
comments; fractions are exact)."""

from __future__ import annotations

import datetime as dt

import pytest

from moot.formats.market.data import indicators as ind
from moot.formats.market.data.build import index_quote, technicals, tidy
from moot.formats.market.data.series import PriceBar, PriceSeries


def test_sma() -> None:
    assert ind.sma([1, 2, 3, 4, 5], 3) == 4.0  # (3 + 4 + 5) / 3
    assert ind.sma([1, 2, 3, 4, 5], 5) == 3.0
    assert ind.sma([1, 2, 3, 4, 5], 6) is None


def test_ema_seeded_with_sma() -> None:
    # n = 3: alpha = 2 / 4 = 0.5; seed = mean(2, 4, 6) = 4;
    # then 0.5 * 8 + 0.5 * 4 = 6; 0.5 * 10 + 0.5 * 6 = 8
    assert ind.ema_series([2, 4, 6, 8, 10], 3) == [None, None, 4.0, 6.0, 8.0]
    assert ind.ema_series([2, 4], 3) == [None, None]


def test_macd_small_periods_by_hand() -> None:
    # closes 10, 11, 13, 12, 14, 15 with fast = 2, slow = 3, signal = 2
    # EMA-2 (alpha 2/3): 21/2, 73/6, 217/18, 721/54, 2341/162 (from the 2nd close)
    # EMA-3 (alpha 1/2): 34/3, 35/3, 77/6, 167/12 (from the 3rd close)
    # MACD line: 73/6 - 34/3 = 5/6, 217/18 - 35/3 = 7/18, 721/54 - 77/6 = 14/27,
    #            2341/162 - 167/12 = 173/324
    # signal (EMA-2 of the line): seed (5/6 + 7/18) / 2 = 11/18,
    #   2/3 * 14/27 + 1/3 * 11/18 = 89/162, 2/3 * 173/324 + 1/3 * 89/162 = 131/243
    # histogram: 173/324 - 131/243 = -5/972
    macd = ind.macd([10, 11, 13, 12, 14, 15], fast=2, slow=3, signal=2)
    assert macd is not None
    assert macd.line == pytest.approx(173 / 324, abs=1e-12)
    assert macd.signal == pytest.approx(131 / 243, abs=1e-12)
    assert macd.histogram == pytest.approx(-5 / 972, abs=1e-12)
    # one close fewer: the line has 3 values, the signal needs 2 -> still defined
    assert ind.macd([10, 11, 13, 12, 14], fast=2, slow=3, signal=2) is not None
    # the line needs slow = 3 closes and the signal 2 line values: 4 closes in all
    assert ind.macd([10, 11, 13], fast=2, slow=3, signal=2) is None


def test_macd_default_periods_on_a_straight_line() -> None:
    # On c_t = 100 + 2t an EMA-n seeded with the SMA lags by exactly (n - 1) / 2 steps:
    # EMA-n = c_t - (n - 1). MACD = (c - 11) - (c - 25) = 14 = signal; histogram 0.
    closes = [100.0 + 2 * t for t in range(60)]
    macd = ind.macd(closes)
    assert macd is not None
    assert macd.line == pytest.approx(14.0, abs=1e-9)
    assert macd.signal == pytest.approx(14.0, abs=1e-9)
    assert macd.histogram == pytest.approx(0.0, abs=1e-9)
    assert ind.macd(closes[:33]) is None  # the signal needs 26 + 9 - 1 = 34 closes
    assert ind.macd(closes[:34]) is not None


def rsi_closes() -> list[float]:
    changes = [1.0, -0.5] * 7  # 14 changes: gains 7 x 1, losses 7 x 0.5
    closes = [100.0]
    for change in changes:
        closes.append(closes[-1] + change)
    return closes


def test_rsi_wilder_by_hand() -> None:
    closes = rsi_closes()
    # first averages: gain 7 / 14 = 0.5, loss 3.5 / 14 = 0.25; RS = 2; RSI = 100 - 100/3
    assert ind.rsi(closes) == pytest.approx(200 / 3, abs=1e-12)
    # +1.5: gain (0.5 * 13 + 1.5) / 14 = 8/14, loss 0.25 * 13 / 14 = 3.25/14
    # RS = 8 / 3.25 = 32/13; RSI = 100 - 100 / (45/13) = 640/9
    closes.append(closes[-1] + 1.5)
    assert ind.rsi(closes) == pytest.approx(640 / 9, abs=1e-12)
    # -2: gain 8/14 * 13 / 14 = 26/49, loss (3.25/14 * 13 + 2) / 14 = 281/784
    # RS = (26/49) / (281/784) = 416/281; RSI = 100 - 100 * 281/697 = 41600/697
    closes.append(closes[-1] - 2.0)
    assert ind.rsi(closes) == pytest.approx(41600 / 697, abs=1e-12)


def test_rsi_edges() -> None:
    assert ind.rsi([float(x) for x in range(1, 16)]) == 100.0  # no loss
    assert ind.rsi([5.0] * 15) == 50.0  # no change at all
    assert ind.rsi([float(x) for x in range(15, 0, -1)]) == 0.0  # no gain
    assert ind.rsi([1.0] * 14) is None  # 13 changes: too few


def atr_bars() -> tuple[list[float], list[float], list[float]]:
    highs = [10, 11, 12, 10.5, 9, 12]
    lows = [8, 9, 10, 7, 8.5, 11]
    closes = [9, 10.5, 10, 8, 8.8, 11.5]
    return highs, lows, closes


def test_true_range_and_atr_by_hand() -> None:
    highs, lows, closes = atr_bars()
    # bar 1: max(11-9, |11-9|, |9-9|) = 2;  bar 2: max(2, |12-10.5|, |10-10.5|) = 2
    # bar 3: max(3.5, |10.5-10|, |7-10|) = 3.5;  bar 4: max(0.5, |9-8|, |8.5-8|) = 1
    # bar 5: max(1, |12-8.8|, |11-8.8|) = 3.2 (the gap counts)
    assert ind.true_ranges(highs, lows, closes) == pytest.approx([2, 2, 3.5, 1, 3.2])
    # ATR-3: mean(2, 2, 3.5) = 2.5; (2.5 * 2 + 1) / 3 = 2; (2 * 2 + 3.2) / 3 = 2.4
    assert ind.atr(highs, lows, closes, n=3) == pytest.approx(2.4, abs=1e-12)
    assert ind.atr(highs[:4], lows[:4], closes[:4], n=3) == pytest.approx(2.5, abs=1e-12)
    assert ind.atr(highs[:3], lows[:3], closes[:3], n=3) is None


def test_atr_default_period_on_constant_ranges() -> None:
    closes = [100.0] * 15
    assert ind.atr([101.0] * 15, [99.0] * 15, closes) == 2.0  # every TR is 2
    assert ind.atr([101.0] * 14, [99.0] * 14, closes[:14]) is None


def test_volume_ratio() -> None:
    assert ind.volume_ratio([100.0] * 20 + [150.0]) == 1.5
    # mean of the 20 before the last: (19 * 100 + 300) / 20 = 110; 150 / 110
    assert ind.volume_ratio([100.0] * 19 + [300.0, 150.0]) == pytest.approx(150 / 110)
    assert ind.volume_ratio([100.0] * 20) is None  # needs 21
    assert ind.volume_ratio([0.0] * 20 + [5.0]) is None  # no mean to divide by


def test_period_returns() -> None:
    assert ind.period_return([100, 110, 99], 1) == pytest.approx(-10.0)  # 99 / 110 - 1
    assert ind.period_return([100, 110, 99], 2) == pytest.approx(-1.0)  # 99 / 100 - 1
    assert ind.period_return([100, 110, 99], 3) is None


def test_range_52w_small_window() -> None:
    # last 3 bars: high max(9, 7, 6) = 9, low min(3, 4, 2) = 2; close 5
    window = ind.range_52w([5, 9, 7, 6], [1, 3, 4, 2], [4, 8, 6, 5], window=3)
    assert window is not None
    assert (window.high, window.low) == (9, 2)
    assert window.vs_high_pct == pytest.approx((5 / 9 - 1) * 100)  # -44.44
    assert window.vs_low_pct == pytest.approx(150.0)  # 5 / 2 - 1
    assert ind.range_52w([1.0] * 251, [1.0] * 251, [1.0] * 251) is None


def test_bad_periods_are_refused() -> None:
    with pytest.raises(ValueError, match="period must be at least 1"):
        ind.sma([1.0], 0)
    with pytest.raises(ValueError, match="fast < slow"):
        ind.macd([1.0] * 50, fast=26, slow=12)
    with pytest.raises(ValueError, match="same length"):
        ind.atr([1.0, 2.0], [1.0], [1.0, 2.0])


def linear_series(n: int = 300) -> PriceSeries:
    """c_t = 100 + t, high = c + 1, low = c - 1, open = c; volume 1000, last 2000."""
    start = dt.date(2020, 1, 1)
    bars = [
        PriceBar(start + dt.timedelta(days=t), 100.0 + t, 101.0 + t, 99.0 + t, 100.0 + t, 1000.0)
        for t in range(n)
    ]
    bars[-1] = PriceBar(bars[-1].date, 399.0, 400.0, 398.0, 399.0, 2000.0)
    return PriceSeries(tuple(bars))


def test_kb_technicals_from_a_series_by_hand() -> None:
    tech = technicals(linear_series())
    # last close 399; SMA-20 = mean(380..399) = 389.5; SMA-50 = 374.5; SMA-200 = 299.5
    assert (tech.sma_20, tech.sma_50, tech.sma_200) == (389.5, 374.5, 299.5)
    assert tech.close_vs_sma_20_pct == 2.44  # (399 / 389.5 - 1) * 100 = 2.439
    assert tech.close_vs_sma_200_pct == 33.22  # (399 / 299.5 - 1) * 100 = 33.222
    assert tech.rsi_14 == 100.0  # only gains
    assert (tech.macd, tech.macd_signal, tech.macd_histogram) == (7.0, 7.0, 0.0)  # (25-11)/2
    assert tech.atr_14 == 2.0  # every true range is 2
    assert tech.atr_14_pct == 0.5  # 2 / 399 = 0.501%
    assert tech.volume_ratio == 2.0  # 2000 / 1000


def test_kb_index_quote_from_a_series_by_hand() -> None:
    quote = index_quote("Line", linear_series())
    assert quote.close == 399.0
    assert quote.return_1d_pct == 0.25  # 399 / 398 - 1 = 0.2513%
    assert quote.return_20d_pct == 5.28  # 399 / 379 - 1 = 5.277%
    assert quote.return_252d_pct == 171.43  # 399 / 147 - 1
    # last 252 bars: t = 48..299; highest high 400, lowest low 148 - 1 = 147
    assert (quote.high_52w, quote.low_52w) == (400.0, 147.0)
    assert quote.vs_52w_high_pct == -0.25  # 399 / 400 - 1
    assert quote.vs_52w_low_pct == 171.43
    short = index_quote("Short", linear_series(30))
    assert short.return_60d_pct is None
    assert short.high_52w is None


def test_tidy_rounding() -> None:
    assert tidy(28.4567) == 28.46
    assert tidy(-0.0866) == -0.087  # below 0.1: 2 significant digits
    assert tidy(-1.8e-15) == 0.0  # floating-point noise
    assert tidy(0.006543) == 0.0065
    assert tidy(0.0) == 0.0
    assert tidy(None) is None
