"""Local cloud services shared by the phone and the desktop (CRAB's Google account apps).

One loopback server (:class:`ServicesServer`) hosts Mail, Calendar, Contacts, Tasks, Notes,
Files, Messages, Maps, Clock and Settings over one SQLite account state, with a
token-protected internal API. :class:`ServicesEnvironment` makes it a reefbench environment:
tasks seed it with the setup actions of :mod:`reefbench.envs.services.seeding` and check it with the
evaluators of :mod:`reefbench.envs.services.evaluators`.

Importing this package is light; FastAPI and uvicorn (the ``services`` extra) load when a
server starts.
"""

from reefbench.envs.services.environment import ServicesClient, ServicesEnvironment
from reefbench.envs.services.server import ServicesServer

__all__ = ["ServicesClient", "ServicesEnvironment", "ServicesServer"]
