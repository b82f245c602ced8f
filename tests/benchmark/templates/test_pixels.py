"""reef-v2's pixels family: three hard templates whose answer is only in a picture's pixels
(a receipt's total, a chart's highest bar, the name on the jar of one label colour). Each
task passes the static gates; the answer is drawn in the picture and is in no file name,
instruction or text the task seeds; every near miss submits another answer, which the
checkpoint refuses."""

from __future__ import annotations

import itertools
import json
import shutil
from typing import Any

import pytest

from reefbench.benchmark import pixel_images as px
from reefbench.benchmark import receipt_photos as rp
from reefbench.benchmark import v2
from reefbench.benchmark.templates import pixels
from reefbench.environments.root import RootEnvironment, answer_equals
from reefbench.tasks.answers import answers_match
from reefbench.tasks.subtask import SubTask
from reefbench.tasks.task import Task
from reefbench.validation.gates import static_problems

TEMPLATES = {t.id: t for t in pixels.TEMPLATES}


def _family() -> v2.Family:
    return next(f for f in v2.families() if f.name == "pixels")


def _tasks(template_id: str) -> list[Task]:
    family = _family()
    template = next(t for t in family.templates if t.subtask.id == template_id)
    return list(v2.tasks_of(v2.Family(family.name, family.description, (template,))))


def _values(template: SubTask) -> list[dict[str, Any]]:
    return v2.value_sets(template, v2.TASKS_PER_TEMPLATE)


def _submitted(template: SubTask, solution: Any, values: dict[str, Any]) -> str:
    calls = solution(**values)
    assert calls[-1].name == "submit"
    return str(calls[-1].arguments["answer"])


def _expected(template: SubTask, values: dict[str, Any]) -> str:
    return str(template.evaluator_generator(**values).bound["expected"])


def _images(template: SubTask, values: dict[str, Any]) -> tuple[str, list[dict[str, Any]]]:
    (step,) = template.setup_generator(**values)  # type: ignore[misc]
    bound = step.action.bound
    return str(bound["folder"]), list(bound["images"])


def test_the_family_has_these_three_hard_desktop_templates() -> None:
    family = _family()
    assert set(TEMPLATES) <= {t.subtask.id for t in family.templates}
    assert {t.tier for t in family.templates} == {"hard"}
    assert set(pixels.POOL) <= set(v2.POOL)


@pytest.mark.parametrize("template_id", sorted(TEMPLATES))
def test_tasks_pass_the_static_gates(template_id: str) -> None:
    tasks = _tasks(template_id)
    assert 5 <= len(tasks) <= 15
    for task in tasks:
        assert static_problems(task, v2.POOL) == []
        assert "family:pixels" in task.metadata.tags and "tier:hard" in task.metadata.tags


@pytest.mark.parametrize("template_id", sorted(TEMPLATES))
def test_the_answer_is_in_no_name_or_instruction(template_id: str) -> None:
    template = TEMPLATES[template_id]
    for values in _values(template):
        expected = _expected(template, values)
        folder, images = _images(template, values)
        names = " ".join([folder, *(str(i["name"]) for i in images)])
        instruction = template.description.format(**values)
        assert expected.casefold() not in names.casefold()
        assert expected.casefold() not in instruction.casefold()
        # The checkpoint's value is seeded only as a picture, never as text of its own.
        assert all(
            set(i)
            <= {"name", "kind", "shop", "variant", "tilt", "title", "values", "product", "colour"}
            | {"void", "copy", "damaged"}
            for i in images
        )


@pytest.mark.parametrize("template_id", sorted(TEMPLATES))
def test_the_reference_submits_the_answer_and_every_near_miss_another(template_id: str) -> None:
    template = TEMPLATES[template_id]
    for values in _values(template):
        expected = _expected(template, values)
        assert answers_match(_submitted(template, template.solution_generator, values), expected)
        wrong = {_submitted(template, m.solution, values) for m in template.near_misses}
        assert len(wrong) == len(template.near_misses)
        assert not any(answers_match(w, expected) for w in wrong)


def _check(expected: str, answer: str | None) -> bool:
    root = RootEnvironment()
    root.answer = answer
    return bool(answer_equals.func(expected=expected, env=root).success)


def test_the_checkpoint_fails_on_a_misreading() -> None:
    values = _values(pixels.RECEIPT_TOTAL)[0]
    paid = _expected(pixels.RECEIPT_TOTAL, values)
    assert _check(paid, paid) and _check(paid, f"{paid} ")
    intact, damaged = pixels._visits(
        values["shop"], values["others"], values["position"], values["variant"]
    )
    assert not _check(paid, rp.money(intact.total))
    assert not _check(paid, rp.money(intact.total * 2 + damaged.receipt.total))
    assert not _check(paid, rp.money(intact.total + damaged.receipt.subtotal))
    assert not _check(paid, None)
    jar = _values(pixels.JAR_LABEL)[0]
    product = jar["products"].split("|")[0]
    assert _check(product, product.upper())
    assert not _check(product, jar["products"].split("|")[1])


def _receipt_photos(values: dict[str, Any]) -> list[dict[str, Any]]:
    return _images(pixels.RECEIPT_TOTAL, values)[1]


def test_five_photos_four_purchases_one_copy_and_one_damaged_receipt() -> None:
    for values in _values(pixels.RECEIPT_TOTAL):
        images = _receipt_photos(values)
        assert len(images) == 5 and len({i["tilt"] for i in images}) == 5
        receipts = [rp.receipt_of(i["shop"], i["variant"], i["void"]) for i in images]
        (copy,) = [k for k, i in enumerate(images) if i["copy"]]
        (hurt,) = [k for k, i in enumerate(images) if i["damaged"]]
        # The copy is the same receipt as one other photo, the shop's intact one, turned
        # otherwise; the four purchases are four receipts with four totals.
        same = [k for k, r in enumerate(receipts) if r == receipts[copy] and k != copy]
        assert len(same) == 1 and images[same[0]]["tilt"] != images[copy]["tilt"]
        assert receipts[copy].shop == values["shop"] and not images[copy]["damaged"]
        purchases = [r for k, r in enumerate(receipts) if k != copy]
        assert len({r.total for r in purchases}) == 4
        assert [r.shop for r in purchases].count(values["shop"]) == 2
        assert len({r.shop for r in purchases}) == 3
        # The damaged receipt is the shop's other one and carries the VOID line.
        assert receipts[hurt].shop == values["shop"] and receipts[hurt] != receipts[copy]
        assert receipts[hurt].void is not None and images[hurt]["void"]
        assert [i["void"] for i in images].count(True) == 1
        assert all(0 < r.discount < r.subtotal // 5 for r in receipts)


def test_the_expected_total_is_the_intact_total_and_the_damaged_one_rebuilt() -> None:
    """The answer is rebuilt the way the instruction says, from what the damaged receipt
    prints: the item lines' amounts (the VOID line's minus among them), the discount and
    the tax, each read back from its printed text."""
    for values in _values(pixels.RECEIPT_TOTAL):
        images = _receipt_photos(values)
        receipts = [rp.receipt_of(i["shop"], i["variant"], i["void"]) for i in images]
        (hurt,) = [k for k, i in enumerate(images) if i["damaged"]]
        (copy,) = [k for k, i in enumerate(images) if i["copy"]]
        lines = rp.printed_lines(receipts[hurt])

        def cents(text: str) -> int:
            return round(float(text) * 100)

        items = sum(cents(line.amount) for line in lines if line.key in ("item", "void"))
        (discount,) = [cents(line.amount) for line in lines if line.key == "discount"]
        (tax,) = [cents(line.amount) for line in lines if line.key == "tax"]
        assert discount < 0 < tax
        rebuilt = items + discount + tax
        assert rebuilt == receipts[hurt].total
        assert rebuilt != sum(cents(line.amount) for line in lines if line.key == "item")
        intact = receipts[copy].total
        assert _expected(pixels.RECEIPT_TOTAL, values) == rp.money(intact + rebuilt)


def test_charts_and_jars_are_unambiguous() -> None:
    for values in _values(pixels.CHART_PEAK):
        ranked = sorted(px.chart_values(values["metric"], values["variant"]), reverse=True)
        assert ranked[0] - ranked[1] == 20 and ranked[0] % 20 == 10  # close, not on a line
    for values in _values(pixels.JAR_LABEL):
        _folder, images = _images(pixels.JAR_LABEL, values)
        colours = [i["colour"] for i in images]
        assert len(images) == 5 and len(set(colours)) == 5
        assert set(pixels.LOOK_ALIKES[values["colour"]]) < set(colours)
        assert len({i["product"] for i in images}) == 5
        asked = next(i for i in images if i["colour"] == values["colour"])
        assert asked["product"] == values["products"].split("|")[0]


def _hue(colour: str) -> float:
    import colorsys

    rgb = (int(px.LABEL_COLOURS[colour][i : i + 2], 16) / 255 for i in (1, 3, 5))
    return colorsys.rgb_to_hsv(*rgb)[0] * 360


def test_a_look_alike_is_close_in_hue_but_a_person_tells_it_apart() -> None:
    """Each look-alike is 25 to 50 hue degrees from the asked colour (the old orange-for-red
    was 33): close enough to mistake at a glance, far enough to name otherwise."""
    for colour, alikes in pixels.LOOK_ALIKES.items():
        for alike in alikes:
            apart = abs(_hue(colour) - _hue(alike))
            assert 25 <= min(apart, 360 - apart) <= 50, (colour, alike)
    hues = sorted(_hue(c) for c in px.LABEL_COLOURS)
    gaps = [b - a for a, b in itertools.pairwise(hues)] + [360 - hues[-1] + hues[0]]
    assert min(gaps) >= 25  # no two label colours on the shelf are nearer than that


def test_the_pictures_are_drawn_the_same_every_time() -> None:
    values = _values(pixels.RECEIPT_TOTAL)[0]
    _, images = _images(pixels.RECEIPT_TOTAL, values)
    assert px.picture(images[0]).tobytes() == px.picture(images[0]).tobytes()
    json.dumps(images)  # the setup's arguments are plain data (task files write them)


def test_the_picture_holds_the_value() -> None:
    """The asked value changes the picture: another total, peak or label colour draws
    other pixels (the value is drawn, not only named)."""
    import dataclasses

    values = _values(pixels.RECEIPT_TOTAL)[0]
    receipt = rp.receipt_of(values["shop"], values["variant"])
    other = dataclasses.replace(receipt, tax=receipt.tax + 1)
    assert rp.draw_receipt(receipt, 5.0).tobytes() != rp.draw_receipt(other, 5.0).tobytes()
    chart = _values(pixels.CHART_PEAK)[0]
    bars = px.chart_values(chart["metric"], chart["variant"])
    higher = [b + 10 if b == max(bars) else b for b in bars]
    assert px.draw_chart("C", bars).tobytes() != px.draw_chart("C", higher).tobytes()
    assert px.draw_jar("Plum Jam", "red").tobytes() != px.draw_jar("Plum Jam", "orange").tobytes()


@pytest.mark.skipif(shutil.which("tesseract") is None, reason="tesseract is not installed")
def test_ocr_of_the_pictures_does_not_state_the_answer() -> None:
    """OCR reads a chart's axis and months, never the highest bar's value (midway between
    two gridlines), and a jar's name, never a colour word."""
    from reefbench.perception.ocr import ocr_image

    chart = _values(pixels.CHART_PEAK)[0]
    bars = px.chart_values(chart["metric"], chart["variant"])
    words = {w.text for w in ocr_image(px.draw_chart("Chart", bars))}
    assert str(max(bars)) not in words
    assert "Jan" in words

    jar = _values(pixels.JAR_LABEL)[0]
    product = jar["products"].split("|")[0]
    words = {w.text.casefold() for w in ocr_image(px.draw_jar(product, jar["colour"]))}
    assert product.split()[0].casefold() in words
    assert not words & set(px.LABEL_COLOURS)
