"""Compliance: game logs replayed against the rules, the rules checked by playing random games, and
how well the scenarios pin the rules (mutation).

    log.py         a log's text -> a ``LogFile``, its static check, and the copy numbers it writes
    watch.py       hooks on a running game: rounds counted and bounded, invariants checked
                   (``Watch``), and the state in words
    checker.py     a ``GameDef`` and a ``LogFile`` -> a ``LogReport`` of what the rules refuse
    recorder.py    a game being played -> its log (``LogRecorder``, ``record_game``)
    simulation.py  a game's key and seeds -> random games played and summed up (``simulate``)
    mutants.py     a game's rules (text and AST) -> mutants of each rule's transcription, and the
                   equivalent-mutant comments
    mutation.py    a game's rules and scenarios -> each mutant run, the score of every rule, kept in
                   the cache (``mutate``, ``cached_report``)
"""
