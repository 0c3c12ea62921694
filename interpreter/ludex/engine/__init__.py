"""Engine: a compiled program, players and agents in, a game in play out, with its cited trace.

    game.py         the game in play: state changes, decisions, legality, triggers, state checks, trace
    bookkeeping.py  what changed at which version, and when the caches and checks last looked
    agents.py       who answers decisions: random, scripted, a person at the terminal
    trace.py        trace events -> the lines a judge reads
"""
