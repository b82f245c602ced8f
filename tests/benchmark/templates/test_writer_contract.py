"""reef-v2's annex template: its tasks pass the static gates, near misses differ from the
reference, every agreement hides three wrong figures (one stated twice) among look-alikes,
and the whole-text checkpoint tells the corrected document from the near misses' ones; the
fill template's body states every figure of the annex beside the same look-alikes."""

from __future__ import annotations

from pathlib import Path

from reefbench.benchmark import v2
from reefbench.benchmark.templates import writer_contract as wc
from reefbench.benchmark.templates import writer_contract_fill as wcf
from reefbench.benchmark.templates.writer_contract_layout import AGREEMENTS, layout
from reefbench.documents.odf import paragraphs
from reefbench.envs.desktop.writer_contract_evaluators import text_difference, write_agreement
from reefbench.validation.gates import static_problems


def test_tasks_pass_the_static_gates_and_near_misses_differ() -> None:
    template = wc.WRITER_MATCH_ANNEX
    family = next(f for f in v2.families() if f.name == "office")
    entry = next(t for t in family.templates if t.subtask is template)
    assert entry.tier == "hard"
    only = v2.Family(family.name, family.description, (entry,))
    tasks = list(v2.tasks_of(only))
    assert len(tasks) >= 8
    for task in tasks:
        assert static_problems(task, v2.POOL) == []
    values = dict(template.value_records[0])
    assert template.solution_generator is not None
    solution = template.solution_generator(**values)
    for near in template.near_misses:
        assert near.solution is not None
        assert near.solution(**values) != solution, near.label


def test_every_agreement_hides_three_wrong_figures_one_of_them_twice() -> None:
    for agreement in AGREEMENTS:
        laid = layout(agreement)
        kinds = [fix.kind for fix in laid.fixes]
        assert sorted(set(kinds)) == sorted(agreement.wrong), agreement.path
        assert kinds.count(agreement.repeated) == 2
        assert len(laid.fixes) == 4
        body = "\n".join(b[1] for b in laid.blocks if b[0] == "p")
        for fix in laid.fixes:
            # Each phrase is found once, so Replace All changes that one place only.
            assert body.count(fix.phrase) == 1, fix.phrase
            assert fix.phrase != fix.corrected
        for kind, wrong in agreement.wrong.items():
            assert agreement.annex[kind] != wrong
            # The wrong figure also stands in a look-alike that must stay.
            assert body.count(wrong) >= 2, (agreement.path, wrong)
        assert laid.kept, agreement.path


def test_the_written_document_reads_as_laid_out_until_corrected(tmp_path: Path) -> None:
    agreement = AGREEMENTS[0]
    laid = layout(agreement)
    path = tmp_path / "agreement.odt"
    write_agreement(path, agreement.title, laid.blocks)
    found = [p.text for p in paragraphs(path)]
    assert "45 days" in found and "EUR 1,520" in found  # the annex's table cells
    assert text_difference(found, laid.expected) != ""
    corrected = [next((f.after for f in laid.fixes if f.before == t), t) for t in found]
    assert text_difference(corrected, laid.expected) == ""
    # Every wrong figure replaced everywhere changes the look-alikes too.
    everywhere = []
    for text in found:
        for kind, wrong in agreement.wrong.items():
            text = text.replace(wrong, agreement.annex[kind])
        everywhere.append(text)
    assert text_difference(everywhere, laid.expected) != ""


def test_text_difference_names_the_first_paragraph_that_differs() -> None:
    assert text_difference(["a  b", "", "c"], ["a b", "c"]) == ""
    assert "paragraph 2" in text_difference(["a", "x"], ["a", "c"])
    assert "2 paragraphs, expected 3" in text_difference(["a", "b"], ["a", "b", "c"])


def test_fill_tasks_pass_the_static_gates_and_near_misses_differ() -> None:
    template = wcf.WRITER_FILL_ANNEX
    family = next(f for f in v2.families() if f.name == "office")
    entry = next(t for t in family.templates if t.subtask is template)
    assert entry.tier == "hard"
    only = v2.Family(family.name, family.description, (entry,))
    tasks = list(v2.tasks_of(only))
    assert len(tasks) >= 8
    for task in tasks:
        assert static_problems(task, v2.POOL) == []
    values = dict(template.value_records[0])
    assert template.solution_generator is not None
    solution = template.solution_generator(**values)
    for near in template.near_misses:
        assert near.solution is not None
        assert near.solution(**values) != solution, near.label


def test_the_fill_body_states_every_figure_beside_its_look_alikes() -> None:
    for agreement in AGREEMENTS:
        laid = layout(agreement, fill=True)
        assert not laid.fixes
        body = "\n".join(b[1] for b in laid.blocks if b[0] == "p")
        cells = [b[2] for b in laid.blocks if b[0] == "row"][1:]
        assert cells == ["to be confirmed"] * 7
        for kind, figure in agreement.annex.items():
            assert figure in body, (agreement.path, kind)
        for wrong in agreement.wrong.values():
            assert wrong in body  # the look-alike
        assert laid.expected[-1] == agreement.annex["liability"]
