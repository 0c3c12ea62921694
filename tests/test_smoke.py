from ludex.parse.syntax import parse_rules
from ludex.parse import ast as A


def test_rule_block_parses_with_its_number_and_title():
    module = parse_rules('rule 3.2 "Active player collects income" { text "The first player ..." }', "x.ludex")
    rule = module.items[0]
    assert isinstance(rule, A.Rule)
    assert (rule.id, rule.title) == ("3.2", "Active player collects income")
    assert rule.span.line == 1 and rule.id_span.column == 6
