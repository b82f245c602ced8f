"""LibreOffice, headless, as the tests' converter: the readers are proven on the files
LibreOffice really writes (an ODF built with odfpy, re-saved or exported by soffice), not
only on what the format libraries write themselves."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

SOFFICE = shutil.which("soffice")

Convert = Callable[[list[Path], str], list[Path]]


@pytest.fixture(scope="session")
def soffice_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A private home and profile (``-env:UserInstallation``) for the whole run: a
    running LibreOffice of the user or of another test is neither used nor disturbed, and
    the profile is created once, by the first conversion."""
    if SOFFICE is None:
        pytest.skip("needs LibreOffice (soffice)")
    return tmp_path_factory.mktemp("soffice")


@pytest.fixture(scope="module")
def convert(soffice_home: Path) -> Convert:
    """``convert(files, "xlsx")``: the files as LibreOffice saves them in that format,
    one soffice process per call (conversions run one after another, never sharing the
    profile at the same time)."""
    home = soffice_home

    def run(files: list[Path], fmt: str) -> list[Path]:
        out = home / f"out-{fmt}-{files[0].stem}"
        out.mkdir(exist_ok=True)
        command = [
            str(SOFFICE),
            f"-env:UserInstallation=file://{home}/profile",
            "--headless",
            "--norestore",
            "--convert-to",
            fmt,
            "--outdir",
            str(out),
            *map(str, files),
        ]
        env = {"HOME": str(home), "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"}
        subprocess.run(command, env=env, capture_output=True, timeout=120, check=True)
        made = [out / f"{f.stem}.{fmt.split(':')[0]}" for f in files]
        missing = [m.name for m in made if not m.is_file()]
        assert not missing, f"soffice did not write {missing}"
        return made

    return run
