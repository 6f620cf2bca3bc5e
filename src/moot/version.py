"""moot's version, in the base layer so that every report can name it (``moot``'s
``__version__`` is the same; importing ``moot`` loads no submodule, so it is not
read from here: ``tests/test_trust.py`` checks that the two and pyproject.toml agree)."""

from __future__ import annotations

VERSION = "0.1.0"
