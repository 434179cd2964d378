"""The directory of open tables."""
