"""Two replies of the embedded model on xllamacpp with whitespace tokens pushed up.

Run by ``test_local_runtime.py`` in a process of its own: ``python whitespace_probe.py
SOCKET_DIR SCHEMA_JSON`` prints a JSON list of ``{"text", "finish_reason"}``. A logit
bias of +8 on every token that is only spaces, tabs and newlines makes SmolLM2 write
whitespace wherever the grammar lets it.
"""

from __future__ import annotations

import json
import sys

from moot.llm.local import embedded_model_path
from moot.llm.local_xllamacpp import XllamacppModel, lark_grammar

WHITESPACE = ("\n", "\t", "\n\n", " \n", "\n\t", "  ", "\n   ", "\n\n\n", "    ")


def main(socket_dir: str, schema_text: str) -> None:
    model = XllamacppModel(
        {
            "model_path": str(embedded_model_path()),
            "socket_dir": socket_dir,
            "n_ctx": 1024,
            "n_threads": 2,
            "seed": 1,
        }
    )
    biased = sorted({token for text in WHITESPACE for token in model.tokens(text)})
    replies = []
    for seed in (1, 2):
        body = {
            "messages": [{"role": "user", "content": "Describe a cat as JSON."}],
            "temperature": 0.7,
            "max_tokens": 80,
            "seed": seed,
            "logit_bias": [[token, 8.0] for token in biased],
            "grammar": lark_grammar(schema_text),
        }
        choice = model.server.handle_chat_completions(body)["choices"][0]
        replies.append(
            {"text": choice["message"]["content"], "finish_reason": choice["finish_reason"]}
        )
    print(json.dumps(replies))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
