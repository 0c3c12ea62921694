"""Format (``ludex fmt``): rules and scenario source in, the same in canonical layout out.

    rules.py      rules files
    scenarios.py  scenario files
    comments.py   where each ``#`` comment goes, since the AST keeps none
    authored.py   what the author wrote that the AST does not keep (string forms, brackets)
    layout.py     string literals and fitted lines
"""
