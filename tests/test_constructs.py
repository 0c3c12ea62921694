"""One test per construct of the language (the table in LANGUAGE.md): a parsed example of each, with
the AST fields it must produce. Nodes compare by value, not by span, so expected nodes are written
with ``N`` (no position) and compared whole."""

from __future__ import annotations

from pathlib import Path

import pytest

from ludex.parse import ast as A
from ludex.check.checks import check
from ludex.parse.definition import assemble
from ludex.parse.syntax import parse_rules

N = A.NOWHERE


def items(source: str) -> tuple:
    return parse_rules(source, "construct.ludex").items


def only(source: str):
    (item,) = items(source)
    return item


def body(statements: str) -> tuple:
    """The statements of a rule holding ``statements``."""
    return only('rule 1 "R" {\n' + statements + "\n}").body


def name(n: str) -> A.Name:
    return A.Name(N, n)


def attr(subject: str, n: str) -> A.Attr:
    return A.Attr(N, name(subject), n)


def num(n: int) -> A.Number:
    return A.Number(N, n)


# ------------------------------------------------------------------ game header


def test_game_header_names_sources_versions_player_counts_and_formats():
    game = only('''game agot "A Game of Thrones: The Card Game, Second Edition" {
      source main "Rules Reference" version "1.0" "Framework Event Details, pp. 26-27"
      source faq "Frequently Asked Questions" version "1.0"
      players 2 to 8
      formats joust for 2 players melee for 3 to 8 players open
      excerpt ends after 4.2 "The transcribed pages stop at 4.2."
    }''')
    assert game == A.GameHeader(N, "agot", "A Game of Thrones: The Card Game, Second Edition",
                          (A.Source(N, "main", "Rules Reference", "1.0", "Framework Event Details, pp. 26-27"),
                           A.Source(N, "faq", "Frequently Asked Questions", "1.0", "")),
                          2, 8, ("joust", "melee", "open"), (("joust", 2, 2), ("melee", 3, 8)), "4.2",
                          "The transcribed pages stop at 4.2.")
    assert (game.span.line, game.span.column) == (1, 1)
    assert (game.excerpt_span.line, game.excerpt_span.column) == (6, 26)


# ------------------------------------------------------------------ state schema


def test_state_schema_counters_supplies_zones_rows_flags_roles():
    state = only('''state {
      game counter mission-timer = 1 min 1 max 8
      player counter gold = 0 min 0
      game supply treasury = 200
      player zone plot-deck hidden
      player zone draw-deck hidden ordered
      player zone revealed-plots public
      player row locales
      role first-player
      player flag stunned
    }''')
    assert state.fields == (
        A.StateField(N, "game", "counter", "mission-timer", num(1), num(1), num(8)),
        A.StateField(N, "player", "counter", "gold", num(0), num(0), None),
        A.StateField(N, "game", "supply", "treasury", num(200)),
        A.StateField(N, "player", "zone", "plot-deck", hidden=True),
        A.StateField(N, "player", "zone", "draw-deck", hidden=True, ordered=True),
        A.StateField(N, "player", "zone", "revealed-plots"),
        A.StateField(N, "player", "row", "locales"),
        A.StateField(N, "game", "role", "first-player"),
        A.StateField(N, "player", "flag", "stunned"),
    )


# ------------------------------------------------------------------ cards, dice and decks


def test_card_types_cards_abilities_and_deck_lists():
    card_type, card, deck, dice = items('''
      card type plot { gold: number  initiative: number  reserve: number = 6  trait: text }
      card "Trading with the Pentoshi" plot copies 2 {
        gold 6 initiative 0 trait "Edict"
        ability "Trading with the Pentoshi" "When revealed" { increase this.owner.gold by 1 }
        ability "Reaction" when revealed(c) { log "revealed" }
      }
      deck plots { 1 "A Noble Cause" 2 "Trading with the Pentoshi" }
      dice attack { faces success, success, blank }
    ''')
    assert card_type == A.CardType(N, "plot", (A.FieldDecl(N, "gold", "number"),
                                               A.FieldDecl(N, "initiative", "number"),
                                               A.FieldDecl(N, "reserve", "number", num(6)),
                                               A.FieldDecl(N, "trait", "text")))
    assert (card.title, card.type, card.copies) == ("Trading with the Pentoshi", "plot", 2)
    assert card.fields == (A.CardField(N, "gold", num(6)), A.CardField(N, "initiative", num(0)),
                           A.CardField(N, "trait", A.Text(N, "Edict")))
    initiated, triggered = card.abilities
    assert (initiated.name, initiated.kind, initiated.event) == ("Trading with the Pentoshi", "When revealed", None)
    assert initiated.body == (A.Change(N, A.Attr(N, A.Attr(N, A.This(N), "owner"), "gold"), num(1), 1),)
    assert (triggered.name, triggered.kind) == ("Reaction", "")
    assert triggered.event == A.Event(N, "named", "", "revealed", ("c",))
    assert deck == A.Deck(N, "plots", ((1, "A Noble Cause"), (2, "Trading with the Pentoshi")))
    assert dice == A.Dice(N, "attack", ("success", "success", "blank"))


def test_card_abilities_become_triggers_of_the_game():
    game = assemble("g", [parse_rules('card type t { }\ncard "C" t { ability "R" when end round { log "x" } }',
                                      "g.ludex")])
    (trigger,) = game.triggers
    assert trigger.rule == "card:C" and trigger.event == A.Event(N, "end", "round", "")


# ------------------------------------------------------------------ procedure and milestones


def test_procedure_rules_nest_by_id_and_the_flow_runs_them():
    module = parse_rules('''
      rule 1 "Plot phase" { text "The plot phase." }
      rule 1.1 "Plot phase begins" { begin round begin phase plot }
      rule 1.2 "Choose plots" { log "choose" }
      rule 1.5 "Plot phase ends" { end phase plot }
      rule 500.1c "Turn order" { end round }
      rule start-phase.remove-day-counter "Remove Day Counter" { end turn  begin game  end game }
      flow { run 1 repeat { run 1.1 } }
    ''', "p.ludex")
    game = assemble("p", [module])
    assert list(game.rules) == ["1", "1.1", "1.2", "1.5", "500.1c", "start-phase.remove-day-counter"]
    assert game.children_of("1") == ["1.1", "1.2", "1.5"]
    assert game.parent_of("start-phase.remove-day-counter") is None
    assert game.rules["1.1"].body == (A.Milestone(N, "begin", "round", ""), A.Milestone(N, "begin", "phase", "plot"))
    assert game.rules["1.5"].body == (A.Milestone(N, "end", "phase", "plot"),)
    assert game.rules["start-phase.remove-day-counter"].body == (
        A.Milestone(N, "end", "turn", ""), A.Milestone(N, "begin", "game", ""), A.Milestone(N, "end", "game", ""))
    assert game.flow.body == (A.Run(N, "1"), A.Repeat(N, (A.Run(N, "1.1"),), None))


# ------------------------------------------------------------------ control flow


def test_control_flow_conditionals_loops_goto_and_skip():
    if_, repeat, while_, for_, proceed, return_, go, skip = body('''
      if x > 1 { log "a" } else if x == 1 { log "b" } else { log "c" }
      repeat { decrease x by 1 } until x == 0
      while x < 3 { increase x by 1 }
      for each p in players { log "p" }
      proceed to 3.4
      return to 3.2
      go to 3.1
      skip this step
    ''')
    log = lambda m: A.Log(N, m)  # noqa: E731
    assert if_ == A.If(N, ((A.Binary(N, ">", name("x"), num(1)), (log("a"),)),
                           (A.Binary(N, "==", name("x"), num(1)), (log("b"),))), (log("c"),))
    assert repeat == A.Repeat(N, (A.Change(N, name("x"), num(1), -1),), A.Binary(N, "==", name("x"), num(0)))
    assert while_ == A.While(N, A.Binary(N, "<", name("x"), num(3)), (A.Change(N, name("x"), num(1), 1),))
    assert for_ == A.ForEach(N, "p", name("players"), (log("p"),), False)
    assert (proceed, return_, go) == (A.Goto(N, "proceed", "3.4"), A.Goto(N, "return", "3.2"), A.Goto(N, "go", "3.1"))
    assert skip == A.Skip(N)


# ------------------------------------------------------------------ player order


def test_player_order_starting_with_clockwise_left_and_simultaneously():
    for_from, left, alternate, at_once = body('''
      for each p in players-from(first-player) { log "clockwise from the first player" }
      set active-player = next-player(active-player)
      set active-player = if odd(round) then defending-player else lead-player
      simultaneously for each p in players { reveal top(p.plot-deck) }
    ''')
    assert for_from.iterable == A.Call(N, "players-from", (name("first-player"),))
    assert left.value == A.Call(N, "next-player", (name("active-player"),))
    assert alternate.value == A.IfExpr(N, A.Call(N, "odd", (name("round"),)), name("defending-player"),
                                       name("lead-player"))
    assert at_once.simultaneous and at_once.body == (A.Reveal(N, A.Call(N, "top", (attr("p", "plot-deck"),))),)


# ------------------------------------------------------------------ decisions


def test_decisions_choose_hidden_number_may_and_order():
    choose, hidden, number, may, order = body('''
      winner chooses f from players "Choose the first player"
      p chooses plot from cards(p.plot-deck) hidden
      p chooses number n from 0 to 3 "How many movement points?"
      p may "Put it on the bottom?" { move c to search-deck at bottom } else { move c to search-deck at top }
      first-player orders abilities from revealed "Order the When revealed abilities"
    ''')
    assert choose == A.Choose(N, name("winner"), "f", name("players"), False, "Choose the first player")
    assert hidden == A.Choose(N, name("p"), "plot", A.Call(N, "cards", (attr("p", "plot-deck"),)), True, "")
    assert number == A.ChooseNumber(N, name("p"), "n", num(0), num(3), "How many movement points?")
    assert may == A.May(N, name("p"), "Put it on the bottom?",
                        (A.Move(N, name("c"), name("search-deck"), "bottom"),),
                        (A.Move(N, name("c"), name("search-deck"), "top"),))
    assert order == A.Order(N, name("first-player"), "abilities", name("revealed"), "Order the When revealed abilities")


# ------------------------------------------------------------------ windows and menus


def test_action_windows_and_turn_menus_with_counts():
    window, turn, two = body('''
      window "Marshaling phase action window" starting with first-player { any number of marshal, pass }
      turn of p { exactly one of function then any number of play-card }
      turn of p { 2 of move, search, rest repeats allowed then up to 1 of scare }
    ''')
    assert window == A.Window(N, "Marshaling phase action window", name("first-player"),
                              (A.MenuPart(N, "any", 0, ("marshal", "pass"), False),))
    assert turn == A.Turn(N, name("p"), (A.MenuPart(N, "one", 1, ("function",), False),
                                         A.MenuPart(N, "any", 0, ("play-card",), False)))
    assert two.menu == (A.MenuPart(N, "n", 2, ("move", "search", "rest"), True),
                        A.MenuPart(N, "up-to", 1, ("scare",), False))


# ------------------------------------------------------------------ legality


def test_legality_actions_require_and_cite():
    rule = only('''rule 3.2 "Marshal" {
      action marshal "marshal a card" by p (c: card from p.hand, n: number) cite 3.2 {
        let cost = c.cost
        require p == active-player cite 3.2 "Only the active player may marshal cards."
        require cost <= p.gold or duplicate-in-play(c) cite 3.2 "You do not have enough gold."
        move c to p.play-area
      }
    }''')
    (action,) = rule.actions
    assert (action.name, action.label, action.actor, action.cite, action.rule) == (
        "marshal", "marshal a card", "p", "3.2", "3.2")
    assert action.params == (A.Param(N, "c", "card", attr("p", "hand")), A.Param(N, "n", "number", None))
    let, first, second, move = action.body
    assert first == A.Require(N, A.Binary(N, "==", name("p"), name("active-player")), "3.2",
                              "Only the active player may marshal cards.")
    assert second.condition == A.Binary(N, "or", A.Binary(N, "<=", name("cost"), attr("p", "gold")),
                                        A.Call(N, "duplicate-in-play", (name("c"),)))
    assert (first.cite_span.line, first.cite_span.column) == (4, 41)


def test_perform_a_play_the_rules_make():
    (perform,) = body("perform marshal(top(p.hand)) by p")
    assert perform == A.Perform(N, "marshal", (A.Call(N, "top", (attr("p", "hand"),)),), name("p"))


# ------------------------------------------------------------------ randomness


def test_randomness_shuffle_pick_and_dice():
    shuffle, pick, roll = body('''
      shuffle p.draw-deck
      pick w at random from tied
      roll 3 attack dice as faces
    ''')
    assert shuffle == A.Shuffle(N, attr("p", "draw-deck"))
    assert pick == A.Pick(N, "w", name("tied"))
    assert roll == A.Roll(N, num(3), "attack", "faces")


# ------------------------------------------------------------------ triggers and state checks


def test_triggers_and_state_checks():
    rule = only('''rule 501.1 "End of round" {
      when end round { increase mission-timer by 1 }
      when begin phase plot for p in players { log "each" }
      when revealed(c) { log "revealed" }
      whenever size(p.draw-deck) == 0 for p in players { eliminate p }
      whenever p.damage >= 12 for p in players { eliminate p }
    }''')
    end_round, begin_phase, revealed = rule.triggers
    assert end_round == A.Trigger(N, A.Event(N, "end", "round", ""), "", None,
                                  (A.Change(N, name("mission-timer"), num(1), 1),), "501.1")
    assert begin_phase.event == A.Event(N, "begin", "phase", "plot")
    assert (begin_phase.var, begin_phase.iterable) == ("p", name("players"))
    assert revealed.event == A.Event(N, "named", "", "revealed", ("c",))
    deck_out, damage = rule.checks
    assert deck_out == A.Check(N, A.Binary(N, "==", A.Call(N, "size", (attr("p", "draw-deck"),)), num(0)), "p",
                               name("players"), (A.Eliminate(N, name("p")),), "501.1")
    assert damage.condition == A.Binary(N, ">=", attr("p", "damage"), num(12))


def test_emit_an_event():
    (emit,) = body("emit revealed(c, p)")
    assert emit == A.Emit(N, "revealed", (name("c"), name("p")))


# ------------------------------------------------------------------ modifiers and durations


def test_modifiers_with_durations_and_values():
    rule = only('''rule 500.1d "Take the initiative" {
      value first-turn-player = if odd(mission-timer) then defending-player else lead-player
      value income(p) = top(p.revealed-plots).gold
      modify first-turn-player to p for next round
      modify income(p) by 2 until end of round
      modify p.gold to 0 for this phase marshaling
      modify initiative(p) by -1 until end of phase plot
    }''')
    first_turn, income = rule.values
    assert (first_turn.name, first_turn.params, first_turn.rule) == ("first-turn-player", (), "500.1d")
    assert income == A.Value(N, "income", ("p",), A.Attr(N, A.Call(N, "top", (attr("p", "revealed-plots"),)), "gold"),
                             "500.1d")
    next_round, until_round, this_phase, until_phase = rule.body
    assert next_round == A.Modify(N, name("first-turn-player"), "to", name("p"),
                                  A.Duration(N, "for_next", "round", ""))
    assert until_round == A.Modify(N, A.Call(N, "income", (name("p"),)), "by", num(2),
                                   A.Duration(N, "until_end", "round", ""))
    assert this_phase.duration == A.Duration(N, "for_this", "phase", "marshaling")
    assert until_phase.value == A.Unary(N, "-", num(1))
    assert until_phase.duration == A.Duration(N, "until_end", "phase", "plot")


# ------------------------------------------------------------------ game end


def test_game_end_win_eliminate_chosen_winner_tally_and_round_limit():
    win, eliminate, choose, chosen, tally, limit = body('''
      win first-player
      eliminate those p in players: size(p.draw-deck) == 0
      pumpkin-king chooses w from players "Choose the winner"
      win w
      win highest p in players by p.score
      if mission-timer > 7 { end game }
    ''')
    assert win == A.Win(N, name("first-player"))
    assert eliminate == A.Eliminate(N, A.Quantified(N, "those", "p", name("players"),
                                                    A.Binary(N, "==", A.Call(N, "size", (attr("p", "draw-deck"),)), num(0))))
    assert choose.var == "w" and chosen == A.Win(N, name("w"))
    assert tally == A.Win(N, A.Ranked(N, "highest", "p", name("players"), attr("p", "score")))
    assert limit.branches[0][1] == (A.Milestone(N, "end", "game", ""),)


# ------------------------------------------------------------------ boards and rows


def test_board_keeps_its_drawing_line_by_line():
    board = only('''board haddonfield """
          A   B
        +---+---+
      1 | .   . |
        +---+---+
      mark . outdoor
    """''')
    assert board.name == "haddonfield"
    assert board.drawing.splitlines() == ["    A   B", "  +---+---+", "1 | .   . |", "  +---+---+",
                                          "mark . outdoor"]
    assert only('board tiny "A"') == A.BoardDrawing(N, "tiny", "A")


def test_rows_of_places_with_ends_only_placement():
    state = only("state { player row locales }")
    assert state.fields == (A.StateField(N, "player", "row", "locales"),)
    left, right, default = body('''
      move top(p.locale-deck) to p.locales at left-end
      move top(p.locale-deck) to p.locales at right-end
      move c to p.hand
    ''')
    assert (left.place, right.place, default.place) == ("left-end", "right-end", "top")
    assert left.destination == attr("p", "locales")


# ------------------------------------------------------------------ reference text


def test_reference_text_notes_examples_and_errata_with_versions():
    rule, apart, outside = items('''
      rule 1.3 "Reveal plots" {
        text """The player with the highest initiative value
                (which incorporates all relevant reserve modifiers) wins initiative.

                Second paragraph."""
        note "Steps I and II are skipped outside the plot phase."
        example "Example: a \\"quoted\\" word."
        erratum faq "1.0" replaces "reserve modifiers" with "initiative modifiers"
      }
      erratum faq "1.0" on 1.3 replaces "wins initiative" with "wins the initiative"
      rule 600 "Combat" outside source { note "Not transcribed." }
    ''')
    assert rule.docs == (
        A.Doc(N, "text", "The player with the highest initiative value (which incorporates all relevant reserve "
                         "modifiers) wins initiative.\n\nSecond paragraph."),
        A.Doc(N, "note", "Steps I and II are skipped outside the plot phase."),
        A.Doc(N, "example", 'Example: a "quoted" word.'))
    assert rule.errata == (A.Erratum(N, "faq", "1.0", "reserve modifiers", "initiative modifiers"),)
    assert apart == A.Erratum(N, "faq", "1.0", "wins initiative", "wins the initiative", "1.3")
    assert (apart.rule_span.line, apart.rule_span.column) == (11, 28)
    assert outside.outside and outside.docs == (A.Doc(N, "note", "Not transcribed."),)
    assert not rule.outside


# ------------------------------------------------------------------ set-up statements


@pytest.mark.parametrize("source, expected", [
    ("let x = 1", A.Let(N, "x", num(1))),
    ("set first-player = p", A.Set(N, name("first-player"), name("p"))),
    ("clear active-player", A.Set(N, name("active-player"), None)),
    ("increase p.gold by 2", A.Change(N, attr("p", "gold"), num(2), 1)),
    ("decrease p.gold by 2", A.Change(N, attr("p", "gold"), num(2), -1)),
    ("transfer 3 from treasury to p.gold", A.Transfer(N, num(3), name("treasury"), attr("p", "gold"))),
    ("create starter into p.draw-deck", A.Create(N, name("starter"), attr("p", "draw-deck"))),
    ("draw 2 from p.draw-deck to p.hand", A.Draw(N, num(2), attr("p", "draw-deck"), attr("p", "hand"))),
    ("reveal c", A.Reveal(N, name("c"))),
    ("initiate \"When revealed\" abilities of plots ordered by first-player",
     A.Initiate(N, "When revealed", name("plots"), name("first-player"))),
    ("log \"words\"", A.Log(N, "words")),
])
def test_state_changing_statements(source, expected):
    assert body(source) == (expected,)


def test_a_game_using_the_constructs_passes_the_static_checks():
    path = Path(__file__).parent / "golden" / "parse" / "agot_excerpt.ludex"
    module = parse_rules(path.read_text(encoding="utf-8"), "agot_excerpt.ludex")
    assert check(assemble("agot", [module])) == []
