"""``moot view``: the run store in a browser, read-only, on localhost.

Needs the ``view`` extra (Starlette and uvicorn): ``pip install 'moot[view]'``.
"""

from moot.view.app import create_app
from moot.view.serve import DEFAULT_HOST, DEFAULT_PORT, Served, serve, serve_in_thread

__all__ = ["DEFAULT_HOST", "DEFAULT_PORT", "Served", "create_app", "serve", "serve_in_thread"]
