"""Check: a ``GameDef`` in, every static diagnostic it deserves out, before anything runs.

    checks.py      the checker: declarations, rule ids and references, statements (one ``s_`` method
                   a kind), reachability, gotos, events; ``check(gamedef)`` runs it all
    values.py      ``Scope``: the names visible at a point; an expression's kind, checked against
                   what its place needs
    kinds.py       the kinds of values: which cannot be meant where, and how a message names them
    spans.py       where a diagnostic points: a word, a count or a reference found on the source lines
"""
