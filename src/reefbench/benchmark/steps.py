"""OS-MAP L1 (step-by-step) instructions in a person's words, for reef-v0's devices.

An L1 task tells the agent every action, but as a person would: "tap the Tasks icon",
"type "Buy milk" into the New task field", never ``tap_on(name='task-title')``. A model
reads the action names and resource ids from its tool list anyway; an instruction that
spells them tests copying, and ties the task to one action space. The labels here are
the ones the apps show (``apps/templates``, ``envs/phone``).
"""

from __future__ import annotations

from collections.abc import Sequence

from reefbench.actions.spec import ActionCall
from reefbench.envs.phone.catalog import SERVICE_APPS, SYSTEM_APPS

# Phone app icon ids (``drawer_<last part of the package>``) -> the label under the icon.
ICONS = {f"drawer_{app.package.rsplit('.', 1)[1]}": app.name for app in SYSTEM_APPS + SERVICE_APPS}
# Phone form fields by id -> their visible label; "body" depends on the app it is in.
FIELDS = {
    "to": "To",
    "subject": "Subject",
    "title": "Title",
    "name": "Name",
    "phone": "Phone",
    "place": "Place",
    "minutes": "Minutes",
    "origin": "Start location",
    "destination": "Destination",
    "content": "Content",
    "city": "Add city",
    "digits": "Enter a number",
    "task-title": "New task",
}
BODY = {"Mail": "Message", "Notes": "Note", "Messages": "Text message"}
BUTTONS = {"call": "Call"}


def _keys(keys: Sequence[str]) -> str:
    return "+".join(k.capitalize() if len(k) > 1 else k.upper() for k in keys)


def _typed(text: str) -> str:
    if text.endswith("\n"):
        return f'type "{text[:-1]}" and press Enter'
    return f'type "{text}"'


def describe_steps(calls: Sequence[ActionCall]) -> list[str]:
    """One step in words per call, naming only what is on screen."""
    steps: list[str] = []
    app = ""
    for call in calls:
        args = call.arguments
        where = {"desktop": "on the computer", "phone": "on the phone"}.get(
            call.env, "in the browser"
        )
        if call.name == "search_app":
            steps.append(f"{where}, open the {args['name']} app")
        elif call.name == "write_text":
            steps.append(f"{where}, {_typed(str(args['text']))}")
        elif call.name == "press":
            steps.append(f"{where}, press {_keys([str(args['key'])])}")
        elif call.name == "hotkey":
            steps.append(f"{where}, press {_keys(args['keys'])}")
        elif call.name == "show_all_drawer":
            steps.append(f"{where}, open the list of all apps")
        elif call.name in ("tap_on", "click_on"):
            name = str(args["name"])
            verb = "tap" if call.env == "phone" else "click"
            if name in ICONS:
                app = ICONS[name]
                steps.append(f'{where}, tap the "{app}" icon')
            elif name == "body" and app in BODY:
                steps.append(f'{where}, {verb} the "{BODY[app]}" field')
            elif name in FIELDS:
                steps.append(f'{where}, {verb} the "{FIELDS[name]}" field')
            else:
                steps.append(f'{where}, {verb} "{BUTTONS.get(name, name)}"')
        elif call.name == "wait":
            steps.append("wait a moment")
        elif call.name == "submit":
            steps.append(f'submit the answer "{args["answer"]}"')
        elif call.name == "call_user":
            steps.append(f"ask the user for the {args['kind']}")
        else:  # an action without words yet: the lint gate names it
            steps.append(f"{where}, {call.name}({args})")
    return steps
