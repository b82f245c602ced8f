"""Reports: tables and (later) HTML for runs."""

from reefbench.report.table import summary_table

__all__ = ["summary_table"]
