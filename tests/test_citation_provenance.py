"""The citation verifier's general rules drawn from the false flags of four held-out
sets (docs/citation-verification.md, "Numbers" rules 6-9 and "Provenance"): where a
number not in the cited passage comes from, versions and identifiers as names,
durations in days, dates and ordinals read as the passage writes them."""

from __future__ import annotations

from moot.sources.numbers import read_numbers
from moot.sources.verify import verify_citation

SCHEDULE = (
    "3.10 will receive bugfix updates approximately every 2 months for\n"
    "approximately 18 months.  Some time after the release of 3.11.0 final,\n"
    "the 11th and final 3.10 bugfix update will be released."
)
CADENCE = "a 17-month development period that results in a 12-month release cadence"
SURVEY = "Last year, 16.2% of respondents said that upgrading broke their code."
OTHER = "Medium- and large-scale projects now make up 16% of respondents."
OTHERS = [("S1:p2", OTHER), ("S2:p1", "Daily users have fallen from 19% to 17.5%.")]


def status(
    passage: str, quote: str, claim: str, *, elsewhere: list[tuple[str, str]] | None = None
) -> str:
    others = OTHERS if elsewhere is None else elsewhere
    return verify_citation(passage, quote, claim, "en", others).status


def test_a_number_of_another_passage_is_a_mismatch_that_names_where_it_is() -> None:
    check = verify_citation(SURVEY, "16.2% of respondents", "Daily use fell to 17.5%.", "en",
                            OTHERS)  # fmt: skip
    assert check.status == "number_mismatch"
    assert "stated in S2:p1" in check.note
    zh = verify_citation(SURVEY, "16.2% of respondents", "17.5%", "zh", OTHERS)
    assert "出现在 S2:p1" in zh.note
    # with no other passages given, the same claim is flagged without a provenance
    bare = verify_citation(SURVEY, "16.2% of respondents", "Daily use fell to 17.5%.", "en")
    assert bare.status == "number_mismatch"
    assert "stated in" not in bare.note


def test_provenance_reads_numbers_written_in_chinese_numerals_either_way() -> None:
    plan = "项目预算已获批准，由董事会负责监督。"
    chinese = [("S1:p1", "今天统一行动。"), ("S1:p2", "项目周期为十八个月，预算三百万元。")]
    digits = [("S1:p1", "今天统一行动。"), ("S1:p2", "项目周期为18个月，预算300万元。")]
    for claim, others in (("项目需要18个月", chinese), ("预算为300万元", chinese),
                          ("项目需要十八个月", digits)):  # fmt: skip
        check = verify_citation(plan, "项目预算已获批准", claim, "zh", others)
        assert check.status == "number_mismatch"
        assert "出现在 S1:p2" in check.note, claim
    # a passage whose Chinese numerals give another value is no provenance
    check = verify_citation(plan, "项目预算已获批准", "项目需要18个月", "zh",
                            [("S1:p2", "项目周期为十九个月。")])  # fmt: skip
    assert "出现在" not in check.note


def test_a_small_count_has_no_provenance_note() -> None:
    # small numbers occur everywhere: naming a passage that holds "3" would mislead
    check = verify_citation("Members: Alice and Bob.", "Members", "3 members", "en",
                            [("S2:p1", "The board has 3 seats.")])  # fmt: skip
    assert check.status == "number_mismatch"
    assert "stated in" not in check.note


def test_parallel_items_give_their_count_and_prose_does_not() -> None:
    peps = "* :pep:`634`, :pep:`635`, :pep:`636`, Structural Pattern Matching"
    assert status(peps, "Structural Pattern Matching", "it took 3 PEPs", elsewhere=[]) == (
        "verified"
    )
    sizes = "我们发布了 1.8B、7B 和 20B 大小的奖励模型。"
    assert status(sizes, "我们发布了", "奖励模型有3种规格", elsewhere=[]) == "verified"
    assert status(sizes, "我们发布了", "奖励模型有2种规格", elsewhere=[]) == "number_mismatch"
    both = "InternLM-20B 已发布，包括基础版和对话版。"
    assert status(both, "包括基础版和对话版", "发布了2个版本", elsewhere=[]) == "verified"
    prose = "rather than themselves or their employers, the mere appearance of any one company"
    assert status(prose, prose, "no more than 3 members", elsewhere=[]) == "number_mismatch"


def test_a_count_is_whole_and_no_percentage() -> None:
    crew = "- 3.10 Release Manager: Pablo Galindo Salgado"
    assert status(crew, "Release Manager", "the crew has 3 roles", elsewhere=[]) == (
        "number_mismatch"
    )
    assert status(crew, "Release Manager", "about 3 roles", elsewhere=[]) == "verified"
    pair = "Rates were set by the Boston and Chicago banks."
    assert status(pair, pair, "two banks, 2 of them", elsewhere=[]) == "verified"
    assert status(pair, pair, "rates of 2 percent", elsewhere=[]) == "number_mismatch"


def test_a_version_is_a_name_not_a_quantity() -> None:
    # 3.10 and 3.11.0 are versions: no truncation to "3 years"
    assert status(SCHEDULE, "3.10 will receive", "support lasts 3 years", elsewhere=[]) == (
        "number_mismatch"
    )
    assert status(SCHEDULE, "3.10 will receive", "Python 3.10 is supported", elsewhere=[]) == (
        "verified"
    )
    # a three-part version supports the feature version it starts with
    release = "- 3.12.0 final: Monday, 2023-10-02"
    assert status(release, "3.12.0 final", "Python 3.12 was released", elsewhere=[]) == ("verified")
    assert status(release, "3.12.0 final", "Python 3.1 was released", elsewhere=[]) == (
        "number_mismatch"
    )
    named = "OpenSSL 1.1.1 or newer; Python 3.12 and TiDB 2.0."
    assert [n.version for n in read_numbers(named)] == [True, True, True]


def test_numbers_inside_identifiers_are_tokens_of_the_passage() -> None:
    reward = "我们发布了 InternLM2-20B-Reward 奖励模型。"
    assert status(reward, "我们发布了", "奖励模型有 20B 参数", elsewhere=[]) == "verified"
    assert status(reward, "我们发布了", "奖励模型有 7B 参数", elsewhere=[]) == "number_mismatch"
    # a token, not a quantity: not "200亿" or "20"; the digit glued to the name is its
    # generation
    assert status(reward, "我们发布了", "奖励模型有200亿参数", elsewhere=[]) == "number_mismatch"
    assert status(reward, "我们发布了", "奖励模型有 2 个", elsewhere=[]) == "number_mismatch"


def test_durations_compare_in_days() -> None:
    assert status(CADENCE, CADENCE, "a release every 1 year", elsewhere=[]) == "verified"
    assert status(CADENCE, CADENCE, "a release every 2 years", elsewhere=[]) == ("number_mismatch")
    support = "until 5 years after the release"
    assert status(support, support, "for 60 months", elsewhere=[]) == "verified"
    assert status(support, support, "for 50 months", elsewhere=[]) == "number_mismatch"
    words = "a deprecation period of twenty four months"
    assert status(words, words, "2 years of deprecation", elsewhere=[]) == "verified"
    assert status(words, words, "4 years of deprecation", elsewhere=[]) == "number_mismatch"


def test_dotted_dates_and_ordinals_are_read_as_the_passage_writes_them() -> None:
    news = "[2024.07.19] 我们发布了奖励模型。"
    assert status(news, "我们发布了奖励模型", "2024年7月19日发布", elsewhere=[]) == "verified"
    assert status(news, "我们发布了奖励模型", "2024年7月20日发布", elsewhere=[]) == (
        "number_mismatch"
    )
    assert status(SCHEDULE, "the 11th and final", "11 bugfix updates", elsewhere=[]) == ("verified")
    tenth = "the tenth and final 3.12 bugfix update was released"
    assert status(tenth, tenth, "10 bugfix updates in all", elsewhere=[]) == "verified"
    assert status(tenth, tenth, "12 bugfix updates in all", elsewhere=[]) == "number_mismatch"
