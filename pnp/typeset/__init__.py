"""Laying out one face: fonts, text markup and fitting, templates, and the face engine that turns
a card's layout into drawing operations."""
