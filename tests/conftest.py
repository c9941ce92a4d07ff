"""pytest configuration: helpers live in tests/helpers.py."""
