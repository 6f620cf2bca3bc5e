"""A GGUF file's facts from its header (moot.llm.gguf), and a small model run by path
getting the compact profile by itself (LocalBackend.discover): on headers written here
with the format's own layout, on the embedded SmolLM2 file, and on files that are not
GGUF."""

from __future__ import annotations

import asyncio
import struct
from pathlib import Path

import pytest

from moot.llm.gguf import GGUFError, read_facts
from moot.llm.local import LocalBackend, embedded_model_path
from moot.llm.served import discover_small_models
from moot.profiles import COMPACT, STANDARD, profile_for


def _string(text: str) -> bytes:
    data = text.encode()
    return struct.pack("<Q", len(data)) + data


def gguf(
    tensors: list[tuple[int, ...]],
    *,
    arch: str = "llama",
    context: int | None = 8192,
    template: bool = True,
    version: int = 3,
) -> bytes:
    """A GGUF header: the key-values a converter writes (a vocabulary array among them)
    and one description per tensor of the given dimensions."""
    kvs = [_string("general.architecture") + struct.pack("<I", 8) + _string(arch)]
    if context is not None:
        kvs.append(
            _string(f"{arch}.context_length") + struct.pack("<I", 4) + struct.pack("<I", context)
        )
    vocab = [_string(word) for word in ("<s>", "</s>", "hello", "世界")]
    kvs.append(
        _string("tokenizer.ggml.tokens") + struct.pack("<IIQ", 9, 8, len(vocab)) + b"".join(vocab)
    )
    scores = struct.pack("<IIQ", 9, 6, 4) + struct.pack("<4f", 0.0, 0.0, -1.5, -2.0)
    kvs.append(_string("tokenizer.ggml.scores") + scores)
    if template:
        kvs.append(_string("tokenizer.chat_template") + struct.pack("<I", 8) + _string("{{ x }}"))
    head = b"GGUF" + struct.pack("<IQQ", version, len(tensors), len(kvs)) + b"".join(kvs)
    infos = b"".join(
        _string(f"blk.{n}.weight")
        + struct.pack(f"<I{len(dims)}Q", len(dims), *dims)
        + struct.pack("<IQ", 2, 0)
        for n, dims in enumerate(tensors)
    )
    return head + infos


def test_the_facts_are_read_from_the_header(tmp_path: Path) -> None:
    path = tmp_path / "m.gguf"
    path.write_bytes(gguf([(576, 49152), (576,), (1536, 576, 1)], arch="llama", context=8192))
    facts = read_facts(path)
    assert facts.n_params == 576 * 49152 + 576 + 1536 * 576
    assert (facts.architecture, facts.context_length, facts.chat_template) == ("llama", 8192, True)
    bare = tmp_path / "bare.gguf"
    bare.write_bytes(gguf([(10, 10)], arch="gemma3", context=None, template=False, version=2))
    assert read_facts(bare) == type(facts)("gemma3", 100, None, False)


def test_the_embedded_models_own_file() -> None:
    facts = read_facts(embedded_model_path())
    assert 130_000_000 < facts.n_params < 140_000_000  # SmolLM2-135M
    assert facts.architecture == "llama"
    assert facts.chat_template


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        (b"PK\x03\x04 a zip file", "not a GGUF file"),
        (b"GGUF" + struct.pack("<I", 7), "version 7"),
        (gguf([(4, 4)])[:-9], "ends inside its header"),
        (b"GGUF" + struct.pack("<IQQ", 3, 1 << 40, 0), "more than any model's header"),
        (b"GGUF" + struct.pack("<IQQ", 3, 0, 1) + struct.pack("<Q", 1 << 40), "longer than"),
        (b"GGUF" + struct.pack("<IQQ", 3, 0, 1) + _string("k") + struct.pack("<I", 99), "type 99"),
    ],
)
def test_a_file_that_is_not_a_gguf_header_is_an_error(
    tmp_path: Path, data: bytes, reason: str
) -> None:
    path = tmp_path / "bad.gguf"
    path.write_bytes(data)
    with pytest.raises(GGUFError, match=reason):
        read_facts(path)


def test_a_small_model_run_by_path_gets_the_compact_profile_by_itself(tmp_path: Path) -> None:
    small = tmp_path / "gemma-3-270m.gguf"
    small.write_bytes(gguf([(640, 262144), (640, 640)], arch="gemma3", context=32768))
    big = tmp_path / "big.gguf"
    big.write_bytes(gguf([(8192, 131072), (8192, 8192, 28)], arch="llama"))
    backends = {
        "pro": LocalBackend(str(small)),
        "con": LocalBackend(str(big)),
        "judge": LocalBackend(),  # the embedded model: compact by its spec, not asked
    }
    roles, notes = asyncio.run(discover_small_models(backends, None, "en"))
    assert roles == {"pro"}
    (note,) = notes
    assert "168M parameters" in note
    assert "GGUF header" in note
    assert "compact profile" in note
    assert profile_for(backends["pro"].spec, small=True) is COMPACT
    assert profile_for(backends["con"].spec, small=False) is STANDARD
    assert profile_for(backends["judge"].spec) is COMPACT
    # the user's profile wins; a file that is not GGUF leaves the profile as it was
    assert asyncio.run(discover_small_models(backends, "standard", "en")) == (set(), [])
    junk = tmp_path / "junk.gguf"
    junk.write_bytes(b"not a model")
    assert asyncio.run(LocalBackend(str(junk)).discover()) is None
    for backend in backends.values():
        assert backend.worker_pid is None  # nothing was loaded to find out
