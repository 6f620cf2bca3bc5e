"""What a backend reports, checked before anything counts, stores or shows it.

A server decides the token counts of its replies and the text in them. A count of
``10**30`` overflows SQLite's integers, a negative one lowers the budget, ``12.5`` or
``"12"`` is not a count at all, and a JSON reply may carry a lone UTF-16 surrogate
(``"\\ud800"``) that no UTF-8 file or database can hold. :class:`CheckedBackend` is
the innermost layer around every backend of a run (built-in or plugin), so the
journal, the cache, the budget and the meter only ever see a reply that passed:

* a token count that is not an integer from 0 to :data:`MAX_REPORTED_TOKENS` fails
  the call with a ``BackendError`` naming the server's value (the journal records
  the failed call; a resume asks again);
* lone surrogates in the reply's text become U+FFFD, as a UTF-8 decoder would show
  undecodable bytes.

:func:`moot.llm.counts.token_count` is the same check for a backend reading a
server's raw value.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from moot.errors import BackendError
from moot.llm.counts import token_count
from moot.llm.types import CallContext, Completion, GenerationSettings, Message, OutputSpec
from moot.llm.wrapper import Wrapper
from moot.validation import SURROGATE


def valid_text(text: str) -> str:
    """``text`` with every lone surrogate replaced by U+FFFD."""
    return SURROGATE.sub("\ufffd", text)


def checked(completion: Completion, spec: str) -> Completion:
    """``completion`` if its counts are token counts (its text made encodable), else a
    ``BackendError``."""
    if not isinstance(completion.text, str):
        raise BackendError(
            f"{spec} replied with {type(completion.text).__name__} where text belongs",
            spec=spec,
        )
    try:
        token_count(completion.usage.prompt_tokens, "the reported prompt_tokens")
        token_count(completion.usage.completion_tokens, "the reported completion_tokens")
    except ValueError as exc:
        raise BackendError(f"{spec}: {exc}; the reply was not used", spec=spec) from None
    text = valid_text(completion.text)
    return completion if text == completion.text else replace(completion, text=text)


class CheckedBackend(Wrapper):
    """Every reply of ``inner`` passes :func:`checked` before an outer layer sees it."""

    async def generate(
        self,
        messages: Sequence[Message],
        *,
        schema: OutputSpec | None,
        settings: GenerationSettings,
        context: CallContext | None = None,
    ) -> Completion:
        completion = await self._inner.generate(
            messages, schema=schema, settings=settings, context=context
        )
        return checked(completion, self.spec)
