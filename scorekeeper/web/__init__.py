"""The table server: HTTP API, live events and the phone page."""
