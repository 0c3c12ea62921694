"""Parse: source text in, an AST out; then a game's parsed files in, one game definition out.

    ast.py         the AST: frozen dataclasses, one per construct, each with a span
    syntax.py      the facade over Lark: rules, scenario and log text -> AST, or positioned syntax errors
    tables.py      the grammars' LALR tables, taken from Lark once per grammar version and cached,
                   and the loop that runs them, building the AST at each reduction
    definition.py  a game's parsed modules -> one ``GameDef``, its declarations indexed by name
"""
