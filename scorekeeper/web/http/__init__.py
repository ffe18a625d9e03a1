"""HTTP plumbing the routes share: who may call (auth), how a refusal is answered (errors), the
headers every answer carries, body and connection limits, image sizes, and the
preconditions a write names (If-Match, Idempotency-Key).
"""
