"""The command line refuses bad arguments with a one-line message and exit code 2, never a traceback."""

import pytest

from interpreter.cli import main


def exit_code(argv) -> int:
    """What the ``ludex`` command exits with (some errors leave through SystemExit, as on the console)."""
    try:
        return main(argv)
    except SystemExit as stop:
        return stop.code


@pytest.mark.parametrize("argv, message", [
    (["explain", "agot", "99.9"], "agot has no rule 99.9"),
    (["run", "nosuch"], "no bundled game 'nosuch'"),
    (["run", "agot", "--players", "9"], "agot is for 2 to 8 players"),
    (["run", "agot", "--max-rounds", "0"], "--max-rounds must be at least 1"),
    (["simulate", "agot", "--games", "0"], "--games must be at least 1"),
    (["simulate", "agot", "--games", "2", "--max-rounds", "0"], "--max-rounds must be at least 1"),
    (["check-log", "agot", "/nonexistent/log"], "no such file"),
])
def test_a_bad_argument_is_a_usage_error_with_a_message(argv, message, capsys):
    assert exit_code(argv) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_a_site_that_cannot_be_written_is_refused_before_any_page_is_made(tmp_path, capsys):
    pytest.importorskip("mkdocs")
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    assert exit_code(["site", "build", "--out", str(blocked / "site")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("ludex: error: cannot write the site to ") and "Traceback" not in err
