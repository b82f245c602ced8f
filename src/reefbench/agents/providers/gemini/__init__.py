"""Gemini: chat completions (:mod:`.chat`) and the native computer-use interface
(:mod:`.computer_use`) side by side, one SDK client (:mod:`.client`).

Importing this package imports no SDK; :mod:`reefbench.agents.providers.registry` registers
both.
"""
