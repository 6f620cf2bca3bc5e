"""The viewer's journal pages name a stored run's positions as its result does."""

from __future__ import annotations

import pytest

from moot.options import RunOptions
from moot.view.names import position_names


def _config(lang: str) -> dict[str, object]:
    return {"options": RunOptions(lang=lang).as_json()}


@pytest.mark.parametrize(
    ("topic", "lang", "names"),
    [
        (
            "Hainan or the North-East for a winter trip?",
            "en",
            {"pro": "Pro (Hainan)", "con": "Con (the North-East)"},
        ),
        ("冬季旅行去海南还是去东北？", "zh", {"pro": "正方（去海南）", "con": "反方（去东北）"}),
        ("Should a 10-person startup adopt microservices?", "en", {"pro": "Pro", "con": "Con"}),
    ],
)
def test_an_a_or_b_run_names_each_side_with_its_option(
    topic: str, lang: str, names: dict[str, str]
) -> None:
    assert position_names("structured", _config(lang), lang, topic) == names


def test_a_page_in_another_language_keeps_the_plain_names() -> None:
    """The options are read in the run's language; a page in another one cannot name
    them in its own, so it keeps its own plain names."""
    names = position_names("structured", _config("zh"), "en", "冬季旅行去海南还是去东北？")
    assert names == {"pro": "Pro", "con": "Con"}


def test_a_format_without_options_in_its_names_is_unchanged() -> None:
    topic = "Hainan or the North-East for a winter trip?"
    assert position_names("freeform", _config("en"), "en", topic) == {"pro": "Pro", "con": "Con"}
