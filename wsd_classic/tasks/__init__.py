"""End-to-end jobs: train, tag and score a task."""
