"""Helpers that several formats share and every format may import: rule checks
(``rules``), the positions' stances and the transcript of judged turns as the
detectors read them (``stances``, ``transcripts``) and a base for views whose judged
items are arguments (``html``, in the report layer). Nothing here imports a format."""
