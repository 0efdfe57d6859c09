"""ghostgames: three ghost games (Ghooost!, Geister, The Last) as exact seeded rules, bots and a table server."""

__version__ = "0.1.0"
