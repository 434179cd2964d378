"""Moderation: bans, reports, the audit log, and their store."""
