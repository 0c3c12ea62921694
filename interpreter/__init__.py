"""Ludex: game rules references transcribed into a language a machine can run and a judge can trust.

The pipeline, one module per pass:

    syntax.py      text -> AST (parse, with positioned syntax diagnostics); lalr.py runs the grammar's
                   LALR tables (from Lark, cached per grammar version) and builds the AST as it goes
    model.py       the AST of a game's files -> one game definition
    checks.py      game definition -> static diagnostics
    compiler.py    game definition -> closures for statements, once per game definition;
    codegen.py     expressions, named values, legal plays and state checks written as Python source
    blocks.py      blocks of statements written as Python source (closures for the rest)
    reads.py       what a state check's condition reads, so it is polled only when that may change
    engine.py      compiled rules + players + agents -> a game in play: state, decisions, trace
    scenarios.py   scenario files -> runs -> expectations met or not
    compliance.py  game logs -> replayed against the rules; random games simulated
    formatter.py   AST -> canonical source (``ludex fmt``)
    site/          rules and scenarios -> the rules site
    diagnostics.py every error, rendered in one place
    cli.py         the ``ludex`` command
"""

__version__ = "0.1.0"
