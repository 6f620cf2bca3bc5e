"""What a detector finds, before it is put into words: the flag's place, the message
that explains it and the values that message needs, so that the same finding can be
shown as a flag's evidence or given to a speaker as the reason to try again."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from moot.detectors.messages import CATALOG, message
from moot.detectors.transcript import DetectorName, Flag, Mode


@dataclass(frozen=True)
class Finding:
    """One detector firing. ``evidence`` names the evidence message (``evidence.<key>``
    in the catalog) and ``values`` fills it and, for per-turn detectors, the reason."""

    detector: DetectorName
    turn: int | None
    side: str | None
    evidence: str
    values: Mapping[str, object] = field(default_factory=dict)
    mode: Mode = "lexical"
    """The pass that found it (see ``Flag.mode``)."""

    def flag(self, lang: str) -> Flag:
        """The finding as a flag with its evidence in ``lang``."""
        text = message(lang, f"evidence.{self.evidence}", **self.values)
        return Flag(
            detector=self.detector, turn=self.turn, side=self.side, evidence=text, mode=self.mode
        )

    def reason(self, lang: str, labels: Sequence[str] | None = None) -> str:
        """What to tell the speaker when the turn is asked for again, in ``lang``.
        ``labels`` names the earlier turns as the speaker saw them (a format's speech
        ids): an earlier turn is then named by its label, not by its index."""
        key = f"reask.{self.detector}"
        if f"reask.{self.evidence}" in CATALOG["en"]:
            key = f"reask.{self.evidence}"
        earlier = self.values.get("earlier")
        if labels is not None and isinstance(earlier, int) and 0 <= earlier < len(labels):
            values = {**self.values, "earlier": labels[earlier]}
            return message(lang, f"{key}.named", **values)
        return message(lang, key, **self.values)
