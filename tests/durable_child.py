"""A debate that kills itself: run by tests/test_durable.py in a child process.

    python tests/durable_child.py run ID KILL_AFTER SIGNAL [--max-tokens N]
    python tests/durable_child.py resume ID KILL_AFTER SIGNAL

Runs (or resumes) a stored debate on ``scripted:demo`` with seed 7 in ``$MOOT_HOME``
(``$MOOT_CHILD_MODEL`` names another model; ``$MOOT_CHILD_OPTIONS``, a JSON object,
adds run options such as ``{"format": "freeform"}``) and sends itself SIGNAL (KILL or
INT) once KILL_AFTER calls have been *sent to the model* in this process (replayed
calls do not count; 0 means never). Prints one JSON line: the live calls this process
made and, if the debate finished, the result.
"""

from __future__ import annotations

import json
import os
import signal
import sys

from moot.debate import resume_debate, run_debate
from moot.events import CallFinished, Event
from moot.store import Store

TOPIC = "Should a 10-person startup adopt microservices from day one?"


def main() -> None:
    command, debate_id, kill_after, sig = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
    live = 0

    def listener(event: Event) -> None:
        nonlocal live
        if isinstance(event, CallFinished) and event.source == "live":
            live += 1
            if kill_after and live == kill_after:
                os.kill(os.getpid(), signal.SIGKILL if sig == "KILL" else signal.SIGINT)

    store = Store()
    try:
        if command == "run":
            result = run_debate(
                TOPIC,
                model=os.environ.get("MOOT_CHILD_MODEL", "scripted:demo"),
                seed=7,
                store=store,
                debate_id=debate_id,
                on_event=listener,
                **json.loads(os.environ.get("MOOT_CHILD_OPTIONS", "{}")),
            )
        else:
            result = resume_debate(debate_id, store=store, on_event=listener)
    except KeyboardInterrupt:
        print(json.dumps({"live": live, "interrupted": True}))
        sys.exit(130)
    print(json.dumps({"live": live, "result": json.loads(result.model_dump_json())}))


if __name__ == "__main__":
    main()
