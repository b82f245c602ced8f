"""The phone's apps: its own system apps and the local services' apps, with package names.

Package names are what the XML dump writes in ``package`` and what
:func:`~reefbench.envs.ui.evaluators.current_app` compares, so tasks name apps the way
they would on Android (``com.reef.mail``).
"""

from __future__ import annotations

from dataclasses import dataclass

LAUNCHER = "com.reef.launcher"
SYSTEM_UI = "com.android.systemui"
SHELL_PREFIX = "/__phone"


@dataclass(frozen=True)
class PhoneApp:
    """One installed app.

    Attributes:
        name: Label under the icon.
        package: Android-style package name.
        path: URL path on the shell's origin where the app starts.
        badge: Letter drawn on the icon.
        color: Icon colour.
        home: Also on the home screen (every app is in the drawer).
    """

    name: str
    package: str
    path: str
    badge: str
    color: str
    home: bool = False


SYSTEM_APPS = (
    PhoneApp("Phone", "com.reef.dialer", f"{SHELL_PREFIX}/app/dialer", "☎", "#1e8e3e", home=True),
    PhoneApp("Settings", "com.reef.settings", f"{SHELL_PREFIX}/app/settings", "⚙", "#5f6368", True),
)

# The services' apps (reefbench.envs.services) as phone apps: (URL path, label, package,
# colour, home).
SERVICE_APPS = (
    PhoneApp("Mail", "com.reef.mail", "/mail", "M", "#d93025", home=True),
    PhoneApp("Calendar", "com.reef.calendar", "/calendar", "C", "#1a73e8", home=True),
    PhoneApp("Contacts", "com.reef.contacts", "/contacts", "P", "#12b5cb"),
    PhoneApp("Tasks", "com.reef.tasks", "/tasks", "T", "#188038"),
    PhoneApp("Notes", "com.reef.notes", "/notes", "N", "#f9ab00"),
    PhoneApp("Files", "com.reef.files", "/files", "F", "#1967d2"),
    PhoneApp("Gallery", "com.reef.gallery", "/gallery", "I", "#e8710a"),
    PhoneApp("Messages", "com.reef.messages", "/messages", "S", "#0b8043", home=True),
    PhoneApp("Maps", "com.reef.maps", "/maps", "G", "#34a853", home=True),
    PhoneApp("Clock", "com.reef.clock", "/clock", "A", "#3c4043"),
    PhoneApp("Account", "com.reef.account", "/settings", "O", "#9334e6"),
)


def installed_apps(with_services: bool) -> tuple[PhoneApp, ...]:
    """Every app on the phone, sorted by name as the drawer lists them."""
    apps = SYSTEM_APPS + (SERVICE_APPS if with_services else ())
    return tuple(sorted(apps, key=lambda a: a.name.casefold()))


def app_by_package(apps: tuple[PhoneApp, ...], package: str) -> PhoneApp | None:
    return next((a for a in apps if a.package == package), None)
