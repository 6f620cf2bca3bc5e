"""``python -m moot``: the same as the ``moot`` command."""

from moot.cli import app

app(prog_name="moot")
