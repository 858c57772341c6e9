"""Writers (and readers) of system answers in the formats the official scorers take."""
