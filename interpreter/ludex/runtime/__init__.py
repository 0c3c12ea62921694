"""Runtime: what compiled rules act on and call, and nothing that compiles or runs a game.

    state.py       players, counters, supplies, zones, rows, roles, flags and cards
    records.py     frames, plays, decisions, trace events, modifiers, and the signals that redirect a
                   procedure (``Goto``, ``GameOver``, ``SkipStep``)
    operations.py  what compiled statements call at run time, beside what the generated code writes
                   inline
    registry.py    the table of built-ins (``BUILTINS``, ``CONSTANTS``) and the decorators that fill it
    builtins.py    the generic built-ins the rules call (``board.py`` adds the board and row built-ins)
    board.py       a board drawn in text and its geometry
"""
