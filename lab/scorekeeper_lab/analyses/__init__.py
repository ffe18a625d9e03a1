"""Analyses kept as tools; lab/README.md says the question each answers."""
