"""Ludex: game rules references transcribed into a language a machine can run and a judge can trust.

The pipeline, a folder per stage (each folder's ``__init__`` lists its modules):

    parse/        text -> AST -> one game definition (``GameDef``), or positioned syntax errors
    check/        game definition -> static diagnostics
    program/      checked game definition -> the rules as Python functions (``Program``), compiled once
    runtime/      what those functions act on and call: state, records, built-ins, board geometry
    engine/       program + players + agents -> a game in play and its cited trace
    scenarios/    scenario files -> rulings checked (and the pytest plugin that collects them)
    compliance/   game logs replayed against the rules; random games simulated
    fmt/          source -> canonical source (``ludex fmt``)
    site/         rules and scenarios -> the rules site

Beside them: ``load.py`` (rules files -> checked game definition: parse, assemble, check),
``diagnostics.py`` (every error, rendered in one place), ``resources.py`` (where the bundled files and
the cache are), ``lookup.py`` (a game's name or a judge's words -> the games and rules they mean: the
rule tree, rule ids in any case, the search of numbers, titles and text), ``explain.py`` (``ludex
explain``: a game definition and words -> the tree, the matches or a rule for a judge, its text as
corrected, printed), ``cli.py`` (the ``ludex`` command: its arguments, help and exit codes),
``commands/`` (each command's body, imported when it runs) and ``command.py`` (its entry point, which
sets what a signal does before the rest is imported).
"""

__version__ = "0.1.0"
