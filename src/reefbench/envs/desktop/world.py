"""A lived-in home folder built from a seed: documents, spreadsheets, images, look-alike names.

About 210 files in nested folders (invoices per vendor and month, letters, project notes,
CSV reports, holiday photos and screenshots as real JPEG/PNG images, receipts as PDFs) and
the clutter of a real Downloads folder: ``invoice_2026-03.pdf`` next to
``invoice_2026-03 (1).pdf``, ``report_final.csv`` next to ``report_final (2).csv``. Files
carry fixed modification times in the months before the world's "now", so the file
manager's "Modified" column tells a story.

Built once per seed into the world cache (:mod:`reefbench.environments.worlds`) and copied
into the home by the ``load_world`` setup action; the same seed gives the same bytes (with the same
Faker and Pillow releases, which are part of the cache key).
"""

from __future__ import annotations

import io
import os
import random
import shutil
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from reefbench.environments.worlds import VENDORS, cached, check_seed, text_pdf
from reefbench.environments.worlds import WORLD_NOW as NOW_TEXT

WORLD_NOW = datetime.fromisoformat(NOW_TEXT)
MONTHS = 6
CITIES = ("Lisbon 2025", "Edinburgh 2025", "Copenhagen 2026", "Porto 2024")
PROJECTS = ("Kestrel", "Harbour Refit", "Spring Fair")


class _Home:
    """Writes files under one root with deterministic content and modification times."""

    def __init__(self, root: Path, rng: random.Random) -> None:
        self.root = root
        self.rng = rng
        self.count = 0

    def when(self, back_days: int = 180) -> datetime:
        moment = WORLD_NOW - timedelta(days=self.rng.randrange(1, back_days))
        return moment.replace(hour=self.rng.randrange(8, 20), minute=self.rng.randrange(60))

    def write(self, rel: str, data: bytes | str, when: datetime | None = None) -> None:
        path = self.root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
        stamp = (when or self.when()).timestamp()
        os.utime(path, (stamp, stamp))
        self.count += 1

    def settle_folders(self) -> None:
        """Folders get the time of their newest file (as after a real copy)."""
        for folder in sorted((p for p in self.root.rglob("*") if p.is_dir()), reverse=True):
            times = [child.stat().st_mtime for child in folder.iterdir()]
            if times:
                os.utime(folder, (max(times), max(times)))


def _image(rng: random.Random, size: tuple[int, int], kind: str) -> bytes:
    """A small real picture (sky, ground and a few shapes): JPEG for photos, PNG otherwise."""
    from PIL import Image, ImageDraw

    def colour() -> tuple[int, int, int]:
        return (rng.randrange(256), rng.randrange(256), rng.randrange(256))

    image = Image.new("RGB", size, colour())
    draw = ImageDraw.Draw(image)
    width, height = size
    draw.rectangle((0, height * 2 // 3, width, height), fill=colour())
    for _ in range(rng.randrange(2, 6)):
        x, y = rng.randrange(width), rng.randrange(height)
        r = rng.randrange(4, max(5, width // 5))
        draw.ellipse((x - r, y - r, x + r, y + r), fill=colour())
    buffer = io.BytesIO()
    image.save(buffer, format=kind, **({"quality": 80} if kind == "JPEG" else {}))
    return buffer.getvalue()


def _month(back: int) -> datetime:
    year, month = WORLD_NOW.year, WORLD_NOW.month - back
    while month < 1:
        month, year = month + 12, year - 1
    return datetime(year, month, 3, 10, 0)


def _invoices(home: _Home) -> None:
    rng = home.rng
    for name, prefix in VENDORS:
        for back in range(1, MONTHS + 1):
            month = _month(back)
            amount = rng.uniform(25, 240)
            lines = [
                name,
                f"Invoice {prefix}-{month:%Y%m}-{rng.randrange(1000, 9999)}",
                f"Billing period: {month:%B %Y}",
                f"Amount due: GBP {amount:.2f}",
            ]
            home.write(
                f"Documents/Invoices/{name}/invoice_{month:%Y-%m}.pdf", text_pdf(lines), month
            )
    latest = _month(0)  # this month's bill, issued on the 3rd
    copy = text_pdf([VENDORS[0][0], f"Billing period: {latest:%B %Y}", "Amount due: GBP 88.20"])
    for suffix in ("", " (1)", " (2)"):  # the same download, saved three times
        home.write(f"Downloads/invoice_{latest:%Y-%m}{suffix}.pdf", copy, latest)
    older = _month(2)
    home.write(f"Downloads/invoice_{older:%Y-%m}.pdf", text_pdf([VENDORS[1][0]]), older)


def _csv(rng: random.Random, header: str, rows: int, make: Any) -> str:
    return "\n".join([header, *(make(rng, i) for i in range(rows))]) + "\n"


def _expense_row(rng: random.Random, i: int) -> str:
    item = rng.choice(("Train", "Taxi", "Hotel", "Lunch", "Stationery", "Software", "Parking"))
    day = f"2026-{rng.randrange(1, 4):02d}-{rng.randrange(1, 29):02d}"
    return f"{day},{item},{rng.uniform(3, 300):.2f}"


def _sales_row(rng: random.Random, i: int) -> str:
    region = ("North", "South", "East", "West")[i % 4]
    return f"{region},{i // 4 + 1},{rng.randrange(800, 9000)},{rng.randrange(500, 6000)}"


def _spreadsheets(home: _Home) -> None:
    rng = home.rng
    for back in range(1, MONTHS + 1):
        month = _month(back)
        body = _csv(rng, "date,item,amount_gbp", rng.randrange(6, 20), _expense_row)
        home.write(f"Documents/Expenses/expenses_{month:%Y-%m}.csv", body, month)
    for quarter in ("2025-Q2", "2025-Q3", "2025-Q4", "2026-Q1"):
        body = _csv(rng, "region,month,sales,costs", 12, _sales_row)
        home.write(f"Documents/Reports/sales_{quarter}.csv", body)
        if rng.random() < 0.7:
            home.write(
                f"Documents/Reports/sales_{quarter}_draft.csv", body.replace("North", "Nrth")
            )
    final = _csv(rng, "region,month,sales,costs", 12, _sales_row)
    home.write("Downloads/report_final.csv", final)
    home.write("Downloads/report_final (2).csv", final.replace(",1,", ",01,"))
    home.write(
        "Documents/budget_2026.csv",
        _csv(rng, "category,planned,spent", 0, _sales_row)
        + "Rent,1200,1200\nFood,400,352.10\nTravel,150,210.45\n",
    )
    home.write(
        "Documents/budget_2026_v2.csv",
        "category,planned,spent\nRent,1200,1200\nFood,420,352.10\nTravel,200,210.45\n",
    )


def _texts(home: _Home, fake: Any) -> None:
    rng = home.rng
    for i in range(20):
        who = fake.name()
        home.write(
            f"Documents/Letters/letter_to_{who.split()[-1].lower()}_{i + 1:02d}.txt",
            f"Dear {who},\n\n{fake.paragraph(nb_sentences=5)}\n\nYours sincerely,\nAlex Morgan\n",
        )
    for project in PROJECTS:
        base = f"Documents/Projects/{project}"
        home.write(f"{base}/README.md", f"# {project}\n\n{fake.paragraph(nb_sentences=4)}\n")
        home.write(f"{base}/plan.txt", "\n".join(f"- {fake.sentence()}" for _ in range(6)) + "\n")
        for _ in range(5):
            day = home.when(120)
            home.write(
                f"{base}/meetings/meeting_{day:%Y-%m-%d}.txt",
                f"{project} meeting {day:%d %B %Y}\n\n{fake.paragraph()}\n",
                day,
            )
        home.write(
            f"{base}/tasks.csv",
            "task,owner,done\n"
            + "".join(
                f"{fake.bs()},{fake.first_name()},{rng.choice(('yes', 'no'))}\n" for _ in range(8)
            ),
        )
    for _ in range(15):
        dish = " ".join(fake.words(nb=2)).title()
        home.write(
            f"Documents/Recipes/{dish.replace(' ', '_').lower()}.txt",
            f"{dish}\n\nIngredients:\n" + "".join(f"- {w}\n" for w in fake.words(nb=5)),
        )
    for i in range(5):
        home.write(
            f"Music/Playlists/playlist_{i + 1}.m3u",
            "".join(f"{fake.word()}_{fake.word()}.mp3\n" for _ in range(8)),
        )
    home.write("Desktop/todo.txt", "\n".join(f"[ ] {fake.sentence(nb_words=5)}" for _ in range(7)))
    home.write("Desktop/notes.md", f"# Notes\n\n{fake.paragraph()}\n")
    home.write(
        "Desktop/phone numbers.txt",
        "".join(f"{fake.name()}: +44 7700 9{rng.randrange(100000):05d}\n" for _ in range(6)),
    )


def _receipts(home: _Home) -> None:
    rng = home.rng
    for _ in range(30):
        day = home.when()
        order = rng.randrange(100000, 999999)
        lines = [
            "Receipt",
            f"Order {order}",
            f"Date: {day:%Y-%m-%d}",
            f"Total: GBP {rng.uniform(3, 150):.2f}",
        ]
        home.write(f"Documents/Receipts/receipt_{day:%Y-%m-%d}_{order}.pdf", text_pdf(lines), day)


def _pictures(home: _Home) -> None:
    rng = home.rng
    for city in CITIES:
        start = rng.randrange(1000, 9000)
        for i in range(8):
            home.write(
                f"Pictures/Holidays/{city}/IMG_{start + i:04d}.jpg", _image(rng, (160, 120), "JPEG")
            )
    for _ in range(10):
        day = home.when()
        home.write(
            f"Pictures/Screenshots/Screenshot_{day:%Y-%m-%d_%H-%M}.png",
            _image(rng, (200, 125), "PNG"),
            day,
        )
    for i in range(12):
        home.write(f"Pictures/Family/family_{i + 1:02d}.jpg", _image(rng, (120, 160), "JPEG"))
    home.write("Pictures/wallpaper.png", _image(rng, (320, 200), "PNG"))
    home.write("Downloads/IMG_0001.jpg", _image(rng, (160, 120), "JPEG"))
    home.write("Downloads/IMG_0001 (1).jpg", _image(rng, (160, 120), "JPEG"))


def build_home(seed: int, target: Path) -> int:
    """Generate world ``seed``'s home tree into ``target`` (created); returns the file count."""
    from faker import Faker

    check_seed(seed)
    fake = Faker("en_GB")
    fake.seed_instance(seed)
    home = _Home(target, random.Random(seed))
    target.mkdir(parents=True)
    _invoices(home)
    _spreadsheets(home)
    _texts(home, fake)
    _receipts(home)
    _pictures(home)
    home.settle_folders()
    return home.count


def _releases() -> str:
    from faker import VERSION
    from PIL import __version__ as pillow

    return f"faker{VERSION}-pillow{pillow}"


def home_world(seed: int) -> Path:
    """The prepared home tree of world ``seed`` (built on first use)."""

    def build(path: Path) -> None:
        build_home(seed, path)

    return cached(f"home-{_releases()}", check_seed(seed), build, [Path(__file__)])


def copy_world_into(home: Path, seed: int) -> None:
    """Copy world ``seed``'s files over ``home`` (keeping the baseline's own files)."""
    shutil.copytree(home_world(seed), home, dirs_exist_ok=True, symlinks=True)
