"""Program: a checked ``GameDef`` in, the game's rules as Python functions out, compiled once per
definition and shared by every game of it played.

    program.py      ``Program``: a game's rules compiled once (procedures, plays, triggers, checks, values)
    compiler.py     the compiler: statements and expressions -> functions
    expressions.py  expressions, named values, legal plays and state checks written as Python source
    statements.py   blocks of statements written as Python source
    reasons.py      what an event's outcome rested on: facts worked out as it is recorded
    reads.py        what a state check's condition reads, so it is polled only when that may change
"""
