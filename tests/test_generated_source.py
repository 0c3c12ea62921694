"""The Python the engine writes can be read: in a traceback, and through ``ludex explain --python``.

- Every function written (an expression, a value, a block, a part nested too deep) is compiled under a
  file name of its own whose lines ``linecache`` holds: a fault inside one shows the line it is at.
  The same rules compiled twice keep theirs apart, and a game gone takes its lines with it.
- Nothing from the rules file but its literal values goes into the source: not its path.
- ``ludex explain GAME RULE --python`` prints the functions written for a rule, headed by its id.
- The code written reads nothing but the runtime's namespace (``operations.NAMESPACE``) and what was
  written for its own game.
"""

import builtins
import dis
import linecache
import re
import traceback

from ludex.cli import main
from ludex.engine.agents import RandomAgent
from ludex.engine.game import Game, Program
from ludex.load import load_game, load_paths
from ludex.parse.definition import assemble
from ludex.parse.syntax import parse_rules
from ludex.resources import bundled_games
from ludex.runtime.operations import NAMESPACE
from ludex.runtime.records import Frame
from test_written import LAZY_LET

RULES = '''game t "T" { players 2 to 2 }
state { game counter n = 0 }
rule 1 "Count" {
  text "Count."
  value plus-one(x) = x + 1
  value deep = DEEP
  set n = plus-one(n) + deep
}
flow { run 1 }
'''

#: deeper than the writer goes in one function (``expressions._DEEPEST``), reading a quantifier's variable
DEEP = "total q in [1, 2]: " + "(" * 50 + "q" + " + 0)" * 50


def _gamedef(path="t.ludex"):
    return assemble("t", [parse_rules(RULES.replace("DEEP", DEEP), path)])


def test_a_fault_in_written_code_shows_the_written_line_in_its_traceback():
    gamedef = _gamedef()
    game = Game(gamedef, ["a", "b"], RandomAgent(1))
    compiler = Program.of(gamedef).compiler
    expression = compiler.expr(gamedef.values["plus-one"].body)
    faults = []
    for fault in (lambda: expression(Frame(game, {"x": "one"}, "1")),
                  lambda: Program.of(gamedef).values["plus-one"](Frame(game, {}, "1"), "one")):
        try:
            fault()
        except TypeError as exc:
            faults.append("".join(traceback.format_exception(exc)))
    assert len(faults) == 2
    expression_tb, value_tb = faults
    assert '<ludex rules t.ludex:5 #' in expression_tb and "in expression" in expression_tb
    assert "return ((_V['x'] if 'x' in _V else" in expression_tb
    assert "in value" in value_tb and "_value = (_p0 + 1)" in value_tb


def test_every_function_written_has_a_file_name_and_lines_of_its_own():
    gamedef = _gamedef()
    writer = Program.of(gamedef).compiler.writer
    names = list(writer.sources)
    assert len(names) == len(set(names)) and len(names) > 3
    for name, source in writer.sources.items():
        assert name.startswith("<ludex rules t.ludex:") and linecache.getlines(name) == source.splitlines(True)
    # the rule's procedure (a block), and the deep part of a value written as a function apart
    procedure = Program.of(gamedef).procedures["1"][1]
    assert writer.source_of(procedure).startswith("def block")
    assert any(source.startswith("def part(f, _q") for source in writer.sources.values())
    game = Game(gamedef, ["a", "b"], RandomAgent(1))
    game.run()
    assert game.state.fields["n"] == 1 + 3


def test_the_rules_files_path_is_never_written_into_the_source(tmp_path):
    path = tmp_path / 'odd """ \\ name.ludex'
    path.write_text(RULES.replace("DEEP", DEEP), encoding="utf-8")
    loaded = load_paths("t", [path])
    assert loaded.ok
    writer = Program.of(loaded.game).compiler.writer
    assert writer.sources and not any(str(path) in s or "odd" in s for s in writer.sources.values())
    game = Game(loaded.game, ["a", "b"], RandomAgent(1))
    game.run()
    assert game.state.fields["n"] == 4


def test_explain_python_prints_the_source_written_for_a_rule(capsys):
    code = main(["explain", "huntik", "502.1", "--python"])
    out = capsys.readouterr().out
    assert code == 0
    assert out.splitlines()[0] == "# 502.1 At the start of each round: the Python written for it"
    assert "# procedure: <ludex rules " in out and "\ndef block" in out and "Transcription:" not in out
    compile(out, "explain", "exec")          # what it prints is Python (the headings are comments)


def test_explain_python_prints_a_rules_plays_and_values(capsys):
    assert main(["explain", "huntik", "500.2", "--python"]) == 0
    out = capsys.readouterr().out
    for heading in ("# play play-card: legal plays:", "# play play-card: requirements:", "# play play-card: made:",
                    "# value controls:"):
        assert heading in out
    assert "\ndef legal(_G, player):" in out and "\ndef failing(f):" in out and "\ndef play(_G, play):" in out


def test_explain_without_python_is_unchanged(capsys):
    assert main(["explain", "huntik", "502.1"]) == 0
    out = capsys.readouterr().out
    assert "Transcription:" in out and "def " not in out


#: test_written's market, stocked as it starts, its requirement of a copy said as HELD
MARKET = LAZY_LET.replace('  action buy', '  create ["Rope", "Lamp", "Bell", "Rope", "Lamp"] into market\n  action buy', 1) \
    .replace("or copy is not none cite", "or HELD cite")


def test_a_let_read_by_a_part_written_apart_gives_the_same_plays():
    """A requirement nested too deep reads a let that reads the choice: handed to the function
    written apart, the lets are worked out in order, and the plays and trace are those of the same
    requirement written shallow."""
    traces = []
    for held in ("copy is not none", "not " * 60 + "copy is not none"):
        gamedef = assemble("t", [parse_rules(MARKET.replace("HELD", held), "market.ludex")])
        game = Game(gamedef, ["a", "b"], RandomAgent(3))
        game.run()
        traces.append([(e.rule, e.text, e.player) for e in game.trace])
        parts = [s for s in Program.of(gamedef).compiler.writer.sources.values() if s.startswith("def part(")]
    shallow, deep = traces
    assert deep == shallow and any("plays buy" in text for _, text, _ in shallow)
    # handed the lazy let (``_s``), then, the lets worked out in order, the let's local
    assert any(s.startswith("def part(f, _s") for s in parts) and any(s.startswith("def part(f, _let0)") for s in parts)


def test_the_same_rules_compiled_twice_keep_their_lines_apart():
    """Two games of rules from one path compile functions at the same lines: each file name is still
    its own, and a game compiled and gone takes only its own lines out of ``linecache``."""
    import gc
    first = Program.of(_gamedef()).compiler.writer
    kept = dict(first.sources)
    second = Program.of(assemble("t", [parse_rules(RULES.replace("DEEP", "2"), "t.ludex")])).compiler.writer
    assert not set(kept) & set(second.sources)
    del first, second
    gc.collect()
    assert not any(name in linecache.cache for name in kept)


def _globals_read(code) -> set:
    """The global names a compiled function (and the functions inside it) reads."""
    found = {i.argval for i in dis.get_instructions(code) if i.opname in ("LOAD_GLOBAL", "LOAD_NAME")}
    for const in code.co_consts:
        if hasattr(const, "co_code"):
            found |= _globals_read(const)
    return found


def test_written_code_reads_only_the_runtime_namespace_and_what_was_written_for_its_game():
    """``operations.NAMESPACE`` is the whole contract between the code writers and the code they write:
    every other name a written function reads is a constant of its game (``_k...``), its values, its
    hidden attributes, a function written beside it, or one of Python's built-ins."""
    allowed = set(NAMESPACE) | {"_VALUES", "_HIDDEN"} | set(dir(builtins))
    for key in bundled_games():
        writer = Program.of(load_game(key).game).compiler.writer
        env = writer.env
        extra = {n for n in env if n.startswith("_") and n not in allowed and not re.fullmatch(r"_k\d+", n)} - {"__builtins__"}
        assert extra == set(), f"{key}: names put into the written code's namespace beside the contract"
        codes = [compile(source, filename, "exec") for filename, source in writer.sources.items()]
        assert len(codes) > 30
        defined = {i.argval for code in codes for i in dis.get_instructions(code) if i.opname == "STORE_NAME"}
        for code in codes:
            stray = {n for n in _globals_read(code) - defined
                     if n not in allowed and not re.fullmatch(r"_k\d+", n)}
            assert stray == set(), f"{key}: {code.co_filename} reads {sorted(stray)}"
