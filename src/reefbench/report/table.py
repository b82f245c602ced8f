"""The CRAB Table 3 layout as a terminal table (rich)."""

from __future__ import annotations

from collections.abc import Mapping

from rich.table import Table

from reefbench.episodes.metrics import Summary


def _pct(value: float | None) -> str:
    return "n/a" if value is None else f"{100 * value:.2f}"


def summary_table(rows: Mapping[str, Summary], title: str = "Results") -> Table:
    """One row per agent setting: SR, CR, EE, CE, CR_w, LC, AE and termination shares (%)."""
    table = Table(title=title)
    for column in (
        "setting",
        "n",
        "SR%",
        "95% CI",
        "CR%",
        "EE%",
        "CE",
        "CR_w%",
        "LC%",
        "AE",
        "FC%",
        "RSL%",
        "IA%",
        "SE%",
        "infra",
    ):
        table.add_column(column, justify="left" if column == "setting" else "right")
    for name, s in rows.items():
        t = s.terminations
        table.add_row(
            name,
            str(s.episodes),
            _pct(s.sr),
            f"{_pct(s.sr_ci[0])}–{_pct(s.sr_ci[1])}",
            _pct(s.cr),
            _pct(s.ee),
            "n/a" if s.ce is None else f"{s.ce:.2e}",
            _pct(s.cr_w),
            _pct(s.lc),
            "n/a" if s.ae is None else f"{s.ae:.1f}",
            _pct(t.get("false_completion", 0.0)),
            _pct(t.get("step_limit", 0.0)),
            _pct(t.get("invalid_action", 0.0)),
            _pct(s.side_effects),
            str(s.infrastructure),
        )
    return table
