"""Set-of-Marks from uiautomator dumps: names, values, states and static text."""

from __future__ import annotations

from reefbench.envs.ui import parse_hierarchy
from reefbench.envs.ui.marks import ui_marks

TIMER_FORM = """<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="0">
<node index="0" text="" resource-id="" class="android.widget.FrameLayout" package="com.reef.clock"
 content-desc="" checkable="false" checked="false" clickable="false" enabled="true"
 focusable="false"
 focused="false" scrollable="false" long-clickable="false" password="false" selected="false"
 bounds="[0,0][1080,2400]">
<node index="0" text="0" resource-id="com.reef.clock:id/hours" class="android.widget.EditText"
 package="com.reef.clock" content-desc="" checkable="false" checked="false" clickable="true"
 enabled="true" focusable="true" focused="false" scrollable="false" long-clickable="false"
 password="false" selected="false" bounds="[0,100][500,200]" hint="Hours" />
<node index="1" text="" resource-id="com.reef.clock:id/note" class="android.widget.EditText"
 package="com.reef.clock" content-desc="" checkable="false" checked="false" clickable="true"
 enabled="true" focusable="true" focused="false" scrollable="false" long-clickable="false"
 password="false" selected="false" bounds="[0,200][500,300]" hint="" />
<node index="2" text="Wi-Fi" resource-id="" class="android.widget.Switch" package="com.reef.clock"
 content-desc="" checkable="true" checked="true" clickable="true" enabled="true" focusable="true"
 focused="false" scrollable="false" long-clickable="false" password="false" selected="false"
 bounds="[0,300][500,400]" />
<node index="3" text="Meet at the Harbour Cafe" resource-id="" class="android.widget.TextView"
 package="com.reef.clock" content-desc="" checkable="false" checked="false" clickable="false"
 enabled="true" focusable="false" focused="false" scrollable="false" long-clickable="false"
 password="false" selected="false" bounds="[0,400][500,500]" />
</node></hierarchy>"""


def test_fields_are_named_by_label_and_states_and_static_text_are_listed() -> None:
    ui = parse_hierarchy(TIMER_FORM)
    listed = ui_marks(ui, (1080, 2400)).marks.text().splitlines()
    assert listed[0] == '[1] EditText "Hours" value="0"'  # not 'EditText "0"'
    assert listed[1] == '[2] EditText "note" value=""'  # no label: its resource id
    assert listed[2] == '[3] Switch "Wi-Fi" (checked)'
    assert listed[3:] == ["Text on screen (not elements):", '- "Meet at the Harbour Cafe"']
