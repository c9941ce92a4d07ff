"""Reading a game: YAML with positions (yamlio), the format as typed dataclasses (model, schema),
loading a content root (load), the files a game refers to (assets)."""
