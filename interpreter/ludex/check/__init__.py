"""Check: a ``GameDef`` in, every static diagnostic it deserves out, before anything runs."""
