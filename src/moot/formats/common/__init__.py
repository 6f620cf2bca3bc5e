"""Helpers that several formats share and every format may import: rule checks
(``rules``), the positions' stances as the detectors read them (``stances``) and a
base for views whose judged items are arguments (``html``, in the report layer).
Nothing here imports a format."""
