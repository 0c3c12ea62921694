"""A deterministic, readable dump of an AST: one node per line, children indented under their parent.

Each line is ``field: NodeName scalar=value ... @line:column``. A node's scalar fields (text, numbers,
flags, tuples of plain values) stand on its line; its node fields and tuples of nodes follow on lines
of their own, labelled with the field's name and, inside a tuple, the index (``body[2]``,
``branches[0][1][0]``). Empty fields (``''``, ``()``, ``None`` but a constant's) are left out. The main span is written
as ``@line:column``; other spans (``id_span``, ``cite_span`` ...) as ``name=line:column``.
Iterative, so deep trees dump without recursion.
"""

from __future__ import annotations

import dataclasses

from ludex.parse import ast as A

__all__ = ["dump"]


def _is_node(value) -> bool:
    return dataclasses.is_dataclass(value) and not isinstance(value, (type, A.Span))


def _has_node(value) -> bool:
    stack = [value]
    while stack:
        item = stack.pop()
        if _is_node(item):
            return True
        if isinstance(item, tuple):
            stack.extend(item)
    return False


def _where(span) -> str:
    return f"{span.line}:{span.column}" if span is not None else "-"


def _line(label: str, node) -> str:
    parts = [type(node).__name__]
    for f in dataclasses.fields(node):
        value = getattr(node, f.name)
        if f.name == "span":
            continue
        if isinstance(value, A.Span):
            parts.append(f"{f.name}={_where(value)}")
        elif (value is None and not isinstance(node, A.Constant)) or value in ("", ()) or _has_node(value):
            continue
        else:
            parts.append(f"{f.name}={value!r}")
    return f"{label}{' '.join(parts)} @{_where(node.span)}"


def _children(node, indent: int):
    """(label, value, indent) for each node reachable from one of ``node``'s fields, in field order."""
    out = []
    for f in dataclasses.fields(node):
        value = getattr(node, f.name)
        if _is_node(value):
            out.append((f"{f.name}: ", value, indent))
        elif isinstance(value, tuple) and _has_node(value):
            out.extend(_flatten(f.name, value, indent))
    return out


def _flatten(name: str, items: tuple, indent: int):
    out = []
    for i, item in enumerate(items):
        label = f"{name}[{i}]"
        if _is_node(item):
            out.append((f"{label}: ", item, indent))
        elif isinstance(item, tuple) and _has_node(item):
            out.extend(_flatten(label, item, indent))
        else:
            out.append((f"{label} = {item!r}", None, indent))
    return out


def dump(root) -> str:
    """The dump of ``root`` (any node, usually a ``Module``), ending with a newline."""
    lines = []
    stack = [("", root, 0)]
    while stack:
        label, node, indent = stack.pop()
        if node is None:
            lines.append(" " * indent + label)
            continue
        lines.append(" " * indent + _line(label, node))
        stack.extend(reversed(_children(node, indent + 2)))
    return "\n".join(lines) + "\n"
