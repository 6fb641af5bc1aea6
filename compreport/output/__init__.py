"""Writing the output directory: the contract that guards it (:mod:`.staging`), the manifest of
what a run wrote (:mod:`.manifest`), the rule that it never overlaps the inputs
(:mod:`.overlap`), and the one CSV writer of every export (:mod:`.csvfile`).
"""
