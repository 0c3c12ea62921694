"""Bookkeeping: what a game keeps to avoid working out again what nothing has changed. The state's
version and what changed at which version come in from whatever changes the state (``Game``, the
operations in ``runtime/operations.py``, the statements written as Python by ``program/statements.py``);
out go the answers to "has anything this reads changed since it last looked?", asked by the state
checks (``Game.run_checks``), the invariants (``Game.look``), the remembered values (written by
``program/expressions.py``), the cards in play (``Game.cards_in_play_now``), the players still in the
game (``runtime/builtins.py``) and the compliance checker.

None of it is the game: what a game does never depends on it, only how much it works out again.
"""

from __future__ import annotations


class Bookkeeping:
    """A game's counters of change and the marks of those who read them (``Game.books``).

    Changes counted (each only grows):

    - ``version``: bumped by every change to the state (each change is recorded in the trace, and
      creating or moving a card bumps it too)
    - ``cards_moved``: bumped whenever a card is created, moved or a zone reordered
    - ``bounds_changed``: bumped whenever a statement changes what may leave a supply or a counter out
      of its bounds though the statement refuses a value out of them (``BlockWriter.unrefused``: a
      game's supply, a transfer from a counter with a minimum; and a card's attribute of such a name)
    - ``eliminations``: bumped whenever a player is eliminated
    - ``zones_changed``, ``cards_placed``: the zones whose cards were changed, and the cards created,
      moved or reordered, since the invariants last looked (emptied by them)

    Marks of who looked when, and what they found:

    - ``stale``: the state checks that may find something new since each last looked, as bits (check
      ``i`` is ``1 << i``, ``reads.CheckBits``): a change marks those that read what it changed (a
      statement's names, a card entering or leaving a zone they read or any zone, a modifier on a name
      starting, stopping or beginning to apply), a player eliminated or a dict gaining a name marks
      them all (``every``); a check's look clears its own. Every check is marked at first. While none
      is, the polls written after each statement call nothing
    - ``checked_at``: the version when the checks whose reads cannot be told (``CheckBits.unknown``)
      were last marked: they are marked whenever the state has changed since
    - ``invariants_at``: ``cards_moved + bounds_changed`` when the invariants last looked;
      ``cards_checked_at``, ``bounds_checked_at``: each of the two then
    - ``remembered``, ``remembered_at``: the values without parameters worked out at version
      ``remembered_at``, by name and card
    - ``in_play``, ``in_play_at``: the cards in play, listed when ``cards_moved`` was ``in_play_at``
    - ``in_play_zones``, ``in_play_ranks``: the zones marked in-play, players in seat order, and each
      one's place among them (None and empty until first asked)
    - ``titles_in_play``: the cards in play by title, each title's in the order of the cards in play:
      kept up to date as a card enters or leaves a zone in play (``Game.move_card``); None to make it
      again (at first, and after a zone in play is reordered or a card created in one)
    - ``players_in``: ``(eliminations, the players still in the game)`` as last counted: the list is
      never changed in place
    """

    # Slots: read and bumped by nearly every statement the rules run.
    __slots__ = ("bounds_changed", "bounds_checked_at", "cards_checked_at", "cards_moved",
                 "cards_placed", "checked_at", "eliminations", "every",
                 "in_play", "in_play_at", "in_play_ranks", "in_play_zones", "invariants_at",
                 "players_in", "remembered", "remembered_at", "stale",
                 "titles_in_play", "version", "zones_changed")

    def __init__(self, checks: int):
        """Nothing changed yet and nobody looked, for a game with ``checks`` state checks."""
        self.version = 0
        self.cards_moved = 0
        self.bounds_changed = 0
        self.eliminations = 0
        self.zones_changed: set = set()
        self.cards_placed: set = set()
        #: every state check, as bits
        self.every = (1 << checks) - 1
        self.stale = self.every
        self.checked_at = -1
        self.invariants_at = -1
        self.cards_checked_at = -1
        self.bounds_checked_at = -1
        self.remembered: dict = {}
        self.remembered_at = -1
        self.in_play: list = []
        self.in_play_at = -1
        self.in_play_zones: list | None = None
        self.in_play_ranks: dict = {}
        self.titles_in_play: dict | None = None
        self.players_in: tuple = (-1, [])
