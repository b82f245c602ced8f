"""Mechanics with no benchmark concepts, one implementation each.

Waiting on a condition with a deadline (:mod:`.waiting`), serving an ASGI app from a
background thread (:mod:`.net`) and reading the files a user hands in (:mod:`.userfiles`).
They import nothing of reefbench but its errors.
"""
