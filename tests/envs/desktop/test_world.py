"""The seeded desktop home: deterministic bytes, 200+ files with look-alike names, real
images and PDFs, copied into a home over the baseline and gone again after a restore."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from pathlib import Path

import pytest

from reefbench.environments.worlds import CACHE_ENV
from reefbench.envs.desktop.reset import build_baseline, restore_home
from reefbench.envs.desktop.world import build_home, copy_world_into, home_world
from reefbench.errors import TaskLoadError
from reefbench.tasks.taskfile import task_from_dict

pytest.importorskip("PIL")
EXISTS = "reefbench.envs.desktop.evaluators:file_exists"


@pytest.fixture(autouse=True)
def world_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    root = tmp_path_factory.getbasetemp() / "desktop-world-cache"
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(CACHE_ENV, str(root))
        yield root


def _hashes(root: Path) -> dict[str, tuple[str, int]]:
    return {
        str(p.relative_to(root)): (hashlib.sha256(p.read_bytes()).hexdigest(), p.stat().st_mtime_ns)
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


def test_the_same_seed_gives_the_same_files_and_another_seed_others(tmp_path: Path) -> None:
    build_home(5, tmp_path / "a")
    build_home(5, tmp_path / "b")
    build_home(6, tmp_path / "c")
    first, again, other = (_hashes(tmp_path / n) for n in "abc")
    assert first == again
    assert first != other


def test_the_home_has_200_files_in_nested_folders_with_look_alikes() -> None:
    root = home_world(7)
    files = [p.relative_to(root) for p in root.rglob("*") if p.is_file()]
    assert len(files) >= 200
    assert max(len(p.parts) for p in files) >= 4  # nested folders
    suffixes = {p.suffix for p in files}
    assert {".pdf", ".csv", ".txt", ".jpg", ".png", ".md"} <= suffixes
    downloads = {p.name for p in files if p.parts[0] == "Downloads"}
    assert {"invoice_2026-03.pdf", "invoice_2026-03 (1).pdf"} <= downloads
    invoices = [p for p in files if p.name.startswith("invoice_2026-02")]
    assert len(invoices) >= 5  # the same name under several vendors


def test_images_and_pdfs_are_real() -> None:
    from PIL import Image

    root = home_world(7)
    photo = next(root.glob("Pictures/Holidays/*/IMG_*.jpg"))
    with Image.open(photo) as image:
        assert image.format == "JPEG" and image.size == (160, 120)
    pdf = next(root.glob("Documents/Invoices/*/invoice_*.pdf")).read_bytes()
    assert pdf.startswith(b"%PDF-1.4") and pdf.rstrip().endswith(b"%%EOF")
    assert b"Billing period" in pdf


def test_loading_copies_over_the_baseline_and_a_restore_removes_it(tmp_path: Path) -> None:
    baseline = build_baseline(tmp_path / "baseline")
    home = tmp_path / "home"
    home.mkdir()
    restore_home(home, baseline)
    copy_world_into(home, 7)
    world = _hashes(home_world(7))
    loaded = _hashes(home)
    assert all(loaded[rel] == value for rel, value in world.items())
    assert (home / ".config" / "gtk-3.0" / "settings.ini").is_file()  # the baseline stays
    (home / "Downloads" / "invoice_2026-03.pdf").unlink()  # an episode changes it
    (home / "Documents" / "Letters").rename(home / "Documents" / "Old letters")
    restore_home(home, baseline)
    assert not (home / "Documents" / "Old letters").exists()
    copy_world_into(home, 7)
    assert _hashes(home) == loaded


def test_a_bad_seed_in_a_task_file_is_a_one_line_error() -> None:
    data = {
        "schema_version": 1,
        "id": "home-bad",
        "instruction": "Open the newest invoice.",
        "nodes": {"a": {"evaluator": EXISTS, "args": {"path": "x"}}},
        "setup": [{"env": "laptop", "action": "reefbench.envs.desktop.setup:load_world",
                   "args": {"seed": -3}}],
    }  # fmt: skip
    with pytest.raises(TaskLoadError) as info:
        task_from_dict(data)
    assert "\n" not in str(info.value) and "setup[0].args" in str(info.value)


def test_another_process_with_another_hash_seed_builds_the_same_files(tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    build_home(11, tmp_path / "here")
    code = "import sys, pathlib; from reefbench.envs.desktop.world import build_home; "
    code += "build_home(11, pathlib.Path(sys.argv[1]))"
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    there = tmp_path / "there"
    subprocess.run([sys.executable, "-c", code, str(there)], env=env, check=True, timeout=120)
    assert _hashes(tmp_path / "here") == _hashes(there)
