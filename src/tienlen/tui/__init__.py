"""The terminal game (``tienlen play``) and the record viewer (``tienlen replay``), on Textual.

Needs the ``tui`` extra: ``pip install -e '.[tui]'``.
"""
