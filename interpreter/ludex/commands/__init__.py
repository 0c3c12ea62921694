"""The ``ludex`` commands' bodies, a module each, imported by ``cli.py`` only when its command runs (so
that ``ludex --help`` compiles and imports none of them, nor the pipeline they load).

    common.py         a game named on the command line loaded; what several commands share
    check.py          ``ludex check``: rules files checked, a table of the games
    scenario_runs.py  what ``check`` adds when scenarios run (the scenario runner and the engine)
    ask.py            ``ludex ask``: a question as a scenario, answered
    run.py            ``ludex run``: a whole game played, its cited trace printed
    check_log.py      ``ludex check-log``: a game log replayed against the rules
    simulate.py       ``ludex simulate``: many random games, the problems found
    mutate.py         ``ludex mutate``: every rule's mutants run against the scenarios, the scores
    explain.py        ``ludex explain``: a rule found and printed for a judge
    fmt.py            ``ludex fmt``: rules and scenario files in canonical form

In: the parsed command line (``argparse.Namespace``). Out: an exit code, the command's output
printed. The exit codes and the largest seed are here, where the commands and ``cli.py`` both read them.
"""

EXIT_OK, EXIT_FAILURES, EXIT_USAGE, EXIT_SOURCE = 0, 1, 2, 3

#: The largest number a rules or log file may write (18 digits, E003), so the largest seed.
SEED_MOST = 10 ** 18 - 1
