"""Refusals in the player's language: every code the server answers with (`codes`), the
words for each, read from the page's own catalogues (`catalogue`), the language a request
asks for (`language`), and the message put together from a code and its params (`say`)."""
