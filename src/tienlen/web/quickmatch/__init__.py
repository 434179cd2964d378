"""Quick match's queue: who waits to be seated, in the database."""
