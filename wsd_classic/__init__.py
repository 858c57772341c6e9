"""wsd-classic: the reference classical supervised word sense disambiguation system."""

__version__ = "0.1.0"
