"""Dealing: the seeded counter-based dealer and the validation of hands a user types."""
