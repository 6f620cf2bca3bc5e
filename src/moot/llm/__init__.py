"""The model layer: every model call goes through here and nowhere else."""
