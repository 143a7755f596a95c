"""What plays the generated engines: bots, tournaments and balance studies.

Not a compiler stage: it imports engines only through their public API
(`new_game`, `observation`, `legal_actions`, `apply`, `scores`, `winners`, the tables).
"""
