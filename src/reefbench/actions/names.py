"""The stable names of reefbench's actions and evaluators: what task files write.

A frozen task file is the benchmark: it must mean the same thing after reefbench's code
is reorganised. Writing ``reefbench.suites.v0.helpers:file_holds`` in it ties the data to
where a function lives today; writing ``desktop.file_holds`` ties it to a name this table
keeps, whatever file the function moves to.

A stable name is ``<area>.<function>``, the area saying what the function acts on or
checks (not where it lives):

* ``account``: the local cloud account (mail, calendar, contacts, files, photos, phone
  apps' data) and seeding it;
* ``browser``: the desktop browser's session;
* ``desktop``: the Linux desktop (files, programs, windows, settings, its session's look);
* ``office``: documents, spreadsheets and presentations LibreOffice saved;
* ``phone``: the phone's settings, clock and calls;
* ``touch``: what a touch screen shows (the phone's or a real Android device's UI tree);
* ``root``: the agent's final answer and its questions to the user;
* ``memory``: the in-memory reference device.

:data:`NAMES` maps each stable name to the ``module:attribute`` that defines it; moving a
function changes its target here and nothing else. :data:`LEGACY_REFS` maps the module
paths that data frozen before stable names wrote (reef-v1's ``tasks.jsonl``) to the names,
so that data loads unchanged after any move: its entries are never removed or changed.

The table is closed: user code names its own actions by ``package.module:name`` (see
:mod:`reefbench.actions.refs`), never by adding names here.
"""

from __future__ import annotations

NAMES: dict[str, str] = {
    # account
    "account.add_alarm": "reefbench.envs.services.seeding:add_alarm",
    "account.add_contact": "reefbench.envs.services.seeding:add_contact",
    "account.add_event": "reefbench.envs.services.seeding:add_event",
    "account.add_file": "reefbench.envs.services.seeding:add_file",
    "account.add_folder": "reefbench.envs.services.seeding:add_folder",
    "account.add_mail": "reefbench.envs.services.seeding:add_mail",
    "account.add_message": "reefbench.envs.services.seeding:add_message",
    "account.add_note": "reefbench.envs.services.seeding:add_note",
    "account.add_photo": "reefbench.envs.services.seeding:add_photo",
    "account.add_place": "reefbench.envs.services.seeding:add_place",
    "account.add_task": "reefbench.envs.services.seeding:add_task",
    "account.add_world_clock": "reefbench.envs.services.seeding:add_world_clock",
    "account.alarm_set": "reefbench.envs.services.evaluators:alarm_set",
    "account.contact_has": "reefbench.envs.services.evaluators:contact_has",
    "account.directions_requested": "reefbench.envs.services.evaluators:directions_requested",
    "account.event_exists": "reefbench.envs.services.evaluators:event_exists",
    "account.event_spans": "reefbench.envs.services.evaluators:event_spans",
    "account.file_in_folder": "reefbench.envs.services.evaluators:file_in_folder",
    "account.file_shared": "reefbench.envs.services.evaluators:file_shared",
    "account.folder_exists": "reefbench.envs.services.evaluators:folder_exists",
    "account.load_world": "reefbench.envs.services.seeding:load_world",
    "account.mail_sent": "reefbench.envs.services.evaluators:mail_sent",
    "account.mail_states": "reefbench.envs.services.evaluators:mail_states",
    "account.message_sent": "reefbench.envs.services.evaluators:message_sent",
    "account.note_contains": "reefbench.envs.services.evaluators:note_contains",
    "account.photo_at": "reefbench.envs.services.evaluators:photo_at",
    "account.photo_mailed": "reefbench.envs.services.evaluators:photo_mailed",
    "account.photo_scaled_at": "reefbench.envs.services.evaluators:photo_scaled_at",
    "account.set_camera_scene": "reefbench.envs.services.seeding:set_camera_scene",
    "account.set_now": "reefbench.envs.services.seeding:set_now",
    "account.set_setting": "reefbench.envs.services.seeding:set_setting",
    "account.set_today": "reefbench.envs.services.seeding:set_today",
    "account.setting_equals": "reefbench.envs.services.evaluators:setting_equals",
    "account.task_completed": "reefbench.envs.services.evaluators:task_completed",
    "account.task_exists": "reefbench.envs.services.evaluators:task_exists",
    "account.timer_set": "reefbench.envs.services.evaluators:timer_set",
    "account.world_clock_added": "reefbench.envs.services.evaluators:world_clock_added",
    # browser
    "browser.sign_out": "reefbench.envs.browser.actions:sign_out_browser",
    "browser.signed_in": "reefbench.envs.browser.evaluators:browser_signed_in",
    # desktop
    "desktop.app_opened": "reefbench.envs.desktop.evaluators:app_opened",
    "desktop.archive_holds_folder": "reefbench.benchmark.checks:archive_holds_folder",
    "desktop.clicked_element": "reefbench.envs.desktop.evaluators:clicked_element",
    "desktop.clipboard_contains": "reefbench.envs.desktop.evaluators:clipboard_contains",
    "desktop.command_output": "reefbench.envs.desktop.evaluators:command_output",
    "desktop.create_agreement_document": (
        "reefbench.envs.desktop.writer_contract_evaluators:create_agreement_document"
    ),
    "desktop.create_dated_workbook": (
        "reefbench.envs.desktop.calc_ledger_evaluators:create_dated_workbook"
    ),
    "desktop.create_directory": "reefbench.envs.desktop.setup:create_directory",
    "desktop.create_file": "reefbench.envs.desktop.setup:create_file",
    "desktop.create_filtered_workbook": "reefbench.benchmark.odd_states:create_filtered_workbook",
    "desktop.create_hidden_rows_workbook": (
        "reefbench.benchmark.odd_states:create_hidden_rows_workbook"
    ),
    "desktop.create_odd_document": "reefbench.benchmark.odd_states:create_odd_document",
    "desktop.create_presentation": "reefbench.envs.desktop.setup:create_presentation",
    "desktop.create_recording_review": "reefbench.benchmark.odd_states:create_recording_review",
    "desktop.create_reviewed_document": "reefbench.envs.desktop.setup:create_reviewed_document",
    "desktop.create_spreadsheet": "reefbench.envs.desktop.setup:create_spreadsheet",
    "desktop.create_tabbed_report": (
        "reefbench.envs.desktop.writer_layout_evaluators:create_tabbed_report"
    ),
    "desktop.create_text_document": "reefbench.envs.desktop.setup:create_text_document",
    "desktop.create_workbook": "reefbench.envs.desktop.setup:create_workbook",
    "desktop.directory_exists": "reefbench.envs.desktop.evaluators:directory_exists",
    "desktop.draw_picture": "reefbench.benchmark.checks:draw_picture",
    "desktop.draw_pixel_images": "reefbench.benchmark.pixel_images:draw_pixel_images",
    "desktop.draw_scans": "reefbench.benchmark.scans:draw_scans",
    "desktop.file_absent": "reefbench.benchmark.checks:file_absent",
    "desktop.file_contains": "reefbench.envs.desktop.evaluators:file_contains",
    "desktop.file_content_equals": "reefbench.envs.desktop.evaluators:file_content_equals",
    "desktop.file_exists": "reefbench.envs.desktop.evaluators:file_exists",
    "desktop.file_holds": "reefbench.benchmark.checks:file_holds",
    "desktop.file_lacks": "reefbench.benchmark.checks:file_lacks",
    "desktop.file_lines": "reefbench.benchmark.odd_states:file_lines",
    "desktop.file_matches": "reefbench.envs.desktop.evaluators:file_matches",
    "desktop.files_copied": "reefbench.envs.desktop.evaluators:files_copied",
    "desktop.focused_window": "reefbench.envs.desktop.evaluators:focused_window",
    "desktop.font": "reefbench.envs.desktop.session_evaluators:desktop_font",
    "desktop.gsetting_equals": "reefbench.envs.desktop.evaluators:gsetting_equals",
    "desktop.image_like_source": "reefbench.benchmark.checks:image_like_source",
    "desktop.image_on_screen": "reefbench.envs.desktop.evaluators:image_on_screen",
    "desktop.images_similar": "reefbench.envs.desktop.evaluators:images_similar",
    "desktop.load_world": "reefbench.envs.desktop.setup:load_world",
    "desktop.open_app": "reefbench.envs.desktop.setup:open_app",
    "desktop.photo_downloaded": "reefbench.benchmark.photo_files:photo_downloaded",
    "desktop.photo_edited": "reefbench.benchmark.photo_files:photo_edited",
    "desktop.position_window": "reefbench.envs.desktop.setup:position_window",
    "desktop.process_closed": "reefbench.envs.desktop.evaluators:process_closed",
    "desktop.process_running": "reefbench.envs.desktop.evaluators:process_running",
    "desktop.same_bytes_as": "reefbench.benchmark.checks:same_bytes_as",
    "desktop.saved_with": "reefbench.envs.desktop.evaluators:saved_with",
    "desktop.scan_edited": "reefbench.benchmark.scans:scan_edited",
    "desktop.set_gsetting": "reefbench.envs.desktop.setup:set_gsetting",
    "desktop.start_program": "reefbench.benchmark.checks:start_program",
    "desktop.text_on_screen": "reefbench.envs.desktop.evaluators:text_on_screen",
    "desktop.typed_text": "reefbench.envs.desktop.evaluators:typed_text",
    "desktop.wallpaper_shows": "reefbench.envs.desktop.session_evaluators:wallpaper_shows",
    "desktop.wallpaper_style": "reefbench.envs.desktop.session_evaluators:wallpaper_style",
    "desktop.window_shows": "reefbench.benchmark.checks:window_shows",
    "desktop.xfconf_equals": "reefbench.envs.desktop.session_evaluators:xfconf_equals",
    # office
    "office.amounts_over_dated_limits": (
        "reefbench.envs.desktop.calc_rule_evaluators:amounts_over_dated_limits"
    ),
    "office.autofilter_on": "reefbench.envs.desktop.calc_evaluators:autofilter_on",
    "office.cells_highlighted": "reefbench.envs.desktop.calc_analysis_evaluators:cells_highlighted",
    "office.chart_of_range": "reefbench.envs.desktop.calc_analysis_evaluators:chart_of_range",
    "office.chart_with_categories": (
        "reefbench.envs.desktop.calc_rule_evaluators:chart_with_categories"
    ),
    "office.citations_as_footnotes": (
        "reefbench.envs.desktop.writer_notes_evaluators:citations_as_footnotes"
    ),
    "office.clean_customer_list": (
        "reefbench.envs.desktop.calc_clean_evaluators:clean_customer_list"
    ),
    "office.column_looked_up": "reefbench.envs.desktop.calc_evaluators:column_looked_up",
    "office.column_numbers": "reefbench.envs.desktop.calc_evaluators:column_numbers",
    "office.document_clean_replace": "reefbench.benchmark.odd_states:document_clean_replace",
    "office.document_comment": "reefbench.envs.desktop.office_text_evaluators:document_comment",
    "office.document_footer": "reefbench.envs.desktop.office_text_evaluators:document_footer",
    "office.document_no_changes": (
        "reefbench.envs.desktop.office_text_evaluators:document_no_changes"
    ),
    "office.document_paragraph": "reefbench.envs.desktop.office_evaluators:document_paragraph",
    "office.document_table_rows": (
        "reefbench.envs.desktop.writer_layout_evaluators:document_table_rows"
    ),
    "office.document_text_is": (
        "reefbench.envs.desktop.writer_contract_evaluators:document_text_is"
    ),
    "office.document_toc": "reefbench.envs.desktop.office_text_evaluators:document_toc",
    "office.formula_gives": "reefbench.envs.desktop.calc_evaluators:formula_gives",
    "office.labelled_totals": "reefbench.envs.desktop.calc_ledger_evaluators:labelled_totals",
    "office.landscape_from": "reefbench.envs.desktop.writer_layout_evaluators:landscape_from",
    "office.ledger_appended": "reefbench.envs.desktop.calc_ledger_evaluators:ledger_appended",
    "office.pdf_page_content": "reefbench.envs.desktop.impress_media_evaluators:pdf_page_content",
    "office.pdf_page_footers": "reefbench.envs.desktop.office_text_evaluators:pdf_page_footers",
    "office.pdf_pages": "reefbench.envs.desktop.office_text_evaluators:pdf_pages",
    "office.panes_frozen": "reefbench.envs.desktop.calc_evaluators:panes_frozen",
    "office.pivot_summary": "reefbench.envs.desktop.calc_analysis_evaluators:pivot_summary",
    "office.presentation_slide": "reefbench.envs.desktop.office_evaluators:presentation_slide",
    "office.saved_by_libreoffice": "reefbench.envs.desktop.office_evaluators:saved_by_libreoffice",
    "office.slide_bullets": "reefbench.envs.desktop.office_text_evaluators:slide_bullets",
    "office.slide_notes": "reefbench.envs.desktop.office_text_evaluators:slide_notes",
    "office.slide_picture": "reefbench.envs.desktop.impress_media_evaluators:slide_picture",
    "office.slide_table": "reefbench.envs.desktop.impress_media_evaluators:slide_table",
    "office.slide_titles": "reefbench.envs.desktop.office_text_evaluators:slide_titles",
    "office.spreadsheet_cell": "reefbench.envs.desktop.office_evaluators:spreadsheet_cell",
    "office.spreadsheet_formula": "reefbench.envs.desktop.office_evaluators:spreadsheet_formula",
    "office.table_sorted": "reefbench.envs.desktop.calc_evaluators:table_sorted",
    "office.text_without_citations": (
        "reefbench.envs.desktop.writer_notes_evaluators:text_without_citations"
    ),
    "office.xlsx_saved_by_libreoffice": (
        "reefbench.envs.desktop.calc_clean_evaluators:xlsx_saved_by_libreoffice"
    ),
    # phone
    "phone.call_made": "reefbench.envs.phone.evaluators:call_made",
    "phone.set_setting": "reefbench.envs.phone.actions:set_phone_setting",
    "phone.setting_is": "reefbench.envs.phone.evaluators:phone_setting_is",
    # touch
    "touch.current_app": "reefbench.envs.ui.evaluators:current_app",
    "touch.element_checked": "reefbench.envs.ui.evaluators:element_checked",
    "touch.element_count": "reefbench.envs.ui.evaluators:element_count",
    "touch.element_selected": "reefbench.envs.ui.evaluators:element_selected",
    "touch.element_text": "reefbench.envs.ui.evaluators:element_text",
    "touch.list_item_count": "reefbench.envs.ui.evaluators:list_item_count",
    "touch.text_on_screen": "reefbench.envs.ui.evaluators:text_on_screen",
    # root
    "root.answer_covers": "reefbench.environments.root:answer_covers",
    "root.answer_equals": "reefbench.environments.root:answer_equals",
    "root.answer_judged": "reefbench.environments.root:answer_judged",
    "root.answer_one_of": "reefbench.environments.root:answer_one_of",
    "root.declared_infeasible": "reefbench.environments.root:declared_infeasible",
    "root.infeasible": "reefbench.environments.root:infeasible",
    "root.user_was_asked": "reefbench.environments.root:user_was_asked",
    # memory
    "memory.append_file": "reefbench.envs.memory:append_file",
    "memory.clipboard_equals": "reefbench.envs.memory:clipboard_equals",
    "memory.copy_file": "reefbench.envs.memory:copy_file",
    "memory.copy_text": "reefbench.envs.memory:copy_text",
    "memory.delete_file": "reefbench.envs.memory:delete_file",
    "memory.file_contains": "reefbench.envs.memory:file_contains",
    "memory.file_equals": "reefbench.envs.memory:file_equals",
    "memory.file_exists": "reefbench.envs.memory:file_exists",
    "memory.files_equal": "reefbench.envs.memory:files_equal",
    "memory.list_files": "reefbench.envs.memory:list_files",
    "memory.read_file": "reefbench.envs.memory:read_file",
    "memory.write_file": "reefbench.envs.memory:write_file",
}
"""Stable name -> ``module:attribute`` of the action or evaluator it names."""

LEGACY_REFS: dict[str, str] = {
    "reefbench.apps.evaluators:alarm_set": "account.alarm_set",
    "reefbench.apps.evaluators:contact_has": "account.contact_has",
    "reefbench.apps.evaluators:directions_requested": "account.directions_requested",
    "reefbench.apps.evaluators:event_exists": "account.event_exists",
    "reefbench.apps.evaluators:file_in_folder": "account.file_in_folder",
    "reefbench.apps.evaluators:folder_exists": "account.folder_exists",
    "reefbench.apps.evaluators:mail_sent": "account.mail_sent",
    "reefbench.apps.evaluators:message_sent": "account.message_sent",
    "reefbench.apps.evaluators:note_contains": "account.note_contains",
    "reefbench.apps.evaluators:photo_at": "account.photo_at",
    "reefbench.apps.evaluators:photo_mailed": "account.photo_mailed",
    "reefbench.apps.evaluators:photo_scaled_at": "account.photo_scaled_at",
    "reefbench.apps.evaluators:task_completed": "account.task_completed",
    "reefbench.apps.evaluators:task_exists": "account.task_exists",
    "reefbench.apps.evaluators:timer_set": "account.timer_set",
    "reefbench.apps.evaluators:world_clock_added": "account.world_clock_added",
    "reefbench.apps.seeding:add_event": "account.add_event",
    "reefbench.apps.seeding:add_folder": "account.add_folder",
    "reefbench.apps.seeding:add_mail": "account.add_mail",
    "reefbench.apps.seeding:add_message": "account.add_message",
    "reefbench.apps.seeding:add_photo": "account.add_photo",
    "reefbench.apps.seeding:add_task": "account.add_task",
    "reefbench.apps.seeding:load_world": "account.load_world",
    "reefbench.apps.seeding:set_camera_scene": "account.set_camera_scene",
    "reefbench.envs.desktop.evaluators:clipboard_contains": "desktop.clipboard_contains",
    "reefbench.envs.desktop.evaluators:command_output": "desktop.command_output",
    "reefbench.envs.desktop.evaluators:directory_exists": "desktop.directory_exists",
    "reefbench.envs.desktop.evaluators:file_exists": "desktop.file_exists",
    "reefbench.envs.desktop.evaluators:file_matches": "desktop.file_matches",
    "reefbench.envs.desktop.evaluators:gsetting_equals": "desktop.gsetting_equals",
    "reefbench.envs.desktop.evaluators:process_closed": "desktop.process_closed",
    "reefbench.envs.desktop.evaluators:process_running": "desktop.process_running",
    "reefbench.envs.desktop.evaluators:saved_with": "desktop.saved_with",
    "reefbench.envs.desktop.office_evaluators:document_paragraph": "office.document_paragraph",
    "reefbench.envs.desktop.office_evaluators:saved_by_libreoffice": "office.saved_by_libreoffice",
    "reefbench.envs.desktop.office_evaluators:spreadsheet_formula": "office.spreadsheet_formula",
    "reefbench.envs.desktop.session_evaluators:desktop_font": "desktop.font",
    "reefbench.envs.desktop.session_evaluators:wallpaper_shows": "desktop.wallpaper_shows",
    "reefbench.envs.desktop.session_evaluators:wallpaper_style": "desktop.wallpaper_style",
    "reefbench.envs.desktop.session_evaluators:xfconf_equals": "desktop.xfconf_equals",
    "reefbench.envs.desktop.setup:create_file": "desktop.create_file",
    "reefbench.envs.desktop.setup:create_spreadsheet": "desktop.create_spreadsheet",
    "reefbench.envs.phone.checks:call_made": "phone.call_made",
    "reefbench.envs.phone.checks:phone_setting_is": "phone.setting_is",
    "reefbench.envs.phone.checks:set_phone_setting": "phone.set_setting",
    "reefbench.envs.ui.evaluators:text_on_screen": "touch.text_on_screen",
    "reefbench.root:answer_equals": "root.answer_equals",
    "reefbench.root:user_was_asked": "root.user_was_asked",
    "reefbench.suites.v0.helpers:archive_holds_folder": "desktop.archive_holds_folder",
    "reefbench.suites.v0.helpers:browser_signed_in": "browser.signed_in",
    "reefbench.suites.v0.helpers:draw_picture": "desktop.draw_picture",
    "reefbench.suites.v0.helpers:file_absent": "desktop.file_absent",
    "reefbench.suites.v0.helpers:file_holds": "desktop.file_holds",
    "reefbench.suites.v0.helpers:file_lacks": "desktop.file_lacks",
    "reefbench.suites.v0.helpers:image_like_source": "desktop.image_like_source",
    "reefbench.suites.v0.helpers:same_bytes_as": "desktop.same_bytes_as",
    "reefbench.suites.v0.helpers:sign_out_browser": "browser.sign_out",
    "reefbench.suites.v0.helpers:start_program": "desktop.start_program",
    "reefbench.suites.v0.helpers:window_shows": "desktop.window_shows",
    "reefbench.suites.v0.photo_files:photo_downloaded": "desktop.photo_downloaded",
    "reefbench.suites.v0.photo_files:photo_edited": "desktop.photo_edited",
    "reefbench.suites.v0.scans:draw_scans": "desktop.draw_scans",
    "reefbench.suites.v0.scans:scan_edited": "desktop.scan_edited",
}
"""Module path that reef-v1's data writes -> the stable name it means now (frozen: the
data never changes, so neither do these)."""
