"""``reef play``: a person plays a task in a web page, recorded as the agent ``human``.

:mod:`.session` runs the episode (the same :class:`~reefbench.episodes.episode.Episode` as
``reef run``, through :class:`~reefbench.episodes.bridge.EpisodeDriver`) and stores it in a
run directory; :mod:`.gestures` turns clicks, drags, scrolls and typing on a device's view
into the device's own coordinate actions (the ``pixels`` action set); :mod:`.server` is
the page. Nothing here is imported by ``import reefbench``.
"""
