"""Bots: players that choose from their view and the legal actions only."""
