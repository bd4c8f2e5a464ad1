#!/usr/bin/env python3
"""json_schema_check.py - validates lensctl's --json output against docs/schemas/ with jsonschema
(Draft 2020-12), every schema checked and loaded into one registry so their cross-references resolve.

Usage:
  json_schema_check.py SCHEMA_DIR SCHEMA_ID lines|document FILE
      prints the validator's errors, or "N valid"; exits 0 when every document of FILE (one, or
      one per line with `lines`: JSON Lines) is valid, 1 when one is not or there is none, 2 when
      there is no answer (a broken schema, unreadable JSON)
  json_schema_check.py --serve   one check per line of stdin (oracle_serve.py), answered with
                                 {"report": the report}
"""
import functools
import json
import pathlib
import sys
import traceback

from jsonschema import Draft202012Validator
from referencing import Registry, Resource

from oracle_serve import serve


@functools.lru_cache
def load(directory):
    """Every schema of the directory, each checked, by $id, and the registry of them all: once per
    --serve process (a schema that does not check raises, and is not kept)."""
    schemas = [json.loads(p.read_text()) for p in sorted(pathlib.Path(directory).glob("*.schema.json"))]
    for schema in schemas:
        Draft202012Validator.check_schema(schema)
    registry = Registry().with_resources((s["$id"], Resource.from_contents(s)) for s in schemas)
    return {s["$id"]: s for s in schemas}, registry


def check(argv):
    directory, schema_id, mode, path = argv
    schemas, registry = load(directory)
    validator = Draft202012Validator(schemas[schema_id], registry=registry)
    text = pathlib.Path(path).read_text()
    documents = [json.loads(line) for line in text.splitlines() if line.strip()] if mode == "lines" else [json.loads(text)]
    errors = [f"{list(e.absolute_path)}: {e.message}" for d in documents for e in validator.iter_errors(d)]
    return (1 if errors or not documents else 0), ("\n".join(errors) if errors else f"{len(documents)} valid")


def answer(argv):
    try:
        return check(argv)
    except Exception:  # no answer: the caller shows why
        return 2, traceback.format_exc()


def served(argv):
    code, report = answer(argv)
    return code, {"report": report}


def main():
    if sys.argv[1:] == ["--serve"]:
        return serve(served)
    code, report = answer(sys.argv[1:])
    print(report)
    return code


if __name__ == "__main__":
    sys.exit(main())
