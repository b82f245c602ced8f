"""Local cloud services shared by the phone and the desktop (CRAB's Google account apps).

One loopback server (:class:`ServicesServer`) hosts Mail, Calendar, Contacts, Tasks, Notes,
Files, Messages, Maps, Clock and Settings over one SQLite account state, with a
token-protected internal API. :class:`ServicesEnvironment` makes it a reefbench environment:
tasks seed it with the setup actions of :mod:`reefbench.apps.seeding` and check it with the
evaluators of :mod:`reefbench.apps.evaluators`.

Importing this package is light; FastAPI and uvicorn (the ``services`` extra) load when a
server starts.
"""

from reefbench.apps.environment import ServicesClient, ServicesEnvironment
from reefbench.apps.server import ServicesServer

__all__ = ["ServicesClient", "ServicesEnvironment", "ServicesServer"]
