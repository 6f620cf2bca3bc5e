"""``python -m moot``: the same as the ``moot`` command."""

from moot.cli import main

# guarded: a process that ``moot lint`` starts (multiprocessing's spawn) imports this
# module again and must not run the command a second time
if __name__ == "__main__":
    main()
