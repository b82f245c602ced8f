"""LibreOffice on the desktop: the prepared user profile the baseline home carries.

A fresh LibreOffice profile greets its first start with a "what's new" bar, a tip-of-the-day
dialog and, after an app was killed at reset, a document-recovery dialog; it autosaves
recovery data every few minutes and drops ``.~lock.NAME#`` files next to open documents.
None of that is the agent's doing, and each would be a dialog in the way or a file in the
side-effect diff. The settings below switch it off, in the one file LibreOffice reads its
user settings from (``registrymodifications.xcu``); LibreOffice fills in the rest of the
profile on its first start inside the sandbox.
"""

from __future__ import annotations

from pathlib import Path
from xml.sax.saxutils import quoteattr

PROFILE = ".config/libreoffice/4/user"
# The version the profile says it has already greeted: the "what's new" bar appears when
# this differs from the running version's major.minor.
_GREETED_VERSION = "7.4"

# (configuration path, property, type, value): each one a dialog or a stray file avoided.
# LibreOffice silently drops a setting its schema does not know, so each of these was
# checked against the file LibreOffice writes back (the test of this module keeps them).
SETTINGS: tuple[tuple[str, str, str, str], ...] = (
    ("/org.openoffice.Setup/Product", "ooSetupLastVersion", "string", _GREETED_VERSION),
    ("/org.openoffice.Setup/Office", "ooSetupInstCompleted", "boolean", "true"),
    ("/org.openoffice.Office.Common/Misc", "FirstRun", "boolean", "false"),
    ("/org.openoffice.Office.Common/Misc", "ShowTipOfTheDay", "boolean", "false"),
    # No recovery data written while the agent works, no recovery dialog after reset.
    ("/org.openoffice.Office.Recovery/AutoSave", "Enabled", "boolean", "false"),
    ("/org.openoffice.Office.Recovery/RecoveryInfo", "Enabled", "boolean", "false"),
    # No ".~lock.report.odt#" next to every open document (one user, one sandbox).
    ("/org.openoffice.Office.Common/Misc", "UseLocking", "boolean", "false"),
    # Saving in a non-ODF format asks "Keep current format?" otherwise.
    ("/org.openoffice.Office.Common/Save/Document", "WarnAlienFormat", "boolean", "false"),
    # No "LibreOffice was not shut down properly" and no crash-report prompt.
    ("/org.openoffice.Office.Common/Misc", "CrashReport", "boolean", "false"),
    # Impress opens on a "Select a Template" dialog otherwise.
    ("/org.openoffice.Office.Impress/Misc/NewDoc", "AutoPilot", "boolean", "false"),
    # Plain typing stays plain: no autocorrect turning "(c)" into "©" or a typed value
    # into a capitalised one, so what an agent types is what the checkpoint reads.
    (
        "/org.openoffice.Office.Writer/AutoFunction/Format/Option",
        "UseReplacementTable",
        "boolean",
        "false",
    ),
    ("/org.openoffice.Office.Calc/Input", "AutoInput", "boolean", "false"),
)


def registry_modifications() -> str:
    """The ``registrymodifications.xcu`` of the prepared profile."""
    items = "\n".join(
        f'<item oor:path={quoteattr(path)}><prop oor:name={quoteattr(name)} oor:op="fuse">'
        f"<value>{value}</value></prop></item>"
        for path, name, _kind, value in SETTINGS
    )
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<oor:items xmlns:oor="http://openoffice.org/2001/registry" '
        'xmlns:xs="http://www.w3.org/2001/XMLSchema" '
        'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">\n'
        f"{items}\n"
        "</oor:items>\n"
    )


def write_office_profile(home: Path) -> Path:
    """Write the prepared LibreOffice profile under ``home``; returns its folder."""
    profile = home / PROFILE
    profile.mkdir(parents=True, exist_ok=True)
    (profile / "registrymodifications.xcu").write_text(registry_modifications())
    return profile
