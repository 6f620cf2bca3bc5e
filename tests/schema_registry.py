"""Every schema moot registers (moot.llm.schemas.register_schemas), with every module
of the package imported first, so a format that registers its schemas anywhere in
moot is included without being named here."""

from __future__ import annotations

import functools
import importlib
import pkgutil

import moot
from moot.formats import formats
from moot.llm.schemas import registered_schemas
from moot.llm.types import OutputSpec


@functools.cache
def all_registered() -> dict[str, list[OutputSpec]]:
    """The registry, by owner, once every moot module has been imported and the
    format registry read (it registers the built-in formats' schemas on first use)."""
    for module in pkgutil.walk_packages(moot.__path__, "moot."):
        if module.name != "moot.__main__":
            importlib.import_module(module.name)
    formats()
    return registered_schemas()


def every_registered_schema() -> list[OutputSpec]:
    return [spec for specs in all_registered().values() for spec in specs]
