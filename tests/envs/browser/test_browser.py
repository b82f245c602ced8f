"""The browser environment on real Chromium against a small local site."""

from __future__ import annotations

import http.server
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("playwright")
pytestmark = pytest.mark.integration

from reefbench.actions.spec import ActionCall  # noqa: E402
from reefbench.environments.grounding import element_call  # noqa: E402
from reefbench.envs.browser import BrowserEnvironment  # noqa: E402
from reefbench.errors import ActionFailed, InvalidAction  # noqa: E402

PAGES = {
    "/": """<!doctype html><title>Start</title>
<h1>Start</h1>
<a href="/second">Second page</a>
<a href="/second" target="_blank">In a new tab</a>
<label for="q">Query</label><input id="q" name="q">
<select id="size" aria-label="Size"><option>Small</option><option>Large</option></select>
<button id="load" onclick="fetch('/slow').then(r => r.text()).then(t => {
  const p = document.createElement('p'); p.id = 'loaded'; p.textContent = t;
  document.body.append(p); })">Load</button>
<form action="/second"><input name="term" aria-label="Term"><button>Search</button></form>
<div style="height: 3000px"></div><p id="bottom">Bottom</p>""",
    "/second": "<!doctype html><title>Second</title><h1>Second page</h1><a href='/'>Home</a>",
    "/mail": """<!doctype html><title>Mail</title>
<h1>Lunch on Friday</h1>
<p class="body">Hi Ada, shall we meet at the <b>Harbour Cafe</b> at noon? Bring the plans.</p>
<p>"""
    + "long words " * 60
    + """</p>
<label><input type="checkbox" id="star"> Starred</label>
<button role="switch" aria-checked="true" aria-label="Notifications">N</button>
<label for="to">To</label><input id="to">
<label for="note">Note</label><textarea id="note">first line</textarea>
<button disabled>Send</button>""",
    "/notes": """<!doctype html><title>Notes</title>
<ul><li><a href="/second" aria-label="Note Party 3" style="display: block">
<strong>Party 3</strong><ul><li>apples<span style="position: absolute; width: 1px;
height: 1px; overflow: hidden; clip: rect(0 0 0 0)"> (checked)</span></li><li>bread</li>
</ul></a></li></ul>
<button aria-label="Mark “Bread” complete">Tick</button>""",
    "/event": """<!doctype html><title>Event</title>
<label for="day">Date</label><input id="day" type="date">
<label for="start">Start</label><input id="start" type="time">
<label for="title">Title</label><input id="title">""",
}


class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        path = self.path.split("?")[0]
        if path == "/slow":
            body = b"loaded after a request"
        elif path in PAGES:
            body = PAGES[path].encode()
        else:
            self.send_error(404)
            return
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def site(serve_site: Any) -> Iterator[str]:
    with serve_site(Handler) as url:
        yield url


@pytest.fixture(scope="module")
def module_browser(site: str) -> Iterator[BrowserEnvironment]:
    env = BrowserEnvironment(start_url=site + "/", observe_tree=True)
    env.start()
    yield env
    env.stop()


@pytest.fixture
def browser(module_browser: BrowserEnvironment) -> BrowserEnvironment:
    module_browser.reset()
    return module_browser


def mark(env: BrowserEnvironment, name: str) -> int:
    snapshot = env.observe_now()
    found = next((m for m in snapshot.marks.marks if m.name == name), None)
    assert found is not None, snapshot.marks.text()
    return found.id


def test_observation_has_marks_screenshot_and_accessibility_tree(browser: BrowserEnvironment):
    observation = browser.observe()
    assert observation["screenshot"].startswith(b"\x89PNG")
    elements = observation["elements"]
    assert "tab 0 (current): Start" in elements
    for line in (
        'link "Second page"',
        'textbox "Query"',
        'combobox "Size" value="Small"',
        'button "Load"',
    ):
        assert line in elements
    assert 'heading "Start"' in observation["accessibility"]
    assert "Bottom" not in elements  # below the fold: not marked


def test_click_waits_for_the_request_and_the_dom_change(browser: BrowserEnvironment):
    browser.step("click", {"elem": mark(browser, "Load")})
    assert browser.page.evaluate("() => document.getElementById('loaded')?.textContent") == (
        "loaded after a request"
    )


def test_typing_selecting_submitting_and_history(browser: BrowserEnvironment, site: str):
    browser.step("write_text", {"text": 'héllo "x"; $(id)', "elem": mark(browser, "Query")})
    assert browser.page.input_value("#q") == 'héllo "x"; $(id)'
    browser.step("select_option", {"elem": mark(browser, "Size"), "option": "large"})
    assert browser.page.input_value("#size") == "Large"
    with pytest.raises(ActionFailed, match="options are: Small, Large"):
        browser.step("select_option", {"elem": mark(browser, "Size"), "option": "Huge"})
    browser.step("write_text", {"text": "reef\n", "elem": mark(browser, "Term")})
    assert browser.page.url == f"{site}/second?term=reef"
    browser.step("back")
    assert browser.page.url == f"{site}/"
    browser.step("forward")
    assert browser.page.title() == "Second"


def test_tabs_open_switch_and_close(browser: BrowserEnvironment, site: str):
    browser.step("click", {"elem": mark(browser, "In a new tab")})
    assert len(browser.tabs) == 2 and browser.page.title() == "Second"
    browser.step("switch_tab", {"index": 0})
    assert browser.page.title() == "Start"
    browser.step("new_tab", {"url": f"{site}/second"})
    assert len(browser.tabs) == 3
    browser.step("close_tab", {"index": 1})
    assert len(browser.tabs) == 2
    with pytest.raises(InvalidAction, match="no tab 5"):
        browser.step("switch_tab", {"index": 5})
    browser.reset()
    assert len(browser.tabs) == 1 and browser.page.title() == "Start"


def test_scroll_press_and_coordinates(browser: BrowserEnvironment):
    browser.step("scroll", {"direction": "down"})
    assert browser.page.evaluate("() => window.scrollY") > 300
    browser.step("click_at", {"x": 5, "y": 5})
    browser.step("press", {"key": "Control+Home"})
    with pytest.raises(InvalidAction, match="outside the page"):
        browser.step("click_at", {"x": 5000, "y": 5})
    with pytest.raises(InvalidAction):
        browser.step("press", {"key": "rm -rf"})


def test_bad_addresses_fail_and_stale_marks_are_invalid(browser: BrowserEnvironment):
    # A refusal runs and fails (the agent is told why); a stale mark cannot run at all.
    with pytest.raises(ActionFailed, match="opens only http"):
        browser.step("goto", {"url": "file:///etc/passwd"})
    browser.observe()
    with pytest.raises(InvalidAction, match="valid ids"):
        browser.step("click", {"elem": 99})


def test_reset_forgets_cookies_and_storage(browser: BrowserEnvironment, site: str):
    browser.page.evaluate("() => { document.cookie = 'k=v'; localStorage.setItem('a', '1'); }")
    browser.reset()
    assert browser.page.evaluate("() => document.cookie + (localStorage.getItem('a') || '')") == ""


def test_stop_leaves_no_process(site: str):
    env = BrowserEnvironment(start_url=site + "/")
    env.start()
    pids = env.pids()
    assert pids
    env.stop()
    leftover = []
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as f:
                if f.read().rsplit(")", 1)[1].split()[0] != "Z":
                    leftover.append(pid)
        except OSError:
            continue
    assert leftover == []


def test_elements_carry_values_states_and_static_text(
    browser: BrowserEnvironment, site: str
) -> None:
    browser.goto(site + "/mail")
    listed = browser.observe()["elements"]
    for line in (
        'checkbox "Starred" (unchecked)',
        'switch "Notifications" (checked)',
        'textbox "To" value=""',
        'textbox "Note" value="first line"',
        'button "Send" (disabled)',
    ):
        assert line in listed, listed
    static = listed.split("Text on screen (not elements):\n", 1)[1].splitlines()
    assert '- "Hi Ada, shall we meet at the Harbour Cafe at noon? Bring the plans."' in static
    assert '- "Lunch on Friday"' in static
    long_item = next(x for x in static if x.startswith('- "long words'))
    assert long_item == '- "' + ("long words " * 60).strip() + '"'  # read whole, not cut
    assert not any("Starred" in x or "first line" in x for x in static)  # no repeats

    browser.step("click", {"elem": mark(browser, "Starred")})
    browser.step("write_text", {"text": "bob@example.org", "elem": mark(browser, "To")})
    listed = browser.observe()["elements"]
    assert 'checkbox "Starred" (checked)' in listed
    assert 'textbox "To" value="bob@example.org"' in listed


# ------------------------------------------------------------------ pixels
def _at(env: BrowserEnvironment, name: str) -> dict[str, int]:
    """Where the oracle clicks ``name`` under pixels (a click_at in screenshot pixels)."""
    call = element_call(ActionCall(env="browser", name="click_on", arguments={"name": name}), env)
    assert call.name == "click_at", call
    return dict(call.arguments)


@pytest.fixture
def pixels(module_browser: BrowserEnvironment) -> Iterator[BrowserEnvironment]:
    module_browser.reset(action_set="pixels")
    yield module_browser
    module_browser.end_episode()


def test_under_pixels_the_tools_and_observations_have_no_elements(pixels: BrowserEnvironment):
    assert not {"click", "select_option"} & set(pixels.action_space)
    for name in ("write_text", "scroll"):
        assert "elem" not in pixels.action_space[name].parameters_schema["properties"]
    observation = pixels.observe()
    assert set(observation) == {"screenshot", "tabs"}  # no element list, no a11y tree
    assert observation["tabs"].startswith("tab 0 (current): Start - http://")
    assert pixels.snapshot is not None
    assert observation["screenshot"] == pixels.snapshot.png != pixels.snapshot.marked_png()
    assert "numbered boxes" not in pixels.description and "pixel coordinates" in pixels.description


def test_under_pixels_a_click_at_an_elements_point_lands_on_it(
    pixels: BrowserEnvironment, site: str
):
    pixels.observe()
    pixels.step("click_at", _at(pixels, "Query"))
    pixels.step("write_text", {"text": "typed at a point"})
    assert pixels.page.input_value("#q") == "typed at a point"
    pixels.step("click_at", _at(pixels, "Second page"))
    assert pixels.page.url == site + "/second"


def test_under_pixels_a_drop_down_is_chosen_with_a_click_and_keys(pixels: BrowserEnvironment):
    """What select_option did, without it: click the list, type the option, Enter."""
    pixels.observe()
    pixels.step("click_at", _at(pixels, "Size"))
    pixels.step("write_text", {"text": "Large"})
    pixels.step("press", {"key": "Enter"})
    assert pixels.page.input_value("#size") == "Large"


def test_under_pixels_scroll_takes_a_point_not_an_element(pixels: BrowserEnvironment):
    pixels.step("scroll", {"direction": "down", "x": 640, "y": 400})
    assert pixels.page.evaluate("() => window.scrollY") > 300
    with pytest.raises(InvalidAction, match="both x and y"):
        pixels.step("scroll", {"direction": "up", "x": 5})
    with pytest.raises(InvalidAction, match="outside the page"):
        pixels.step("scroll", {"direction": "up", "x": 5000, "y": 5})


def test_a_card_named_by_its_label_still_shows_what_it_lists(
    browser: BrowserEnvironment, site: str
) -> None:
    """A link named "Note Party 3" by its aria-label holds a checklist: its items are
    nowhere in the element's name, so they are listed as text on screen (with the
    checked state the page says to screen readers); a button's word is not."""
    browser.goto(site + "/notes")
    listed = browser.observe()["elements"]
    assert 'link "Note Party 3"' in listed, listed
    static = listed.split("Text on screen (not elements):\n", 1)[1].splitlines()
    assert '- "apples (checked)"' in static, static
    assert '- "bread"' in static, static
    assert not any("Party 3" in x or "Tick" in x for x in static), static


def test_press_takes_the_desktops_key_names_too(browser: BrowserEnvironment) -> None:
    """Playtest N wrote "enter" (the desktop's spelling) and lost a step to an invalid
    action; Playwright's own names still pass as they are."""
    from reefbench.envs.browser.actions import playwright_key

    assert playwright_key("enter") == "Enter" and playwright_key("ctrl+a") == "Control+a"
    assert playwright_key("Control+Home") == "Control+Home" and playwright_key("esc") == "Escape"
    browser.step("scroll", {"direction": "down"})
    assert browser.page.evaluate("() => window.scrollY") > 300
    browser.step("click_at", {"x": 5, "y": 5})
    browser.step("press", {"key": "ctrl+home"})
    assert browser.page.evaluate("() => window.scrollY") == 0


def test_a_date_or_time_field_takes_its_value_as_the_list_shows_it(
    browser: BrowserEnvironment, site: str
) -> None:
    """Playtest P9 typed a date field's value as the element list shows it (2024-06-13)
    and got "40613-02-02"; a time typed as 11:00 stayed empty without AM/PM."""
    from reefbench.envs.browser.actions import iso_field_value

    browser.step("goto", {"url": site + "/event"})
    browser.step("write_text", {"text": "2024-06-13", "elem": mark(browser, "Date")})
    browser.step("write_text", {"text": "11:00\n", "elem": mark(browser, "Start")})
    values = browser.page.evaluate("() => [day.value, start.value].join(' ')")
    assert values == "2024-06-13 11:00"
    assert 'value="2024-06-13"' in browser.observe_now().marks.text()
    # Other fields are typed as ever; text not in the field's ISO form is typed too.
    browser.step("write_text", {"text": "2024-06-13", "elem": mark(browser, "Title")})
    assert browser.page.evaluate("() => title.value") == "2024-06-13"
    assert iso_field_value("date", "06132024") is None
    assert iso_field_value("time", "14:30") == "14:30" and iso_field_value("text", "1") is None
    assert iso_field_value("date", "13/06/2024") is None


def test_typing_after_a_click_that_navigates_is_an_ordinary_step(
    browser: BrowserEnvironment, site: str
) -> None:
    """Playtest R9 typed into a stale element number that was a link on the new page: the
    click navigated while the field was being looked at, and the error ended the episode
    as the environment's crash (a fresh episode for the agent). Now the text is typed into
    whatever has the focus, as before date fields were handled."""
    browser.step("goto", {"url": site + "/"})
    link = mark(browser, "Second page")
    assert browser.step("write_text", {"text": "sousa", "elem": link}) == "typed 5 characters"
    assert browser.page.url.endswith("/second")
