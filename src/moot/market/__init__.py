"""The market format's data layer."""
