"""Played hands: replays, reviews, and the row a finished hand leaves per player."""
