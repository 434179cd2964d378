"""Identities, sessions (the cookie), accounts, passwords, names and profiles."""
