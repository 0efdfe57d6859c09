"""The CLI commands, one module per area; each defines `register(app)`."""
