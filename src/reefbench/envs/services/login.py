"""The account's default login, shared by the server, the app and the environment.

Its own module so that :mod:`.server` (which builds the app) and :mod:`.app` (which
checks the login) both read it without importing each other.
"""

DEFAULT_USERNAME = "alex"
DEFAULT_PASSWORD = "reef-password"
