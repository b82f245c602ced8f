"""The odd states reef-v2's robustness family writes into documents, read back through the
same readers the checkpoints use: a workbook that opens on another sheet with a filter
hiding rows, a document that records changes or opens read-only; and the check that a
renamed document has no tracked change left."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from reefbench.benchmark.odd_states import (
    clean_replace_problem,
    write_filtered_workbook,
    write_odd_document,
)
from reefbench.documents.odf import read_spreadsheet

pytest.importorskip("odf")

SHEETS = {
    "2026": [["Date", "Category", "Amount"], ["d1", "Travel", "10"], ["d2", "Meals", "5"]],
    "2025": [["Date", "Category", "Amount"], ["d0", "Hotel", "7"]],
}


def test_the_workbook_opens_on_its_active_sheet_with_rows_hidden_by_the_filter(
    tmp_path: Path,
) -> None:
    path = tmp_path / "claims.ods"
    write_filtered_workbook(path, SHEETS, active="2025", filtered="2026", column=1, shown="Travel")

    sheet = read_spreadsheet(path).sheet("2026")
    assert sheet.autofilter == "A1:C3"
    assert [(c.column, c.operator, c.values) for c in sheet.filters] == [("B", "=", ("Travel",))]
    assert read_spreadsheet(path).sheet("2025").filters == ()
    with zipfile.ZipFile(path) as archive:
        content = archive.read("content.xml").decode()
        settings = archive.read("settings.xml").decode()
    assert content.count('table:visibility="filter"') == 1  # the Meals row only
    assert '"ActiveTable" config:type="string">2025<' in settings


def test_a_workbook_without_the_named_sheets_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="must both be in the workbook"):
        write_filtered_workbook(tmp_path / "x.ods", SHEETS, "2024", "2026", 1, "Travel")


def test_the_document_records_changes_and_opens_read_only_when_asked(tmp_path: Path) -> None:
    path = tmp_path / "contract.odt"
    write_odd_document(path, ["Acme signs.", "Acme pays."], record_changes=True, read_only=True)
    with zipfile.ZipFile(path) as archive:
        content = archive.read("content.xml").decode()
        settings = archive.read("settings.xml").decode()
    assert 'text:track-changes="true"' in content
    assert '"RecordChanges" config:type="boolean">true<' in settings
    assert '"LoadReadonly" config:type="boolean">true<' in settings

    plain = tmp_path / "plain.odt"
    write_odd_document(plain, ["Acme signs."], record_changes=False, read_only=False)
    with zipfile.ZipFile(plain) as archive:
        assert "track-changes" not in archive.read("content.xml").decode()
        assert "LoadReadonly" not in archive.read("settings.xml").decode()


def _with_tracked_insertion(path: Path, text: str) -> None:
    """An ``.odt`` whose only paragraph is ``text``, inserted as a pending tracked change
    (as Writer saves an edit made while recording)."""
    from odf.dc import Creator, Date
    from odf.office import ChangeInfo
    from odf.opendocument import OpenDocumentText
    from odf.text import ChangedRegion, ChangeEnd, ChangeStart, Insertion, P, TrackedChanges

    document = OpenDocumentText()
    changes = TrackedChanges(trackchanges="true")
    from odf.namespaces import XMLNS

    region = ChangedRegion(check_grammar=False)
    region.setAttrNS(XMLNS, "id", "ct1")
    insertion = Insertion()
    info = ChangeInfo()
    info.addElement(Creator(text="Ana"))
    info.addElement(Date(text="2026-03-16T09:00:00"))
    insertion.addElement(info)
    region.addElement(insertion)
    changes.addElement(region)
    document.text.addElement(changes)
    paragraph = P()
    paragraph.addElement(ChangeStart(changeid="ct1"))
    paragraph.addText(text)
    paragraph.addElement(ChangeEnd(changeid="ct1"))
    document.text.addElement(paragraph)
    document.save(str(path))


def test_a_clean_rename_passes_and_pending_changes_or_leftovers_fail(tmp_path: Path) -> None:
    clean = tmp_path / "clean.odt"
    write_odd_document(clean, ["Beta Ltd signs.", "Beta Ltd pays."], False, False)
    assert clean_replace_problem(clean, "Beta Ltd", "Acme", 2) == ""
    assert "not 3" in clean_replace_problem(clean, "Beta Ltd", "Acme", 3)

    left = tmp_path / "left.odt"
    write_odd_document(left, ["Beta Ltd signs.", "Acme pays."], False, False)
    assert "still names 'Acme'" in clean_replace_problem(left, "Beta Ltd", "Acme", 1)

    tracked = tmp_path / "tracked.odt"
    _with_tracked_insertion(tracked, "Beta Ltd signs.")
    assert "tracked changes are still pending" in clean_replace_problem(
        tracked, "Beta Ltd", "Acme", 1
    )
