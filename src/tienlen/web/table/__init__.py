"""The authoritative table: its state, log, hands, snapshot and clock, what it
staged, and the committer that stores every table's writes. No sockets, no HTTP."""
