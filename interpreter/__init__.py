"""Ludex: game rules references transcribed into a language a machine can run and a judge can trust.

The pipeline, one module per pass:

    syntax.py    text -> AST (parse, with positioned syntax diagnostics)
    checks.py    AST -> game definition + static diagnostics
    engine/      game definition -> compiled procedure -> play, trace
    scenarios    scenario files -> runs -> expectations met or not
    cli.py       the `ludex` command
"""

__version__ = "0.1.0"
