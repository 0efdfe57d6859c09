"""Learn by playing: short lessons, each a real position of a game with one thing to do (issue 36)."""
