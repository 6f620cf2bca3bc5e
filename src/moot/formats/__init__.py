"""Debate formats. Each is a small pipeline of rounds over the model layer."""
