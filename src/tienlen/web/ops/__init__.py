"""The server's operations surface: its figures at ``/metrics`` (``metrics.py``), its health at
``/healthz`` (``health.py``), its logs as JSON lines (``logs.py``), the options of
``tienlen serve`` that set them (``options.py``) and the name this process goes by
(``process.py``). The routes are in ``routes/ops.py``; docs/web.md, "Running the server", says
what an operator gets."""
