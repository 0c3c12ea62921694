"""Scenarios: scenario files in, rulings checked out.

    cards.py   a scenario's own cards and deck lists added to its game, checked as a rules file's
    runner.py  a scenario run against its game: set-up, script, expectations met or not
    answer.py  the judge's answer to a question (``ludex ask``): verdicts, expectations, whole trace
    plugin.py  the pytest plugin (entry point ``pytest11``) that collects ``*.scenario`` files
"""
