"""Evaluation: accuracy figures of a model folder and the fan benchmark."""
