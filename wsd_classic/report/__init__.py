"""Comparison tables (and, in ``bin/report``, pictures) from saved results."""
