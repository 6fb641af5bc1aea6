"""Writing the output directory: the contract that guards it (:mod:`.staging`), the manifest of
what a run wrote (:mod:`.manifest`), and the rule that it never overlaps the inputs
(:mod:`.overlap`).
"""
