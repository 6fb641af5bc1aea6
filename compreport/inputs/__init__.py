"""Inputs: specs (competition.toml, workshop.toml), table readers, and the validated :class:`Competition`."""
