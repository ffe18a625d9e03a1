"""Deck profiles: what the scorekeeper has learned about one physical deck design.

`profile` (names, folders, manifest, fallback), `examples` (stored crops), `labels`
(`deck add --labels`), `enrol` (the mat layout and `deck enrol`), `cli` (`scorekeeper deck`).
Adapting a deck's classifier is training code: lab/scorekeeper_lab/training/adapt.py.
"""
