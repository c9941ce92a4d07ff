"""What every stage shares: errors, findings and the rule registry, units, safe file writes,
the run's state, process helpers. Imports nothing else of pnp."""
