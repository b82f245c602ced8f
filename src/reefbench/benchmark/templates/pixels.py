"""reef-v2's pixels family: the answer exists only in the pixels of a picture.

Each template draws pictures into a folder of the desktop's home
(:func:`reefbench.benchmark.pixel_images.draw_pixel_images`) and asks for something only
those pixels hold: what was paid at one shop across its two receipts among four
photographed till receipts (paper turned a few degrees, sensor noise), the height of the
highest bar of a chart without data labels, or the name on the jar whose label has a given
colour. File names are neutral (``receipt_02.png``, ``product_3.png``), no text file, mail
or name carries the value, and the answer is submitted (``root.answer_equals``).

What the agent sees: the image editor's element list names the window and its tools only
(the default OCR runs on windows without accessible elements, so the picture's text is not
in it); the answer is in the screenshot. OCR run on the whole screen reads a receipt's
words but often drops or misreads amounts (a 4 to 7 degree turn), reads a chart's axis and
months but no bar's value (the highest is midway between two gridlines), and reads a jar's
name but never its colour.

The reference solutions open the pictures in the desktop's image editor and submit. The
near misses are the plausible misreadings: one receipt's total alone, the subtotals (each
receipt has a subtotal, a member's discount, tax and a total), the total without the
discount, another shop's receipt added; the second-highest bar (one gridline step below
the highest), the highest bar read a half step low; a jar whose label is one of the asked
colour's two look-alikes (orange or magenta for red; five jars, smaller name print), or a
jar of another colour.
"""

from __future__ import annotations

from typing import Any

from reefbench.actions.evaluators import Evaluator
from reefbench.actions.spec import ActionCall
from reefbench.benchmark import pixel_images as px
from reefbench.benchmark.templates.common import call, expand
from reefbench.benchmark.templates.drawing import drawing_open
from reefbench.environments.root import answer_equals
from reefbench.tasks.subtask import NearMiss, SubTask
from reefbench.tasks.task import ActionStep

D = "desktop"
PIXELS_INTENT = "read information that only a picture shows"


def _desktop(action: object) -> ActionStep:
    return ActionStep(env=D, action=action)  # type: ignore[arg-type]


def _view(paths: list[str]) -> list[ActionCall]:
    """Open the first picture in the image editor, then each next one through the same
    window's Open dialog, in a new tab (the editor asks where to open it)."""
    more = [
        a
        for path in paths[1:]
        for a in (
            call(D, "hotkey", keys=["ctrl", "o"]),
            call(D, "write_text", text=expand(path) + "\n"),
            call(D, "click_on", name="New Tab", role="push button"),
        )
    ]
    return [*drawing_open(paths[0]), *more]


def _submit(answer: str) -> ActionCall:
    return call("root", "submit", answer=answer)


# ------------------------------------- receipt photos: what was paid at one shop
SHOPS = [
    "Corner Bakery",
    "Green Grocer",
    "Harbor Hardware",
    "City Pharmacy",
    "Blue Door Cafe",
    "Paper & Ink",
    "Fresh Market",
]
RECEIPT_FOLDERS = ["~/Pictures/Receipts", "~/Documents/Receipts", "~/Pictures/Expenses"]
TILTS = [5.0, -6.0, 7.0, -4.0]
SECOND_VISIT = 50  # the shop's second receipt is draw variant + this


def _receipts(shop: str, others: str, position: int, variant: int) -> list[tuple[str, int]]:
    """The four receipts (shop, draw variant) in file order: the shop's two, apart, and
    one of each other shop; where they fall turns with ``position`` (0-3)."""
    first, second = others.split("|")
    four = [(shop, variant), (first, variant), (shop, variant + SECOND_VISIT), (second, variant)]
    return four[position:] + four[:position]


def _receipt_file(receipts: list[tuple[str, int]], wanted: tuple[str, int]) -> str:
    return f"receipt_{receipts.index(wanted) + 1:02d}.png"


def receipt_setup(
    shop: str, others: str, position: int, variant: int, folder: str
) -> list[ActionStep]:
    images = [
        {
            "name": f"receipt_{k + 1:02d}.png",
            "kind": "receipt",
            "shop": name,
            "variant": draw,
            "tilt": TILTS[k],
        }
        for k, (name, draw) in enumerate(_receipts(shop, others, position, variant))
    ]
    return [_desktop(px.draw_pixel_images(folder=folder, images=images))]


def _paid(shop: str, variant: int) -> int:
    """Cents paid at ``shop`` in all: its two receipts' totals."""
    return sum(px.receipt_of(shop, v).total for v in (variant, variant + SECOND_VISIT))


def receipt_checkpoint(
    shop: str, others: str, position: int, variant: int, folder: str
) -> Evaluator:
    return answer_equals(expected=px.money(_paid(shop, variant)))


def _read_receipts(
    folder: str, receipts: list[tuple[str, int]], read: list[tuple[str, int]], answer: int
) -> list[ActionCall]:
    paths = [f"{folder}/{_receipt_file(receipts, r)}" for r in read]
    return [*_view(paths), _submit(px.money(answer))]


def receipt_solution(
    shop: str, others: str, position: int, variant: int, folder: str
) -> list[ActionCall]:
    receipts = _receipts(shop, others, position, variant)
    mine = [r for r in receipts if r[0] == shop]
    return _read_receipts(folder, receipts, mine, _paid(shop, variant))


def receipt_one_visit(
    shop: str, others: str, position: int, variant: int, folder: str
) -> list[ActionCall]:
    """Stops at the shop's first receipt and submits its total alone."""
    receipts = _receipts(shop, others, position, variant)
    first = next(r for r in receipts if r[0] == shop)
    return _read_receipts(folder, receipts, [first], px.receipt_of(*first).total)


def receipt_subtotals(
    shop: str, others: str, position: int, variant: int, folder: str
) -> list[ActionCall]:
    """Adds the two receipts' subtotals (before tax) instead of their totals."""
    receipts = _receipts(shop, others, position, variant)
    mine = [r for r in receipts if r[0] == shop]
    return _read_receipts(folder, receipts, mine, sum(px.receipt_of(*r).subtotal for r in mine))


def receipt_before_discount(
    shop: str, others: str, position: int, variant: int, folder: str
) -> list[ActionCall]:
    """Adds the two receipts' subtotals and taxes, skipping the discount lines."""
    receipts = _receipts(shop, others, position, variant)
    mine = [r for r in receipts if r[0] == shop]
    paid = sum(px.receipt_of(*r).subtotal + px.receipt_of(*r).tax for r in mine)
    return _read_receipts(folder, receipts, mine, paid)


def receipt_other_shop(
    shop: str, others: str, position: int, variant: int, folder: str
) -> list[ActionCall]:
    """Adds another shop's receipt to the shop's first one."""
    receipts = _receipts(shop, others, position, variant)
    first = next(r for r in receipts if r[0] == shop)
    other = (others.split("|")[0], variant)
    paid = px.receipt_of(*first).total + px.receipt_of(*other).total
    return _read_receipts(folder, receipts, [first, other], paid)


def _receipt_records() -> list[dict[str, Any]]:
    records = []
    for i in range(15):
        shop = SHOPS[i % len(SHOPS)]
        rest = [s for s in SHOPS if s != shop]
        others = [rest[(i * 2) % len(rest)], rest[(i * 2 + 3) % len(rest)]]
        records.append(
            {
                "shop": shop,
                "others": "|".join(others),
                "position": (i * 3 + 1) % 4,
                "variant": i,
                "folder": RECEIPT_FOLDERS[i % len(RECEIPT_FOLDERS)],
            }
        )
    return records


RECEIPT_TOTAL = SubTask(
    id="pixels.receipt_total",
    description="The folder {folder} on the computer holds photos of four till receipts, "
    "two of them from {shop}. Submit what was paid at {shop} in all, the sum of the "
    "totals of its two receipts, as a plain number such as 12.50.",
    attributes={
        "shop": "str",
        "others": "str",
        "position": "int",
        "variant": "int",
        "folder": "str",
    },
    outputs=["answer"],
    env=D,
    app="image-editor",
    app_category="productivity",
    intents=[PIXELS_INTENT],
    value_records=_receipt_records(),
    setup_generator=receipt_setup,
    evaluator_generator=receipt_checkpoint,
    solution_generator=receipt_solution,
    near_misses=[
        NearMiss("submits one receipt's total only", solution=receipt_one_visit),
        NearMiss("adds the subtotals before tax", solution=receipt_subtotals),
        NearMiss("skips the discount lines", solution=receipt_before_discount),
        NearMiss("adds another shop's receipt", solution=receipt_other_shop),
    ],
)


# ------------------------------------------------ bar chart: the highest bar's value
METRICS = ["sales", "orders", "visitors", "sign-ups", "deliveries"]
CHART_FOLDERS = ["~/Pictures/Reports", "~/Documents/Charts", "~/Pictures/Charts"]


def _chart_path(metric: str, folder: str) -> str:
    return f"{folder}/{metric}-h1.png"


def _chart_title(metric: str) -> str:
    return f"Monthly {metric}, January to June"


def chart_setup(metric: str, variant: int, folder: str) -> list[ActionStep]:
    image = {
        "name": _chart_path(metric, folder).rsplit("/", 1)[1],
        "kind": "chart",
        "title": _chart_title(metric),
        "values": px.chart_values(metric, variant),
    }
    return [_desktop(px.draw_pixel_images(folder=folder, images=[image]))]


def _peak(metric: str, variant: int) -> int:
    return max(px.chart_values(metric, variant))


def chart_checkpoint(metric: str, variant: int, folder: str) -> Evaluator:
    return answer_equals(expected=str(_peak(metric, variant)))


def _read_chart(metric: str, folder: str, answer: int) -> list[ActionCall]:
    return [*drawing_open(_chart_path(metric, folder)), _submit(str(answer))]


def chart_solution(metric: str, variant: int, folder: str) -> list[ActionCall]:
    return _read_chart(metric, folder, _peak(metric, variant))


def chart_second_bar(metric: str, variant: int, folder: str) -> list[ActionCall]:
    """Submits the value of the second-highest bar."""
    return _read_chart(metric, folder, sorted(px.chart_values(metric, variant))[-2])


def chart_gridline_low(metric: str, variant: int, folder: str) -> list[ActionCall]:
    """Reads the highest bar at the gridline below its top (10 low)."""
    return _read_chart(metric, folder, _peak(metric, variant) - 10)


CHART_PEAK = SubTask(
    id="pixels.chart_peak",
    description="The picture {folder}/{metric}-h1.png on the computer is a bar chart of "
    "monthly {metric} from January to June. Submit the {metric} of the month with the "
    "highest bar, read off the chart to the nearest 10, as a plain number.",
    attributes={"metric": "str", "variant": "int", "folder": "str"},
    outputs=["answer"],
    env=D,
    app="image-editor",
    app_category="productivity",
    intents=[PIXELS_INTENT],
    value_records=[
        {
            "metric": METRICS[i % len(METRICS)],
            "variant": i,
            "folder": CHART_FOLDERS[i % len(CHART_FOLDERS)],
        }
        for i in range(15)
    ],
    setup_generator=chart_setup,
    evaluator_generator=chart_checkpoint,
    solution_generator=chart_solution,
    near_misses=[
        NearMiss("submits the second-highest bar's value", solution=chart_second_bar),
        NearMiss("reads the highest bar a gridline low", solution=chart_gridline_low),
    ],
)


# ---------------------------------------------- jar photos: the label of one colour
PRODUCTS = [
    "Wildflower Honey",
    "Plum Jam",
    "Lemon Curd",
    "Fig Chutney",
    "Apricot Spread",
    "Cherry Compote",
    "Mango Chutney",
    "Quince Jelly",
    "Pear Butter",
]
# The colour asked for -> its two look-alikes on the shelf, one hue either side of it (25
# to 50 degrees away, a colour a person names otherwise: orange and magenta beside red).
LOOK_ALIKES = {
    "red": ("orange", "magenta"),
    "blue": ("teal", "purple"),
    "green": ("lime", "teal"),
}
JARS = 5  # the asked colour's jar, its two look-alikes' and the two other asked colours'
JAR_FOLDERS = ["~/Pictures/Products", "~/Pictures/Shop", "~/Documents/Product photos"]


def shelf_colours(colour: str) -> list[str]:
    """The five label colours, asked first: ``colour``, its look-alikes, the other two."""
    others = [c for c in LOOK_ALIKES if c != colour]
    return [colour, *LOOK_ALIKES[colour], *others]


def _jars(colour: str, products: str, position: int) -> list[tuple[str, str]]:
    """(product, label colour) in file order: the asked colour's jar at ``position`` (1-5),
    the look-alikes' and the others' after it (wrapping)."""
    names = products.split("|")
    order = [(position - 1 + k) % JARS for k in range(JARS)]
    jars: list[tuple[str, str]] = [("", "")] * JARS
    pairs = zip(names, shelf_colours(colour), strict=True)
    for (product, label), slot in zip(pairs, order, strict=True):
        jars[slot] = (product, label)
    return jars


def jar_setup(colour: str, products: str, position: int, folder: str) -> list[ActionStep]:
    images = [
        {"name": f"product_{k + 1}.png", "kind": "jar", "product": product, "colour": label}
        for k, (product, label) in enumerate(_jars(colour, products, position))
    ]
    return [_desktop(px.draw_pixel_images(folder=folder, images=images))]


def _jar_with(colour: str, products: str, position: int, label: str) -> tuple[int, str]:
    """The file number and product of the jar whose label is ``label``."""
    jars = _jars(colour, products, position)
    index = next(k for k, (_, c) in enumerate(jars) if c == label)
    return index + 1, jars[index][0]


def jar_checkpoint(colour: str, products: str, position: int, folder: str) -> Evaluator:
    return answer_equals(expected=products.split("|")[0])


def _read_jar(folder: str, number: int, product: str) -> list[ActionCall]:
    return [*drawing_open(f"{folder}/product_{number}.png"), _submit(product)]


def jar_solution(colour: str, products: str, position: int, folder: str) -> list[ActionCall]:
    return _read_jar(folder, *_jar_with(colour, products, position, colour))


def jar_look_alike(colour: str, products: str, position: int, folder: str) -> list[ActionCall]:
    """Takes the first look-alike's label (orange for red, ...) for the asked colour."""
    return _read_jar(folder, *_jar_with(colour, products, position, LOOK_ALIKES[colour][0]))


def jar_other_look_alike(
    colour: str, products: str, position: int, folder: str
) -> list[ActionCall]:
    """Takes the look-alike on the hue's other side (magenta for red, ...)."""
    return _read_jar(folder, *_jar_with(colour, products, position, LOOK_ALIKES[colour][1]))


def jar_third(colour: str, products: str, position: int, folder: str) -> list[ActionCall]:
    """Submits the name on a jar of another asked colour."""
    other = shelf_colours(colour)[3]
    return _read_jar(folder, *_jar_with(colour, products, position, other))


def _jar_records() -> list[dict[str, Any]]:
    records = []
    asked = list(LOOK_ALIKES)
    for i in range(12):
        names = [PRODUCTS[(i + 2 * k) % len(PRODUCTS)] for k in range(JARS)]
        records.append(
            {
                "colour": asked[i % len(asked)],
                "products": "|".join(names),
                "position": 1 + (i // 3 + i) % JARS,
                "folder": JAR_FOLDERS[i % len(JAR_FOLDERS)],
            }
        )
    return records


JAR_LABEL = SubTask(
    id="pixels.jar_label",
    description="The folder {folder} on the computer holds five product photos, each of "
    "a jar with a coloured label. Submit the product name printed on the jar whose label "
    "is {colour}.",
    attributes={"colour": "str", "products": "str", "position": "int", "folder": "str"},
    outputs=["answer"],
    env=D,
    app="image-editor",
    app_category="productivity",
    intents=[PIXELS_INTENT],
    value_records=_jar_records(),
    setup_generator=jar_setup,
    evaluator_generator=jar_checkpoint,
    solution_generator=jar_solution,
    near_misses=[
        NearMiss("takes a look-alike colour's jar", solution=jar_look_alike),
        NearMiss("takes the other look-alike colour's jar", solution=jar_other_look_alike),
        NearMiss("submits the name on another jar", solution=jar_third),
    ],
)


TEMPLATES: list[SubTask] = [RECEIPT_TOTAL, CHART_PEAK, JAR_LABEL]
POOL: dict[str, SubTask] = {t.id: t for t in TEMPLATES}
