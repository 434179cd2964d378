"""Play in the browser: ``tienlen serve`` (FastAPI, WebSockets, SQLAlchemy storage, a static page).

Needs the ``web`` extra (``pip install -e '.[web]'``); the engine does not.
"""
