"""Whole games: auction, exchange, surrender, card play and scoring, dealt one after another to the target."""
