"""``python -m tienlen``: the ``tienlen`` command, for a shell where it is not on the path."""

from .cli import main

raise SystemExit(main())
