"""reef-v2's pixels family: the answer exists only in the pixels of a picture.

Each template draws pictures into a folder of the desktop's home
(:func:`reefbench.benchmark.pixel_images.draw_pixel_images`) and asks for something only
those pixels hold: what was paid at one shop over five photographed till receipts (paper
turned a few degrees, sensor noise; :mod:`reefbench.benchmark.receipt_photos`), the height
of the highest bar of a chart without data labels, or the name on the jar whose label has
a given colour. File names are neutral (``receipt_02.png``, ``product_3.png``), no text
file, mail or name carries the value, and the answer is submitted (``root.answer_equals``).

The receipts: the shop's two purchases, one receipt of each of two other shops, and the
customer copy of one of the shop's receipts (the same print under a banner, turned
otherwise: one purchase on two photos). The shop's other receipt is damaged, its TOTAL's
amount torn away and an ink blot over its subtotal's, with a VOID line among its items:
what was paid on it is rebuilt from the lines left (the items, the VOID line's minus, the
discount, the printed tax), which the damage never touches.

What the agent sees: the image editor's element list names the window and its tools only
(the default OCR runs on windows without accessible elements, so the picture's text is not
in it; the desktop hides the harness's OCR from the agent); the answer is in the
screenshot, read by eye, zoomed where needed.

The reference solutions open the pictures in the desktop's image editor and submit. The
near misses are the plausible misreadings: the customer copy counted as a third purchase,
the damaged receipt's subtotal taken as paid, its total rebuilt without the tax or with
the voided item, the damaged receipt left out, another shop's receipt taken for it; the
second-highest bar (one gridline step below the highest), the highest bar read a half step
low; a jar whose label is one of the asked colour's two look-alikes (orange or magenta for
red; five jars, smaller name print), or a jar of another colour.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from reefbench.actions.evaluators import Evaluator
from reefbench.actions.spec import ActionCall
from reefbench.benchmark import pixel_images as px
from reefbench.benchmark import receipt_photos as rp
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
TILTS = [5.0, -6.0, 7.0, -4.0, -7.0]  # one per file: a copy is turned unlike its original
SECOND_VISIT = 50  # the shop's second receipt is draw variant + this


@dataclass(frozen=True)
class Photo:
    """One receipt photo: a receipt (shop, draw variant, with a VOID line or not), torn
    and blotted or not, the customer copy or not."""

    shop: str
    variant: int
    void: bool = False
    damaged: bool = False
    copy: bool = False

    @property
    def receipt(self) -> rp.Receipt:
        return rp.receipt_of(self.shop, self.variant, self.void)


def _photos(shop: str, others: str, position: int, variant: int) -> list[Photo]:
    """The five photos in file order: the shop's two receipts, one damaged and with a VOID
    line (the first visit's on an even variant, the second's on an odd one), the other's
    customer copy, and one receipt of each other shop. The four receipts turn with
    ``position`` (0-3); the copy falls among them by ``variant``."""
    first, second = others.split("|")
    visits = [Photo(shop, variant), Photo(shop, variant + SECOND_VISIT)]
    hurt = variant % 2
    visits[hurt] = replace(visits[hurt], void=True, damaged=True)
    four = [visits[0], Photo(first, variant), visits[1], Photo(second, variant)]
    four = four[position:] + four[:position]
    at = (variant * 2 + position + 1) % 5
    return [*four[:at], replace(visits[1 - hurt], copy=True), *four[at:]]


def _visits(shop: str, others: str, position: int, variant: int) -> tuple[rp.Receipt, Photo]:
    """The shop's intact receipt and the damaged receipt's photo."""
    photos = _photos(shop, others, position, variant)
    damaged = next(p for p in photos if p.damaged)
    intact = next(p for p in photos if p.shop == shop and p is not damaged)
    return intact.receipt, damaged


def receipt_setup(
    shop: str, others: str, position: int, variant: int, folder: str
) -> list[ActionStep]:
    images = [
        {
            "name": f"receipt_{k + 1:02d}.png",
            "kind": "receipt",
            "shop": photo.shop,
            "variant": photo.variant,
            "tilt": TILTS[k],
            "void": photo.void,
            "copy": photo.copy,
            "damaged": photo.damaged,
        }
        for k, photo in enumerate(_photos(shop, others, position, variant))
    ]
    return [_desktop(px.draw_pixel_images(folder=folder, images=images))]


def _paid(shop: str, others: str, position: int, variant: int) -> int:
    """Cents paid at ``shop`` in all: the intact receipt's total and the damaged one's
    rebuilt (items less the voided one, less the discount, plus the printed tax)."""
    intact, damaged = _visits(shop, others, position, variant)
    return intact.total + damaged.receipt.total


def receipt_checkpoint(
    shop: str, others: str, position: int, variant: int, folder: str
) -> Evaluator:
    return answer_equals(expected=rp.money(_paid(shop, others, position, variant)))


def _read_receipts(
    shop: str, others: str, position: int, variant: int, folder: str, cents: int, *extra: str
) -> list[ActionCall]:
    """Opens the shop's photos (and the receipts of the shops in ``extra``), then submits
    ``cents``."""
    photos = _photos(shop, others, position, variant)
    read = [k for k, p in enumerate(photos) if p.shop == shop or p.shop in extra]
    paths = [f"{folder}/receipt_{k + 1:02d}.png" for k in read]
    return [*_view(paths), _submit(rp.money(cents))]


def receipt_solution(
    shop: str, others: str, position: int, variant: int, folder: str
) -> list[ActionCall]:
    paid = _paid(shop, others, position, variant)
    return _read_receipts(shop, others, position, variant, folder, paid)


def receipt_copy_twice(
    shop: str, others: str, position: int, variant: int, folder: str
) -> list[ActionCall]:
    """Counts the customer copy as a third purchase."""
    intact, _ = _visits(shop, others, position, variant)
    paid = _paid(shop, others, position, variant) + intact.total
    return _read_receipts(shop, others, position, variant, folder, paid)


def receipt_subtotal_only(
    shop: str, others: str, position: int, variant: int, folder: str
) -> list[ActionCall]:
    """Takes the damaged receipt's items (its subtotal) as what was paid on it."""
    intact, damaged = _visits(shop, others, position, variant)
    paid = intact.total + damaged.receipt.subtotal
    return _read_receipts(shop, others, position, variant, folder, paid)


def receipt_no_tax(
    shop: str, others: str, position: int, variant: int, folder: str
) -> list[ActionCall]:
    """Rebuilds the damaged receipt's total without its tax."""
    intact, damaged = _visits(shop, others, position, variant)
    paid = intact.total + damaged.receipt.subtotal - damaged.receipt.discount
    return _read_receipts(shop, others, position, variant, folder, paid)


def receipt_void_kept(
    shop: str, others: str, position: int, variant: int, folder: str
) -> list[ActionCall]:
    """Rebuilds the damaged receipt's total with the voided item still in it."""
    _, damaged = _visits(shop, others, position, variant)
    paid = _paid(shop, others, position, variant) + damaged.receipt.voided
    return _read_receipts(shop, others, position, variant, folder, paid)


def receipt_one_visit(
    shop: str, others: str, position: int, variant: int, folder: str
) -> list[ActionCall]:
    """Submits the intact receipt's total alone, leaving out the one without a TOTAL."""
    intact, _ = _visits(shop, others, position, variant)
    return _read_receipts(shop, others, position, variant, folder, intact.total)


def receipt_other_shop(
    shop: str, others: str, position: int, variant: int, folder: str
) -> list[ActionCall]:
    """Takes another shop's receipt for the damaged one."""
    intact, _ = _visits(shop, others, position, variant)
    other = others.split("|")[0]
    paid = intact.total + rp.receipt_of(other, variant).total
    return _read_receipts(shop, others, position, variant, folder, paid, other)


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
    description="The folder {folder} on the computer holds five photos of till receipts, "
    "some of them from {shop}. Submit what was paid at {shop} in all, as a plain number "
    "such as 12.50. Count each purchase once: one receipt may be on two photos (its "
    "customer copy). Receipts may be damaged: where a TOTAL cannot be read, work out what "
    "was paid from that receipt's legible lines, its items (a VOID line takes an item "
    "back) less the discount, plus the tax amount as printed.",
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
        NearMiss("counts the customer copy as another purchase", solution=receipt_copy_twice),
        NearMiss("takes the damaged receipt's subtotal as paid", solution=receipt_subtotal_only),
        NearMiss("rebuilds the damaged receipt's total without tax", solution=receipt_no_tax),
        NearMiss("keeps the voided item in the rebuilt total", solution=receipt_void_kept),
        NearMiss("leaves out the receipt without a TOTAL", solution=receipt_one_visit),
        NearMiss("takes another shop's receipt for it", solution=receipt_other_shop),
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
