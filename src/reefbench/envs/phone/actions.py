"""Setup actions over the phone's own state, run before the task starts.

The actions an agent calls on the phone are the shared touch actions
(:mod:`reefbench.envs.ui.actions`); these change what is behind the screen (a setting), as
a task's setup does. Route them with ``.on("phone")``; the checks that read the same state
are :mod:`reefbench.envs.phone.evaluators`.
"""

from __future__ import annotations

from reefbench.actions.spec import action
from reefbench.envs.phone.environment import PhoneEnvironment


@action
def set_phone_setting(key: str, value: str, env: PhoneEnvironment) -> str:
    """Change a phone setting before the task starts.

    Args:
        key: wifi, bluetooth, airplane_mode, dark_mode, do_not_disturb (on/off) or
            bluetooth_name (text).
        value: "on"/"off" for switches, the text otherwise.
    """
    env.set_setting(key, value)
    return f"{key} = {value}"
