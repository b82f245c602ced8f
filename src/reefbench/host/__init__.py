"""The machine reefbench runs on: the programs it needs and ``reef doctor``.

:mod:`.system_packages` declares every program (its Debian package and who needs it);
:mod:`.doctor` reports what this machine has and is missing. The doctor is an entry point
(it reads the providers and devices); the declarations import nothing.
"""
