"""Model profiles: how much of the protocol to ask of a model, per role.

A capable model gets the standard protocol. The embedded SmolLM2-135M gets the
*compact* one, chosen from measurements (``benchmarks/embedded_debate.py`` and
``benchmarks/reask_rules.py``): shorter fields and fewer items (so a debate fits in
about a minute and a looping model cannot run on for minutes), and no re-asks for
protocol-rule problems, which the 135M model almost never fixes when asked again.
Hard problems (invalid JSON, schema violations, wrong ids) are re-asked under every
profile. The profile of each role is recorded in the result.

Chinese replies get shorter character bounds under every profile: a Chinese
character carries about as much as two or three English ones, and costs the embedded
tokenizer seven times as many tokens.
"""

from __future__ import annotations

from dataclasses import dataclass

from moot.errors import ConfigError
from moot.llm.bounds import scale_lengths
from moot.llm.types import OutputSpec

LANG_CHARS = {"en": 1.0, "zh": 0.5}
"""Character bounds per debate language, relative to English."""


@dataclass(frozen=True)
class ModelProfile:
    """``chars`` and ``items`` scale the reply types' string and list bounds;
    ``rule_reasks`` is how many re-asks a protocol-rule problem gets (``None``: as many
    as hard problems, ``--max-reasks``); ``stance_words`` is the final stance's length
    rule (the standard protocol's 100-200 words, less where fields are shorter)."""

    name: str
    chars: float = 1.0
    items: float = 1.0
    rule_reasks: int | None = None
    stance_words: tuple[int, int] = (100, 200)
    """How long the closing's final stance should be, in words."""
    examples: bool = False
    """Show a worked example (on another topic) in the debaters' prompts. Off in the
    built-in profiles; a profile registered for a mid-size model may turn it on."""
    claim_prefix: bool = False
    """Begin every opening claim with words that commit it to its side ("No, because"),
    derived from the topic by a fixed rule (``moot.formats.structured.sides``) and
    written by the grammar where the backend has one. On in the compact profile."""
    quote_choices: bool = False
    """In a debate over documents, offer each citation's quote as a choice among the
    sentences of the passages given, and its data point among their figures (an enum
    of the reply schema, written by the grammar where the backend has one), instead
    of free text: a small model cannot copy words exactly. Code still checks every
    citation. On in the compact profile."""
    argument_calls: bool = False
    """Ask for each opening argument in its own call, each from its own angle (cost,
    the people affected, risk...), and ask again for a claim that nearly copies one
    the side already made, showing it what was said
    (``moot.formats.structured.rounds``). On in the compact profile."""
    lang_chars: tuple[tuple[str, float], ...] = ()
    """Character bounds per debate language where this profile differs from
    ``LANG_CHARS``, as (language, scale) pairs."""

    def spec(self, base: OutputSpec, lang: str) -> OutputSpec:
        """The reply schema as this profile asks for it in ``lang``."""
        scale = dict(LANG_CHARS, **dict(self.lang_chars)).get(lang, 1.0)
        return scale_lengths(base, chars=self.chars * scale, items=self.items)


STANDARD = ModelProfile("standard")
COMPACT = ModelProfile(
    "compact",
    chars=0.5,
    items=0.6,
    rule_reasks=0,
    stance_words=(40, 80),
    claim_prefix=True,
    quote_choices=True,
    argument_calls=True,
    lang_chars=(("zh", 0.35),),
)
"""No worked example: the 135M model copies it word for word into its own arguments
(``benchmarks/stance.py`` measures how often, with and without). Chinese bounds are
tighter than the standard protocol's (0.35 of English, not 0.5): at 0.5 the embedded
model's Chinese judge filled them and two of five seeds ran past their time."""
PROFILES = {p.name: p for p in (STANDARD, COMPACT)}


def register_profile(profile: ModelProfile) -> None:
    """Make a profile available by name (``--profile NAME``, ``profile=NAME``)."""
    PROFILES[profile.name] = profile


COMPACT_SPECS = frozenset({"local"})
"""Model specs that get the compact profile by default: the embedded model."""


def profile_for(spec: str, override: str | None = None, *, small: bool = False) -> ModelProfile:
    """The profile of a model spec: ``override`` when given, else compact for the
    embedded model and for a ``small`` one (a server said so: ``moot.llm.served``) and
    standard for everything else."""
    if override is not None:
        if override not in PROFILES:
            raise ConfigError(f"unknown profile {override!r}; choose {', '.join(PROFILES)}")
        return PROFILES[override]
    return COMPACT if spec in COMPACT_SPECS or small else STANDARD
