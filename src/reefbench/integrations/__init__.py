"""Bridges to other tools' ecosystems, each behind its own extra and imported only by
the tool that wants it: Inspect AI (:mod:`.inspect_tasks`, the ``inspect`` extra)."""
