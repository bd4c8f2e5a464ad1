"""oracle_serve.py - the --serve loop of the oracle scripts (LensTestSupport's OracleServer).

Each line of stdin is a JSON list, a command line of the script; each answer is one line: the exit
code that command line would give, a space, its answer as JSON.
"""
import json
import sys


def serve(answer):
    """Answers every request on stdin with answer(arguments) -> (exit code, JSON-able answer)."""
    for line in sys.stdin:
        code, out = answer(json.loads(line))
        print(code, json.dumps(out, default=str), flush=True)
    return 0
