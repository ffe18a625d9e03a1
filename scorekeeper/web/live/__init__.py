"""Live delivery: the in-process hub that hands each change to the phones' event streams, and
the one write path that commits a change and then publishes it.
"""
