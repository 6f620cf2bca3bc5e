"""``python -m moot.formats.market.data.publish_schemas [DIR]``: write the market format's JSON
Schemas (``moot.formats.market.data.schema``) into ``DIR`` (default ``docs``)."""

from __future__ import annotations

import sys
from pathlib import Path

from moot.formats.market.data.schema import schema_files


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    directory = Path(args[0] if args else "docs")
    directory.mkdir(parents=True, exist_ok=True)
    for name, text in schema_files().items():
        (directory / name).write_text(text, encoding="utf-8")
        print(directory / name)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
