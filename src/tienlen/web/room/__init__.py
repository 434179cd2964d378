"""A table's live connections: the room, its protocol, views, deltas, chat and the bot ladder it offers."""
