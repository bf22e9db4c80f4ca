"""Players that decide from a seat's view only."""
