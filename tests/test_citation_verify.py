"""The citation verifier (moot.sources.verify; docs/citation-verification.md): one
test per normalisation step and per number rule, each built so that it fails when its
rule is taken out (each case pairs what the rule accepts with what it must still
reject)."""

from __future__ import annotations

import pytest

from moot.numerals import cn_number
from moot.sources.normalize import find_quote, normalise_text
from moot.sources.numbers import read_numbers
from moot.sources.verify import CitationCheck, verify_citation

FOMC = (
    "The Committee decided today to lower its target for the\n"
    "federal funds rate by 50 basis points to 6 percent.  In a related action, the\n"
    "Board approved a 25-basis-point decrease in the discount rate to 5-3/4 percent,"
    " the level requested by seven Reserve Banks."
)


def status(passage: str, quote: str, claim: str = "", lang: str = "en") -> str:
    return verify_citation(passage, quote, claim, lang).status


# ---- statuses ---------------------------------------------------------------------


def test_the_four_statuses() -> None:
    assert status(FOMC, "lower its target", "cut by 50 basis points") == "verified"
    assert status(FOMC, "raise its target", "cut by 50 basis points") == "not_in_source"
    assert status(FOMC, "lower its target", "cut by 75 basis points") == "number_mismatch"
    assert status("", "lower its target", "cut by 50 basis points") == "no_source"
    assert status(" \n ", "lower its target") == "no_source"


def test_the_check_is_a_frozen_dataclass_with_a_note() -> None:
    check = verify_citation(FOMC, "lower its target", "cut by 75 basis points", "en")
    assert isinstance(check, CitationCheck)
    assert check.note == "not in the passage: 75 basis points (closest: 50 basis points)"
    with pytest.raises(AttributeError):
        check.status = "verified"  # type: ignore[misc]
    assert verify_citation(FOMC, "lower its target", "", "en").note == ""


def test_an_empty_quote_is_not_in_the_source() -> None:
    check = verify_citation(FOMC, " “” ", "cut by 50 basis points", "en")
    assert (check.status, check.note) == ("not_in_source", "the citation quotes nothing")


def test_notes_follow_the_language() -> None:
    zh = verify_citation("增长5.2%。", "增长5.2%", "增长了6%", "zh")
    assert zh.note == "段落中没有这些数字：6%（最接近的是 5.2%）"
    assert verify_citation("", "x", "", "zh-CN").note == "所引段落没有文字"


def test_a_quote_that_differs_only_in_a_number_says_which() -> None:
    check = verify_citation(FOMC, "by 75 basis points to 6 percent", "", "en")
    assert check.status == "not_in_source"
    assert "75 basis points (closest: 50 basis points)" in check.note
    other = verify_citation(FOMC, "by 50 basis points to 6 percent each year", "", "en")
    assert other.note == "the quote does not occur in the passage"


# ---- quote normalisation ----------------------------------------------------------


@pytest.mark.parametrize(
    ("passage", "quote", "altered"),
    [
        # 1. NFKC: full-width letters, digits and punctuation
        ("ＧＤＰ增长５．２％，好于预期", "GDP增长5.2%,好于预期", "GDP增长5.3%,好于预期"),
        # 2. case
        ("Inflation Remains Elevated.", "inflation remains elevated", "inflation remains high"),
        # 3. quotation marks: curly, straight, corner brackets
        ("He said “rates will rise” today.", 'said "rates will rise"', 'said "rates will fall"'),
        ("他说「利率将上升」。", "他说“利率将上升”", "他说“利率将下降”"),
        ("it’s elevated", "it's elevated", "it's lowered"),
        # 4. dashes and minus signs
        ("from 2020–2023 the rate fell", "from 2020-2023 the rate", "from 2020-2024 the rate"),
        # 5. whitespace: runs, line breaks, no-break and ideographic spaces, CJK spacing
        ("lower  its\ntarget\u00a0for", "lower its target for", "lower its goal for"),
        ("经济 总体\n回升　向好", "经济总体回升向好", "经济总体回落向好"),
        # 6. soft characters: zero-width space, soft hyphen
        ("infla\u00adtion re\u200bmains", "inflation remains", "inflation stays"),
        # 7. a hyphen at a line end inside a word
        ("a well-\nknown risk", "a well-known risk", "a well-known rise"),
    ],
)
def test_each_normalisation_finds_the_quote_and_still_rejects_a_change(
    passage: str, quote: str, altered: str
) -> None:
    assert status(passage, quote) == "verified"
    assert status(passage, altered) == "not_in_source"


def test_an_ellipsis_leaves_text_out_but_keeps_the_order() -> None:
    assert find_quote(FOMC, "the Committee decided … by 50 basis points")
    assert find_quote(FOMC, "the Committee decided [...] by 50 basis points")
    assert not find_quote(FOMC, "by 50 basis points ... the Committee decided")


def test_punctuation_at_the_ends_of_a_quote_is_ignored() -> None:
    assert find_quote(FOMC, "“lower its target for the federal funds rate.”")
    assert not find_quote(FOMC, "lower its target for the federal funds rate by 5")


def test_normalise_text_in_one_place() -> None:
    assert normalise_text(" “Ａ”\n—「b」 ") == '"a" -"b"'


# ---- numbers ----------------------------------------------------------------------


def numbers(text: str, *, liberal: bool = False) -> list[tuple[str, float]]:
    return [(n.kind, round(n.value, 6)) for n in read_numbers(text, liberal=liberal)]


def test_rounding_to_the_precision_written() -> None:
    passage = "Inflation was 3.75 percent."
    assert status(passage, "Inflation was", "inflation of 3.8%") == "verified"
    assert status(passage, "Inflation was", "inflation of about 4%") == "verified"
    assert status(passage, "Inflation was", "inflation of 3.9%") == "number_mismatch"
    assert status(passage, "Inflation was", "inflation of 3.751%") == "number_mismatch"


def test_signs_count_only_when_both_wrote_one() -> None:
    passage = "The index moved -3.2% on the day."
    assert status(passage, "The index moved", "it fell 3.2%") == "verified"
    assert status(passage, "The index moved", "it moved +3.2%") == "number_mismatch"


def test_thousands_separators_and_years() -> None:
    passage = "Sales reached 1,234,567 units in 2023."
    assert status(passage, "Sales reached", "1234567 units were sold in 2023") == "verified"
    assert status(passage, "Sales reached", "1234567 units were sold in 2020") == "number_mismatch"


def test_scale_words_compare_in_base_units() -> None:
    passage = "Revenue was $1.2 billion."
    assert status(passage, "Revenue was", "revenue of $1,200 million") == "verified"
    assert status(passage, "Revenue was", "收入12亿美元") == "verified"
    assert status(passage, "Revenue was", "revenue of $1.2 million") == "number_mismatch"


def test_a_table_unit_in_a_header_lets_a_scaled_figure_match_a_bare_one() -> None:
    passage = "Revenue (USD million): 4.2"
    assert status(passage, "Revenue (USD million)", "revenue was $4.2 million") == "verified"
    assert status(passage, "Revenue (USD million)", "revenue was $4.3 million") == "number_mismatch"


def test_percent_forms() -> None:
    passage = "Growth was 3.5 per cent, and the rate rose 25 basis points. 三成受访者同意。"
    assert status(passage, "Growth was", "growth of 3.5%") == "verified"
    assert status(passage, "Growth was", "增长百分之三点五") == "verified"
    assert status(passage, "Growth was", "a 0.25 percentage point rise") == "verified"
    assert status(passage, "Growth was", "30%的受访者同意") == "verified"
    assert status(passage, "Growth was", "a 0.5 percentage point rise") == "number_mismatch"
    assert numbers("35bp") == [("percent", 0.35)]


def test_tenths_after_digits_are_a_share() -> None:
    passage = "受访者中有 6 成使用容器部署。"
    assert numbers("6 成") == [("percent", 60.0)]
    assert status(passage, "使用容器部署", "六成受访者使用容器") == "verified"
    assert status(passage, "使用容器部署", "60%的受访者使用容器") == "verified"
    assert status(passage, "使用容器部署", "70%的受访者使用容器") == "number_mismatch"
    assert status(passage, "使用容器部署", "6%的受访者使用容器") == "number_mismatch"


def test_a_year_in_chinese_digits_is_a_date_not_a_duration() -> None:
    passage = "从 2023 年总体数据来说，活跃仓库数量达到了 8,792 万。"
    quote = "活跃仓库数量达到了 8,792 万"
    assert status(passage, quote, "二〇二三年，活跃仓库达到 8,792 万。", "zh") == "verified"
    assert status(passage, quote, "二〇二二年，活跃仓库达到 8,792 万。", "zh") == "number_mismatch"
    # a duration written in Chinese numerals is still one
    assert status(passage, quote, "三十年来活跃仓库达到 8,792 万。", "zh") == "number_mismatch"


def test_markdown_emphasis_is_left_out_of_a_quote() -> None:
    passage = "Most respondents (92%) still *deploy* to Linux systems."
    quote = "92%) still deploy to Linux systems"
    assert status(passage, quote, "92% deploy to Linux") == "verified"
    assert status(passage, "still deploy to Windows systems", "92% deploy") == "not_in_source"


@pytest.mark.parametrize(
    ("passage", "claim", "wrong"),
    [
        ("A quarter of members voted against.", "25% voted against", "20% voted against"),
        ("One in five households rents.", "20% of households rent", "25% of households rent"),
        ("三分之一的企业亏损。", "33%的企业亏损", "30%的企业亏损"),
        ("3/4 of the sample", "75% of the sample", "70% of the sample"),
        ("the rate rose to 5-3/4 percent", "a rate of 5.75%", "a rate of 5.5%"),
        ("a 1/4 percentage point increase", "a 25 basis point increase", "a 50bp increase"),
        ("a 25 basis point increase", "a quarter point increase", "a half point (0.5 pp) rise"),
        ("the rate rose to 2¼%", "a rate of 2.25%", "a rate of 2.5%"),
    ],
)
def test_fraction_forms(passage: str, claim: str, wrong: str) -> None:
    assert status(passage, passage[:8], claim) == "verified"
    assert status(passage, passage[:8], wrong) == "number_mismatch"


@pytest.mark.parametrize(
    ("passage", "claim", "wrong"),
    [
        ("二〇二三年，产量增长。", "2023年产量增长", "2022年产量增长"),
        ("飞流直下三千尺", "瀑布落下3000尺", "瀑布落下300尺"),
        ("一百零五人到场", "105人到场", "150人到场"),
        ("家书抵万金", "抵得上一万金", "抵得上一千金"),
        ("增长二十八点五倍", "增长28.5倍", "增长25.8倍"),
    ],
)
def test_chinese_numerals_as_the_market_check_reads_them(
    passage: str, claim: str, wrong: str
) -> None:
    assert status(passage, passage[:4], claim, "zh") == "verified"
    assert status(passage, passage[:4], wrong, "zh") == "number_mismatch"


def test_the_shared_reader_is_the_market_one() -> None:
    from moot.formats.market.data import citations

    assert vars(citations)["cn_number"] is cn_number
    assert cn_number("二〇二三") == (2023.0, 1.0)
    assert cn_number("万") == (10000.0, 1.0)


def test_small_counts_are_found_as_words() -> None:
    assert status(FOMC, "requested by seven Reserve Banks", "7 banks asked") == "verified"
    assert status(FOMC, "requested by seven Reserve Banks", "8 banks asked") == "number_mismatch"
    assert status("烽火连三月", "烽火连三月", "战火连了3个月", "zh") == "verified"


def test_hedged_numbers_round_at_their_trailing_zeros() -> None:
    passage = "南朝四百八十寺"
    assert status(passage, passage, "约500座寺", "zh") == "verified"
    assert status(passage, passage, "500座寺", "zh") == "number_mismatch"
    assert status("It has 1119 rows.", "It has", "about 1100 rows") == "verified"
    assert status("It has 1119 rows.", "It has", "1100 rows") == "number_mismatch"


def test_what_is_not_a_number() -> None:
    assert numbers("COVID-19 in Q3 at S2:p14, the 2nd G20 meeting") == []
    assert numbers("第3名，第三名") == []
    assert numbers("1. First\n(2) second") == []
    # in a claim, single Chinese numerals and words like 十分 are words
    assert numbers("这一政策十分重要，三方面；万一失败，千万不要放弃") == []
    assert numbers("三方面", liberal=True) == [("number", 3.0)]


def test_digits_in_chinese_text_and_with_unit_suffixes_are_read() -> None:
    assert numbers("初代模型最多只能生成1911个字符，需要13GB显存") == [
        ("number", 1911.0),
        ("number", 13.0),
    ]
    assert numbers("从2K扩展到32K") == [("number", 2000.0), ("number", 32000.0)]


def test_a_slash_fraction_lends_no_parts_to_other_claims() -> None:
    passage = "a discount rate of 1/2 percent"
    assert status(passage, "a discount rate", "a rate of 2 percent") == "number_mismatch"
    assert status(passage, "a discount rate", "a rate of 0.5 percent") == "verified"
    vote = "Three quarters, 3/4 of the vote, went to the motion."
    assert status(vote, "the motion", "75% backed it") == "verified"
    assert status(vote, "the motion", "it won 4 votes") == "number_mismatch"


def test_a_list_of_names_gives_its_count() -> None:
    passage = "requests of the Reserve Banks of Boston, Cleveland, Richmond, and San Francisco."
    assert status(passage, "requests of the Reserve Banks", "4 Reserve Banks asked") == "verified"
    assert status(passage, "requests of the Reserve Banks", "5 Reserve Banks asked") == (
        "number_mismatch"
    )
    two = "the Federal Reserve Banks\nof Chicago and Minneapolis."
    assert status(two, "Reserve Banks", "2 banks asked") == "verified"
    assert status(two, "Reserve Banks", "3 banks asked") == "number_mismatch"
    # lower-case words joined by "and" are no list of names
    assert status("the Board and the Committee met", "the Board", "2 bodies met") == (
        "number_mismatch"
    )
    zh = "试点城市包括北京、上海和广州。"
    assert status(zh, "试点城市包括北京", "有3个试点城市", "zh") == "verified"
    assert status(zh, "试点城市包括北京", "有4个试点城市", "zh") == "number_mismatch"
    # 和 joins two items of one shape ("中文和英文", docs rule 7) but not clauses
    assert status("支持中文和英文", "支持中文和英文", "支持2种语言", "zh") == "verified"
    assert status("他在北京工作和学习", "他在北京", "做2件事", "zh") == "number_mismatch"


def test_compound_number_words_are_one_number() -> None:
    passage = "During the first twenty four months it receives bugfix releases."
    assert status(passage, "the first twenty four months", "24 months of fixes") == "verified"
    assert status(passage, "the first twenty four months", "4 months of fixes") == (
        "number_mismatch"
    )
    assert status("twenty-four months", "twenty-four months", "24 months") == "verified"


def test_lists_one_item_a_line_give_their_length() -> None:
    numbered = "Imports are grouped:\n\n  1. Standard library.\n  2. Third party.\n  3. Local.\n"
    assert status(numbered, "Imports are grouped", "3 groups of imports") == "verified"
    assert status(numbered, "Imports are grouped", "4 groups of imports") == "number_mismatch"
    bullets = "Public APIs include:\n\n- Syntax.\n- The C-API.\n- Names\n  and types.\n"
    assert status(bullets, "Public APIs include", "3 kinds of API") == "verified"
    assert status(bullets, "Public APIs include", "4 kinds of API") == "number_mismatch"
    # a list that does not count from 1 gives no count
    assert status("Steps:\n3. Wait.\n4. See.\n", "Steps", "2 steps") == "number_mismatch"


def test_count_words_dates_and_linked_names() -> None:
    single = "Methods are surrounded by a single blank line."
    assert status(single, single, "1 blank line") == "verified"
    assert status(single, single, "3 blank lines") == "number_mismatch"
    dated = "* 2025-Jan-27: Updated to prefer a 5-year period."
    assert status(dated, "Updated to prefer", "since 27 January 2025") == "verified"
    assert status(dated, "Updated to prefer", "since 28 January 2025") == "number_mismatch"
    linked = "还开源了基础模型 [GLM-Base](https://x.org/a)、长文本模型 [GLM-32K](https://x.org/b)。"
    assert status(linked, "还开源了基础模型", "还开源了2个模型", "zh") == "verified"
    assert status(linked, "还开源了基础模型", "还开源了3个模型", "zh") == "number_mismatch"


def test_markdown_escapes_a_unit_and_model_numbers_in_a_passage() -> None:
    table = "| **GLM2-6B** | 13\\.1 GB | 8\\.2 GB | 5\\.5 GB |"
    assert status(table, "GLM2-6B", "INT4 needs 5.5 GB") == "verified"
    assert status(table, "GLM2-6B", "INT4 needs 4.5 GB") == "number_mismatch"
    month = "cannot be contacted for a month or longer"
    assert status(month, month, "out of touch for 1 month") == "verified"
    assert status(month, month, "out of touch for 2 months") == "number_mismatch"
    gpu = "测试硬件为`GeForce RTX-3090`。"
    assert status(gpu, "测试硬件为", "显卡是 RTX 3090", "zh") == "verified"
    assert status(gpu, "测试硬件为", "显卡是 RTX 4090", "zh") == "number_mismatch"
    ides = "支持 VS Code、 IntelliJ IDEA、PyCharm、GoLand、WebStorm、Android Studio 等IDE。"
    assert status(ides, "支持 VS Code", "支持6种IDE", "zh") == "verified"
    assert status(ides, "支持 VS Code", "支持5种IDE", "zh") == "number_mismatch"


def test_a_fraction_is_exact_unless_hedged() -> None:
    passage = "to lower its target by 75 basis points to 3-1/2 percent"
    assert status(passage, "to lower its target", "the target is 3.5%") == "verified"
    assert status(passage, "to lower its target", "the target is 3.50%") == "verified"
    assert status(passage, "to lower its target", "the target is 4 percent") == ("number_mismatch")
    assert status(passage, "to lower its target", "about 4 percent") == "verified"
    # a cited fraction is exact too: 1/2 point is not 75 basis points
    assert status(passage, "to lower its target", "cut by 1/2 percentage point") == (
        "number_mismatch"
    )
    assert status(passage, "to lower its target", "cut by 3/4 percentage point") == "verified"
    quarter = "to 1-3/4 percent"
    assert status(quarter, "to 1-3/4 percent", "now 1-1/2 percent") == "number_mismatch"
    assert status(quarter, "to 1-3/4 percent", "now 1.75%") == "verified"
    assert status(quarter, "to 1-3/4 percent", "now 1.8%") == "verified"


# ---- penalty ----------------------------------------------------------------------


def test_unverified_citations_cost_evidence_points_like_unsupported_numbers() -> None:
    from moot.sources.penalty import penalised_evidence

    ok, bad = CitationCheck("verified", ""), CitationCheck("number_mismatch", "x")
    missing = CitationCheck("not_in_source", "x")
    reasoning = CitationCheck("no_source", "x")
    assert penalised_evidence(8, [ok, ok]) == 8
    assert penalised_evidence(8, [ok, bad]) == 6
    assert penalised_evidence(8, [ok, bad, missing]) == 4
    assert penalised_evidence(8, [bad]) == 3  # all unverified: capped at 3
    assert penalised_evidence(2, [bad, missing]) == 1  # never below 1
    assert penalised_evidence(8, [reasoning]) == 8  # reasoning only costs nothing
    assert penalised_evidence(8, []) == 8


# ---- support ----------------------------------------------------------------------


def test_a_quote_that_says_nothing_about_its_claim_scores_under_the_threshold() -> None:
    from moot.sources.support import SUPPORT_THRESHOLD, support_score, supports

    claim = "Billing latency fell by 40% after the Rust pilot."
    assert support_score(claim, "Its figures are illustrative.") == 0.0
    assert not supports(claim, "Its figures are illustrative.")
    assert supports(claim, "the Rust pilot cut billing latency by 40%")
    assert support_score("", "anything at all") == 0.0
    zh = "长文本效果平均提升超过50%。"
    assert support_score(zh, "与二代模型相比，其效果平均提升了超过 50%") >= SUPPORT_THRESHOLD
    assert support_score(zh, "以上所有权重对学术研究完全开放") < SUPPORT_THRESHOLD
    # scored on the smaller side: a long speech and the short quote it relies on
    speech = "Our pilot matters. " * 5 + "The Rust pilot cut billing latency by 40%."
    assert supports(speech, "billing latency fell by 40%")


# ---- readings and derivations of issue 19's fifth held-out run --------------------


def test_a_fraction_with_an_ordinal_ending_is_a_fraction() -> None:
    passage = "Combined, nearly 1/5th of users, and over 3/4th of all respondents."
    assert status(passage, "nearly 1/5th of users", "Nearly a fifth of users.") == "verified"
    assert status(passage, "over 3/4th", "Over 75% of respondents.") == "verified"
    assert status(passage, "over 3/4th", "Over 3/4 of respondents.") == "verified"
    assert status(passage, "over 3/4th", "Over 2/3 of respondents.") == "number_mismatch"
    # "1/5th" is no ordinal: it gives no count of 5
    assert status(passage, "nearly 1/5th of users", "5 groups of users.") == "number_mismatch"


def test_a_scale_word_after_a_range_holds_for_both_ends() -> None:
    passage = "分别对应训练 0.22 ~ 2.42 万亿 Tokens，以及 5-10 million rows"
    assert status(passage, "0.22 ~ 2.42 万亿", "只训练了 2200亿 Tokens。", "zh") == "verified"
    assert status(passage, "5-10 million", "at least 5 million rows") == "verified"
    assert status(passage, "0.22 ~ 2.42 万亿", "训练了 2300亿 Tokens。", "zh") == "number_mismatch"
    assert status(passage, "5-10 million", "at least 6 million rows") == "number_mismatch"


def test_a_line_break_after_chinese_punctuation_is_no_difference() -> None:
    passage = "使用 ReadPool 优化读性能，`raw_get/get/batch_get` 提升 30%"
    quote = "使用 ReadPool 优化读性能，\n`raw_get/get/batch_get` 提升 30%"
    assert status(passage, quote, "读性能提升了 30%。", "zh") == "verified"
    assert normalise_text("性能， 提升") == normalise_text("性能，提升")
    assert normalise_text("2.0 GA") != normalise_text("2.0GA")  # no other space goes


def test_a_hedged_fraction_is_compared_within_its_tolerance() -> None:
    passage = "51.6% of respondents use nightly; Windows is at 31.5% and macOS at 23%."
    quote = "51.6% of respondents"
    assert status(passage, quote, "About half of respondents use nightly.") == "verified"
    assert status(passage, quote, "Nearly a third use Windows.") == "verified"
    assert status(passage, quote, "Almost a quarter use macOS.") == "verified"
    assert status(passage, quote, "约一半的受访者使用 nightly。", "zh") == "verified"
    assert status(passage, quote, "近一半的受访者使用 nightly。", "zh") == "number_mismatch"
    assert status(passage, quote, "三分之一左右的人使用 Windows。", "zh") == "verified"
    # unhedged, or out of 7.5% (+ half the last digit), or above a "nearly"
    assert status(passage, quote, "Half of respondents use nightly.") == "number_mismatch"
    assert status(passage, quote, "About two fifths use nightly.") == "number_mismatch"
    assert status(passage, quote, "Nearly half of them use nightly.") == "number_mismatch"
    assert status("30% of users are new", "30% of users", "nearly 1/3 are new") == (
        "number_mismatch"
    )


def test_a_difference_is_derived_only_when_the_claim_signals_it() -> None:
    passage = "weekly users have fallen from 48.8% to 43.3%, and 1,852 votes of 3,588"
    quote = "weekly users have fallen from 48.8% to 43.3%"
    assert status(passage, quote, "Weekly users fell by 5.5 percentage points.") == "verified"
    zh = "周活跃用户从 48.8% 下降到 43.3%"
    assert status(zh, zh, "周活跃用户下降了 5.5 个百分点。", "zh") == "verified"
    # an operand's clause must share a word with the claim
    assert status(zh, zh, "留存率减少了 5.5 个百分点。", "zh") == "number_mismatch"
    # no signal word, a wrong difference, or operands of different units
    assert status(passage, quote, "Weekly users are at 5.5 percentage points.") == (
        "number_mismatch"
    )
    assert status(passage, quote, "Weekly users fell by 4.5 percentage points.") == (
        "number_mismatch"
    )
    assert status(passage, quote, "Weekly users fell by 1,804 votes.") == "number_mismatch"


def test_a_share_and_a_ratio_are_derived_from_bound_operands() -> None:
    passage = "MATH数据集包含 12,500 个数学问题（其中 7500 个属于训练集，5000 个属于测试集）"
    quote = "其中 7500 个属于训练集"
    assert status(passage, quote, "MATH 的训练集占全部问题的 60%。", "zh") == "verified"
    # the test set's share is no training-set share: 5000's clause names no 训练
    assert status(passage, quote, "MATH 的训练集占全部问题的 40%。", "zh") == "number_mismatch"
    # no signal word
    assert status(passage, quote, "MATH 的训练集有 60% 的问题。", "zh") == "number_mismatch"
    ratio = "TPC-C 性能提升约 4.5 倍，Sysbench 性能提升约 1.5 倍"
    assert status(ratio, ratio, "TPC-C 的提升是 Sysbench 的 3 倍。", "zh") == "verified"
    assert status(ratio, ratio, "TPC-C 的提升是 Sysbench 的 4 倍。", "zh") == "number_mismatch"
    counts = "at 1,130 of the 3,588 total respondents"
    assert status(counts, counts, "Roughly one in three respondents use it.") == "verified"
    assert status(counts, counts, "Roughly one in five respondents use it.") == "number_mismatch"


# ---- readings and derivations of issue 19's sixth held-out run --------------------

OK, BAD = "verified", "number_mismatch"


def statuses(passage: str, quote: str, claims: dict[str, str], lang: str = "en") -> dict[str, str]:
    """Each claim's status, citing ``quote`` of ``passage``: compared with ``claims``
    (claim -> expected status) in one assertion."""
    return {claim: status(passage, quote, claim, lang) for claim in claims}


def test_a_number_word_before_a_percent_word_is_a_percentage() -> None:
    passage = "It cut the cache by fifty percent and the queue by twenty-five per cent."
    claims = {
        "The cache is 50% smaller.": OK,
        "The queue is 25 percent shorter.": OK,
        "The cache is 40% smaller.": BAD,
    }
    assert statuses(passage, "It cut the cache by fifty percent", claims) == claims
    # read in a claim too, and a bare number word is still no percentage
    claims = {"by fifty percent": OK, "by forty percent": BAD}
    assert statuses("It cut the cache by 50%.", "cut the cache", claims) == claims
    claims = {"50% of machines": BAD}
    assert statuses("We tested fifty machines.", "fifty machines", claims) == claims


def test_a_bound_holds_the_figure_on_its_side_and_near_it() -> None:
    passage = "In all, 4,112 people answered, and 71.3% of them use Linux; 53.2% use Rust."
    claims = {
        "More than 4,000 people answered.": OK,
        "At least 4,112 people answered.": OK,
        "More than 4,200 people answered.": BAD,
        "Fewer than 4,000 people answered.": BAD,
        "Over 3,000 people answered.": BAD,  # not near
        "More than seven in ten use Linux.": OK,
        "Less than three quarters use Linux.": OK,
        "More than three in four use Linux.": BAD,
        "Under 72% use Linux.": OK,
        "Under 71% use Linux.": BAD,
    }
    assert statuses(passage, "4,112 people answered", claims) == claims
    claims = {
        "超过 4000 人作答。": OK,
        "不到 4000 人作答。": BAD,
        "七成以上的人使用 Linux。": OK,
        "八成以上的人使用 Linux。": BAD,
        "过半的人使用 Rust。": OK,
    }
    assert statuses(passage, "4,112 people answered", claims, "zh") == claims
    claims = {"过半的人使用 Rust。": BAD}
    assert statuses("只有 46.8% 的人使用 Rust", "使用 Rust", claims, "zh") == claims
    # a bound the passage writes too is compared by rounding
    claims = {"at least 67% of votes": OK, "at least 70% of votes": BAD}
    assert statuses("at least a two-thirds majority", "majority", claims) == claims


def test_a_bound_is_no_bound_on_a_year_or_a_duration() -> None:
    claims = {"Support ended after more than 2020.": BAD, "It lasted more than 4 years.": BAD}
    assert statuses("Support ended in 2021, after 5 years.", "Support ended", claims) == claims
    assert read_numbers("since more than 2020")[0].bound == ""


def test_a_month_named_in_a_date_is_its_number_for_a_date_only() -> None:
    passage = "On March 4, 2021, version 2 shipped; 7 May 2022 brought version 3."
    claims = {
        "Version 2 shipped on 2021-03-04.": OK,
        "Version 3 shipped on 2022-05-07.": OK,
        "Version 2 shipped on 2021年3月4日.": OK,
        "Version 2 shipped on 2021-03-09.": BAD,
        "There were 5 releases.": BAD,  # May is 5 for a date only
    }
    assert statuses(passage, "version 2 shipped", claims) == claims


def test_a_list_of_code_names_with_underscores_is_counted() -> None:
    passage = "新增 `FOO_BAR`，`BAZ`、`QUX_ONE`、`ZED` 函数"
    claims = {"新增了 4 个函数。": OK, "新增了 5 个函数。": BAD, "新增了 2 个函数。": BAD}
    assert statuses(passage, "`BAZ`", claims, "zh") == claims


def test_a_comparative_may_hold_words_between_more_and_than() -> None:
    passage = "Team Alpha has 1,240 members and team Beta has 1,015 members."
    claims = {
        "Alpha has 225 more members than Beta.": OK,
        "Alpha has at least 225 more paid members than Beta.": OK,
        "Alpha has 215 more members than Beta.": BAD,
        "Alpha has 225 members.": BAD,
    }
    assert statuses(passage, "Team Alpha has 1,240 members", claims) == claims


def test_an_operand_in_a_link_or_a_hyphenated_word_is_bound_by_its_words() -> None:
    passage = (
        "For release builds, 71.5% of users saw no crash. Earlier fuzzing put this "
        "[nearer to 88%](https://example.org/report)."
    )
    claim = "Fuzzing put the no-crash rate 16.5 percentage points higher than the users' figure."
    claims = {claim: OK, claim.replace("16.5", "15.5"): BAD}
    assert statuses(passage, "71.5% of users saw no crash", claims) == claims
    unlinked = passage.replace("fuzzing put this ", "").replace("nearer to", "about")
    claims = {claim: BAD}  # 88%'s words share nothing with the claim
    assert statuses(unlinked, "71.5% of users saw no crash", claims) == claims


def test_a_fraction_word_is_derived_as_a_share_when_the_claim_says_share() -> None:
    passage = "1,210 of the 3,600 responses came from Asia, and 890 from Africa."
    claims = {
        "Asia's share of the responses was about a third.": OK,
        "Asia's share of the responses was over a third.": OK,
        "Asia's share of the responses was a quarter.": BAD,
        "Asia's share of the responses was under a third.": BAD,
        "About a third of the responses came from Asia.": BAD,  # no share word
    }
    assert statuses(passage, "came from Asia", claims) == claims
    zh = "来自亚洲的回复有 1,210 条，全部回复有 3,600 条。"
    claims = {"亚洲占全部回复的三分之一左右。": OK, "亚洲占全部回复的四分之一左右。": BAD}
    assert statuses(zh, "全部回复", claims, "zh") == claims


def test_a_sum_is_derived_when_the_claim_says_total() -> None:
    passage = "Of all users, 12.4% use it daily and 5.1% use it weekly."
    claims = {
        "Taken together, 17.5% of users use it.": OK,
        "In total 17.5% of users use it.": OK,
        "17.5% of users use it.": BAD,
        "In total 18.5% of users use it.": BAD,
    }
    assert statuses(passage, "12.4% use it daily", claims) == claims
    zh = "每天使用的用户占 12.4%，每周使用的占 5.1%。"
    claims = {"合计 17.5% 的用户使用它。": OK, "合计 16.5% 的用户使用它。": BAD}
    assert statuses(zh, "每天使用", claims, "zh") == claims
    # amounts of different measures are never added
    box = "The box has 4 GB of memory and 3 cores and a 2 GB cache."
    claims = {"The box has 6 GB of memory and cache in total.": OK, "The box has 7 in total.": BAD}
    assert statuses(box, "The box has", claims) == claims


def test_a_figure_with_a_unit_letter_is_not_a_bare_one() -> None:
    """``3G`` (gigabytes) is not the bare figure a scaled ``3M`` may match (a table's
    unit in its header); the bare ``3`` still is."""
    passage = "支持ChatGLM-6B模型推理内存占用3G；"
    assert status(passage, "内存占用3G", "推理内存占用仅 3M", "zh") == "number_mismatch"
    assert status(passage, "内存占用3G", "推理内存占用 3G", "zh") == "verified"
    assert status("Memory (MB): 3", "Memory (MB)", "memory of 3M", "en") == "verified"


def test_a_list_count_is_no_scaled_amount() -> None:
    """A list's length (two kinds of model) supports the bare count 2 only, never a
    scaled "2M"."""
    passage = "在主流的视觉、时序模型中，MNN 库的体积却很小，仅 3M 不到。"
    assert status(passage, "MNN 库的体积却很小", "覆盖 2 类模型", "zh") == "verified"
    assert status(passage, "MNN 库的体积却很小", "MNN 库仅 2M 不到", "zh") == "number_mismatch"


def test_a_numbered_line_marker_is_no_list_item() -> None:
    """``27、`` numbers the line; the list after it has three items, as it says."""
    passage = "27、企业对云计算、物联网与大数据三类新技术的认知比例分别为57.9%、53.4%和52.1%。"
    quote = "企业对云计算、物联网与大数据三类新技术"
    assert status(passage, quote, "企业关注 3 类新技术", "zh") == "verified"
    assert status(passage, quote, "企业关注 4 类新技术", "zh") == "number_mismatch"
