"""The HTTP routes, one router per job: the page (``pages``), the lobby's API (``lobby``), the
stored records and replays (``records``). Each reaches the server's state through
:data:`~..services.Svc`; :func:`~..app.create_app` includes them in this order."""
