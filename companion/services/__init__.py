"""Services: the only layer that commits; turns requests into engine calls and storage."""
