"""Compliance: game logs replayed against the rules, and the rules checked by playing random games.

    log.py         a log's text -> a ``LogFile``, its static check, and the copy numbers it writes
    watch.py       hooks on a running game: rounds counted and bounded, invariants checked
                   (``Watch``), and the state in words
    checker.py     a ``GameDef`` and a ``LogFile`` -> a ``LogReport`` of what the rules refuse
    recorder.py    a game being played -> its log (``LogRecorder``, ``record_game``)
    simulation.py  a game's key and seeds -> random games played and summed up (``simulate``)
"""
