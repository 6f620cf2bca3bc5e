"""Documents a debate argues from: reading, indexing, citing and verifying them."""
