"""A designer's tools around the pipeline: the preview page, watching files, a new game."""
