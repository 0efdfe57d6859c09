"""Benchmarks that print a table and write JSON: engine speed, server load."""
