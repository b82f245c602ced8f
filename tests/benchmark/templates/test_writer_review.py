"""reef-v2's review-by-author template: its tasks pass the static gates, near misses differ
from the reference, the written document carries each reviewer's changes as Writer
records them, and the settled text differs from accepting or rejecting everything."""

from __future__ import annotations

import re
from pathlib import Path

from reefbench.benchmark import v2
from reefbench.benchmark.templates import writer_review as wr
from reefbench.documents import read_text_document
from reefbench.documents.write import write_reviewed_document
from reefbench.envs.desktop import office_text_evaluators as te
from reefbench.validation.gates import static_problems


def test_tasks_pass_the_static_gates_and_near_misses_differ() -> None:
    template = wr.WRITER_REVIEW_BY_AUTHOR
    family = next(f for f in v2.families() if f.name == "office")
    entry = next(t for t in family.templates if t.subtask is template)
    assert entry.tier == "hard"
    only = v2.Family(family.name, family.description, (entry,))
    for task in v2.tasks_of(only, per_template=4):
        assert static_problems(task, v2.POOL) == []
    values = dict(template.value_records[0])
    assert template.solution_generator is not None
    solution = template.solution_generator(**values)
    for near in template.near_misses:
        assert near.solution is not None
        assert near.solution(**values) != solution, near.label


def test_the_document_carries_every_change_with_its_author(tmp_path: Path) -> None:
    path = tmp_path / "reviewed.odt"
    record = wr.REVIEW_RECORDS[0]
    paragraphs = record["paragraphs"].split("\n")
    write_reviewed_document(path, paragraphs, record["title"])
    document = read_text_document(path)
    assert [p.text for p in document.paragraphs[1:]] == [wr.shown(p) for p in paragraphs]
    assert {c.author for c in document.changes} == {"Dana", "Omar", "Priya"}
    deleted = next(c for c in document.changes if c.text == " and Scotland")
    assert (deleted.kind, deleted.author) == ("deletion", "Dana")
    assert "still pending (by Dana, Omar, Priya)" in te.changes_problem(path)


def test_the_settled_text_is_neither_all_accepted_nor_all_rejected() -> None:
    for record in wr.REVIEW_RECORDS:
        paragraphs = record["paragraphs"].split("\n")
        keep = [wr.settled(p, record["keep"]) for p in paragraphs]
        # Three reviewers each, the keeper's and the look-alike's changes both present.
        authors = {a for p in paragraphs for a in re.findall(r"[+-]([A-Z]\w+)\|", p)}
        assert len(authors) == 3 and {record["keep"], record["other"]} <= authors
        assert keep != [wr.shown(p) for p in paragraphs]
        assert keep != [wr.settled(p, "") for p in paragraphs]
        assert keep != [wr.settled(p, record["other"]) for p in paragraphs]


def test_a_clean_document_has_no_changes_problem(tmp_path: Path) -> None:
    path = tmp_path / "clean.odt"
    write_reviewed_document(path, ["No changes here."], "Title")
    assert te.changes_problem(path) == ""
