"""Compliance: game logs replayed against the rules, and the rules checked by playing random games."""
