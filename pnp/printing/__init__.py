"""Putting faces on paper: imposition (pages, slots, crop marks), the PDF renderer, images
passed into the PDF as they are, PNG and Tabletop Simulator exports."""
