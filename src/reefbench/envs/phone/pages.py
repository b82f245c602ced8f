"""HTML of the phone: the shell (status bar, launcher, drawer, navigation bar) and the
system apps (Settings, Phone). Plain functions over :func:`html.escape`; the pages are
small and rendered on every request, so no template engine is needed.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from html import escape

from reefbench.envs.phone.catalog import LAUNCHER, SHELL_PREFIX, SYSTEM_UI, PhoneApp
from reefbench.envs.phone.system import SETTING_LABELS, PhoneState, clock_label, date_label

STATIC = f"{SHELL_PREFIX}/static"


def script_json(value: object) -> str:
    """JSON safe inside a <script> element (no '</script>' can end it early)."""
    return json.dumps(value).replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _when(time: str) -> str:
    return f" <span class=when>{escape(time.replace('T', ' '))}</span>" if time else ""


def _icon(app: PhoneApp, where: str) -> str:
    return (
        f'<button class="app" id="{where}_{app.package.rsplit(".", 1)[-1]}" '
        f'data-pkg="{escape(app.package)}" data-class="android.widget.TextView" '
        f'data-long-click aria-label="{escape(app.name)}">'
        f'<span class="badge" aria-hidden="true" style="background:{escape(app.color)}">'
        f"{escape(app.badge)}</span>"
        f'<span class="label">{escape(app.name)}</span></button>'
    )


def shell_page(apps: Sequence[PhoneApp], state: PhoneState, now: str) -> str:
    """The phone's only top-level page: apps open in its ``app_frame``."""
    home = "".join(_icon(a, "home") for a in apps if a.home)
    drawer = "".join(_icon(a, "drawer") for a in apps)
    catalog = script_json({a.package: {"name": a.name, "path": a.path} for a in apps})
    dark = " dark" if state.settings.get("dark_mode") else ""
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Phone</title>
<link rel="stylesheet" href="{STATIC}/shell.css">
</head>
<body class="phone{dark}">
<div id="status_bar" data-package="{SYSTEM_UI}" data-class="android.widget.FrameLayout">
  <span id="clock" data-class="android.widget.TextView">{escape(clock_label(now))}</span>
  <span id="status_icons">
    <span id="wifi_icon" role="img" aria-label="Wi-Fi on"></span>
    <span id="bluetooth_icon" role="img" aria-label="Bluetooth on"></span>
    <span id="battery" role="img" aria-label="Battery 100 percent">100%</span>
  </span>
</div>
<div id="screen" data-class="android.widget.FrameLayout">
  <div id="launcher" data-package="{LAUNCHER}" data-class="android.widget.FrameLayout">
    <div id="home" data-class="android.widget.FrameLayout">
      <p id="date_widget" data-class="android.widget.TextView">{escape(date_label(now))}</p>
      <div id="workspace" data-class="android.view.ViewGroup">{home}</div>
      <button id="all_apps" class="pill" aria-label="All apps">All apps</button>
    </div>
    <div id="drawer" hidden data-class="android.widget.FrameLayout">
      <p id="drawer_title" data-class="android.widget.TextView">All apps</p>
      <div id="apps_list" data-class="androidx.recyclerview.widget.RecyclerView">{drawer}</div>
    </div>
    <div id="app_menu" role="dialog" hidden data-class="android.widget.FrameLayout">
      <p id="app_menu_title" data-class="android.widget.TextView"></p>
      <button id="app_menu_open">Open</button>
      <button id="app_menu_info">App info</button>
    </div>
  </div>
</div>
<div id="navigation_bar" data-package="{SYSTEM_UI}" data-class="android.widget.FrameLayout">
  <button id="back" aria-label="Back" data-class="android.widget.ImageView">
    <span aria-hidden="true">◀</span></button>
  <button id="home_button" aria-label="Home" data-class="android.widget.ImageView">
    <span aria-hidden="true">●</span></button>
</div>
<script>window.PHONE_APPS = {catalog};
window.PHONE_STATE = {script_json(state.as_json(now))};</script>
<script src="{STATIC}/shell.js"></script>
</body></html>"""


def _page(title: str, body: str, state: PhoneState, back_label: str = "") -> str:
    dark = " dark" if state.settings.get("dark_mode") else ""
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{escape(title)}</title>
<link rel="stylesheet" href="{STATIC}/system.css">
</head><body class="system{dark}">
<h1 id="title">{escape(title)}</h1>
{body}
<script src="{STATIC}/system.js"></script>
</body></html>"""


def _switch(key: str, state: PhoneState) -> str:
    on = " checked" if state.settings.get(key) else ""
    label = escape(SETTING_LABELS[key])
    return (
        f'<li class="row"><label for="{key}" id="{key}_title">{label}</label>'
        f'<input type="checkbox" role="switch" id="{key}" data-setting="{key}"'
        f' aria-label="{label}"{on}></li>'
    )


def settings_page(state: PhoneState, now: str) -> str:
    name = escape(str(state.settings["bluetooth_name"]))
    body = f"""<ul id="settings_list">
<li class="section" data-class="android.widget.TextView">Network &amp; internet</li>
{_switch("wifi", state)}
{_switch("airplane_mode", state)}
<li class="section" data-class="android.widget.TextView">Connected devices</li>
{_switch("bluetooth", state)}
<li class="row"><a id="device_name_row" href="{SHELL_PREFIX}/app/settings/name">
<div id="device_name_label">Device name</div><div id="device_name_value">{name}</div></a></li>
<li class="section" data-class="android.widget.TextView">Display &amp; sound</li>
{_switch("dark_mode", state)}
{_switch("do_not_disturb", state)}
<li class="section" data-class="android.widget.TextView">System</li>
<li class="row"><span>Date &amp; time</span>
<span id="date_time">{escape(now.replace("T", " "))}</span></li>
</ul>"""
    return _page("Settings", body, state)


def name_page(state: PhoneState) -> str:
    name = escape(str(state.settings["bluetooth_name"]))
    body = f"""<form id="name_form" data-setting-form="bluetooth_name">
<label for="device_name">Device name</label>
<input id="device_name" name="device_name" type="text" value="{name}" maxlength="64">
<p class="muted">Other devices see this name over Bluetooth.</p>
<button type="submit" id="save">Save</button>
</form>"""
    return _page("Device name", body, state)


def dialer_page(state: PhoneState, tab: str) -> str:
    tabs = (
        f'<nav id="dialer_tabs" role="tablist">'
        f'<a role="tab" id="tab_keypad" href="{SHELL_PREFIX}/app/dialer"'
        f' aria-selected="{str(tab == "keypad").lower()}">Keypad</a>'
        f'<a role="tab" id="tab_recents" href="{SHELL_PREFIX}/app/dialer?tab=recents"'
        f' aria-selected="{str(tab == "recents").lower()}">Recents</a></nav>'
    )
    if tab == "recents":
        rows = "".join(
            f'<li class="call {escape(c["kind"])}"><span class="number">{escape(c["number"])}'
            f'</span> <span class="kind">{escape(c["kind"].capitalize())}</span>'
            f"{_when(c['time'])}"
            f"</li>"
            for c in reversed(state.calls)
        )
        content = f'<ul id="call_log">{rows}</ul>' if rows else '<p id="no_calls">No calls yet</p>'
    else:
        keys = "".join(
            f'<button type="button" class="key" data-digit="{k}">{k}</button>'
            for k in "123456789*0#"
        )
        content = (
            '<form id="dial_form"><input id="digits" name="digits" type="tel" '
            'placeholder="Enter a number" autocomplete="off">'
            f'<div id="keypad">{keys}</div>'
            '<button type="button" id="delete" aria-label="Delete">⌫</button>'
            '<button type="submit" id="call" aria-label="Call">Call</button></form>'
        )
    return _page("Phone", tabs + content, state)


def calling_page(state: PhoneState, number: str) -> str:
    body = (
        f'<p id="call_status">Calling {escape(number)}</p>'
        f'<button type="button" id="end_call" aria-label="End call" '
        f'data-href="{SHELL_PREFIX}/app/dialer?tab=recents">End call</button>'
    )
    return _page("Phone", body, state)


def app_info_page(state: PhoneState, app: PhoneApp) -> str:
    body = (
        f'<p id="app_name">{escape(app.name)}</p>'
        f'<p id="app_package">{escape(app.package)}</p>'
        f'<button type="button" id="open_app" data-open="{escape(app.package)}">Open</button>'
    )
    return _page("App info", body, state)
