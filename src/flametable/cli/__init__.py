"""The terminal interface: Typer commands, rich rendering, translations (see ``locale/``)."""
