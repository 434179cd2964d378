"""The authoritative table: its state, log, hands, snapshot, clock and driver. No sockets, no HTTP."""
