"""Judging: rubrics, the judge, and (later) panels and agreement statistics."""
