"""Parse: source text in, an AST out; then a game's parsed files in, one game definition out.

    ast.py         the AST: frozen dataclasses, one per construct, each with a span
    syntax.py      the facade: rules, scenario and log text -> AST, or positioned syntax errors
    grammars.py    grammar/*.lark -> Lark's parser and the parse tables, each made once and cached
    tables.py      the grammars' LALR tables, taken from Lark once per grammar version and cached,
                   and the loop that runs them, building the AST at each reduction
    builders.py    the tree builders: a parse's reductions -> AST nodes (rules, scenarios)
    mistakes.py    a malformed text and Lark's exception -> one positioned diagnostic in words: what
                   was expected, the common mistake it matches, the bracket left open
    definition.py  a game's parsed modules -> one ``GameDef``, its declarations indexed by name
    errata.py      a rule's text and its errata -> the text as corrected, in pieces that carry the
                   erratum behind each corrected phrase (``text_as_corrected``)
"""
