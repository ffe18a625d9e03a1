"""The API's routes, one `APIRouter` per area: games, events, pages, scan, knock, decks and
the club's. Routes are thin: they read a request, call plain modules, return a model.
"""
