"""Synthetic card tables for training the detector: art install, scene composer, dataset CLI.

Heavy imports (OpenCV, numpy) live in the submodules so `import scorekeeper_lab.training.synth`
stays cheap; use `render_scene` from `compose` or run `python -m scorekeeper_lab.training.synth`.
"""
