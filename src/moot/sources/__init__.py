"""Documents a debate argues from (``--sources``): readers for text, Markdown, HTML,
PDF and CSV (``readers``), passages with stable ids (``passages``), the documents
found, checked and indexed in the run store by content hash (``library``), the
passages a side argues from (``retrieval``: SQLite FTS5 with trigram tokens,
reranked by the multilingual sentence encoder when installed), and the citations
checked before the judge reads the debate (``citations``, with the verifier
``verify``). See docs/sources.md."""
