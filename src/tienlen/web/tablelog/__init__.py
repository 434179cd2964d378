"""What tables leave in the database: their settings, seats, log, snapshots and finished hands'
records (``rows.py``), the values a table writes and is rebuilt from (``writes.py``), and the
:class:`~.repository.Repository` that stores and reads them.

Below the table that writes it (``table/``) and below the features that read what tables leave
behind: an account's profile joins its played hands to their records and tables, a deleted
account's records are rewritten (``accounts/``), a table's rating family is read from its
settings (``ratings/``). Folded into ``table/`` it would sit above them, and they could not
reach it.
"""
