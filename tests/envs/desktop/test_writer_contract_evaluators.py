"""The long agreement's writer and the whole-text checkpoint: headings, body paragraphs and
the annex's table land in the document as Writer reads them, and the checkpoint passes
only when every paragraph reads as expected."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("odf")

from reefbench.documents.odf import paragraphs, read_text_document
from reefbench.envs.desktop import DesktopEnvironment
from reefbench.envs.desktop import writer_contract_evaluators as wce

BLOCKS = [
    ["h", "1. Fees"],
    ["p", "The fee is EUR 1,250 a month."],
    ["row", "Item", "Agreed figure"],
    ["row", "Monthly fee", "EUR 1,520"],
]


def _env(home: Path) -> DesktopEnvironment:
    env = DesktopEnvironment("desktop")

    def host_path(path: str) -> Path:
        return home / path.removeprefix("~/").removeprefix("/home/user/")

    env.session.host_path = host_path  # type: ignore[method-assign]
    return env


def test_the_agreement_has_headings_paragraphs_and_a_table(tmp_path: Path) -> None:
    path = tmp_path / "a.odt"
    wce.write_agreement(path, "Agreement", BLOCKS)
    found = paragraphs(path)
    assert [p.text for p in found] == [
        "Agreement",
        "1. Fees",
        "The fee is EUR 1,250 a month.",
        "Item",
        "Agreed figure",
        "Monthly fee",
        "EUR 1,520",
    ]
    assert found[1].style == "Heading 1" and found[1].heading_level == 1
    tables = read_text_document(path).tables
    assert tables[0].rows == (("Item", "Agreed figure"), ("Monthly fee", "EUR 1,520"))


def test_the_text_checkpoint_needs_every_paragraph_as_expected(tmp_path: Path) -> None:
    env = _env(tmp_path)
    wce.write_agreement(tmp_path / "a.odt", "Agreement", BLOCKS)
    same = ["Agreement", "1. Fees", "The fee is EUR 1,250 a month."]
    same += ["Item", "Agreed figure", "Monthly fee", "EUR 1,520"]
    assert wce.document_text_is(path="~/a.odt", paragraphs_expected=same).evaluate(env).success
    fixed = [t.replace("1,250", "1,520") for t in same]
    result = wce.document_text_is(path="~/a.odt", paragraphs_expected=fixed).evaluate(env)
    assert not result.success and "paragraph 3" in result.message
    missing = wce.document_text_is(path="~/b.odt", paragraphs_expected=same).evaluate(env)
    assert not missing.success
