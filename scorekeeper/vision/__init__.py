"""Camera frame → card identities: detector, crop classifier, corner pairing.

Nothing here is imported by the rules or the `score` command; OpenCV and the inference
runtime load only when a frame is read. Training the model is lab/scorekeeper_lab/training/, which
nothing here imports.
"""
