"""A GGUF model file's own facts, read from its header without loading the model:
the parameter count (the sum of its tensors' element counts), the context it was
trained with and whether it carries a chat template.

The header is the magic ``GGUF``, a version (2 or 3), the tensor and key-value counts,
the key-values (a key, a type tag, a value; arrays of any type) and the tensor
descriptions (a name, its dimensions, a type, an offset). Only what the facts need is
decoded; everything else is stepped over. A file that is not such a header is an
error with the reason, never a guess.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from math import prod
from pathlib import Path
from typing import BinaryIO, Final

MAGIC: Final = b"GGUF"
MAX_COUNT: Final = 1 << 24
"""More tensors, key-values, array items or dimensions than this is not a model's
header (a 1B model has a few hundred tensors; a vocabulary a few hundred thousand
tokens)."""
MAX_STRING: Final = 1 << 24
"""A string longer than this (16 MiB) is not a header's (chat templates are a few KB)."""

_SCALARS: Final = {0: "<B", 1: "<b", 2: "<H", 3: "<h", 4: "<I", 5: "<i", 6: "<f", 7: "<?",
                   10: "<Q", 11: "<q", 12: "<d"}  # fmt: skip
_STRING: Final = 8
_ARRAY: Final = 9


class GGUFError(ValueError):
    """The file is not a GGUF header this reader understands."""


@dataclass(frozen=True)
class GGUFFacts:
    """What a GGUF header says of its model; ``None`` where it says nothing."""

    architecture: str | None
    n_params: int
    context_length: int | None
    chat_template: bool


def read_facts(path: Path) -> GGUFFacts:
    """The facts of the GGUF file at ``path`` (:class:`GGUFError` if it is not one)."""
    with path.open("rb") as f:
        return _Reader(f).facts()


class _Reader:
    def __init__(self, f: BinaryIO) -> None:
        self._f = f

    def _take(self, n: int) -> bytes:
        data = self._f.read(n)
        if len(data) != n:
            raise GGUFError("the file ends inside its header")
        return data

    def _unpack(self, fmt: str) -> int | float | bool:
        value: int | float | bool = struct.unpack(fmt, self._take(struct.calcsize(fmt)))[0]
        return value

    def _count(self, what: str) -> int:
        n = int(self._unpack("<Q"))
        if n > MAX_COUNT:
            raise GGUFError(f"{n} {what} is more than any model's header holds")
        return n

    def _string_length(self) -> int:
        n = int(self._unpack("<Q"))
        if n > MAX_STRING:
            raise GGUFError(f"a string of {n} bytes is longer than any header's")
        return n

    def _string(self) -> str:
        return self._take(self._string_length()).decode("utf-8", "replace")

    def _skip_string(self) -> None:
        self._f.seek(self._string_length(), 1)

    def _value(self, kind: int, keep: bool) -> object:
        """One value of type ``kind``; returned when ``keep``, else stepped over."""
        if kind in _SCALARS:
            return self._unpack(_SCALARS[kind])
        if kind == _STRING:
            if keep:
                return self._string()
            self._skip_string()
            return None
        if kind == _ARRAY:
            item = int(self._unpack("<I"))
            n = self._count("array items")
            if item in _SCALARS:  # fixed size: step over all of them at once
                self._f.seek(n * struct.calcsize(_SCALARS[item]), 1)
            else:
                for _ in range(n):
                    self._value(item, False)
            return None
        raise GGUFError(f"unknown value type {kind}")

    def facts(self) -> GGUFFacts:
        if self._take(4) != MAGIC:
            raise GGUFError("not a GGUF file (it does not start with GGUF)")
        version = int(self._unpack("<I"))
        if version not in (2, 3):
            raise GGUFError(f"GGUF version {version} is not one this reader knows (2, 3)")
        tensors = self._count("tensors")
        values: dict[str, object] = {}
        for _ in range(self._count("key-values")):
            key = self._string()
            kind = int(self._unpack("<I"))
            keep = key == "general.architecture" or key.endswith(".context_length")
            found = self._value(kind, keep)
            if keep:
                values[key] = found
            elif key == "tokenizer.chat_template":
                values[key] = True
        n_params = 0
        for _ in range(tensors):
            self._skip_string()
            dims = int(self._unpack("<I"))
            if dims > 8:
                raise GGUFError(f"a tensor of {dims} dimensions is not a model's")
            n_params += prod(int(self._unpack("<Q")) for _ in range(dims))
            self._take(12)  # its type and offset
        arch = values.get("general.architecture")
        architecture = arch if isinstance(arch, str) else None
        context = values.get(f"{architecture}.context_length") if architecture else None
        return GGUFFacts(
            architecture=architecture,
            n_params=n_params,
            context_length=context if isinstance(context, int) and context > 0 else None,
            chat_template="tokenizer.chat_template" in values,
        )
