"""The one process pool: bot decisions, reviews and records' work."""
