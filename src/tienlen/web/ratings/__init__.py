"""Ratings: the model, its store and the bots' anchors."""
