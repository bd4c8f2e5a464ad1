#!/usr/bin/env python3
"""reader_json.py - what c2pa-python's Reader reports about a file, for lensd's report tests.

Usage:
  reader_json.py FILE (--crjson | --manifest-json) [--trust-anchor PEM]...

Prints Reader.crjson() (the C2PA JSON report) or Reader.json() (the manifest-store JSON) of FILE,
read as c2pa_verdict.py reads it (trust anchors as given, no remote fetch, no OCSP fetch).
Exit 1 with a message when c2pa-python cannot read the file.
"""
import argparse
import sys
import warnings

from c2pa_verdict import sniff_format


def read(path, anchors, crjson):
    """Reader.crjson() (crjson) or Reader.json() of the file at `path`, trusting the PEM files `anchors`."""
    warnings.simplefilter("ignore")
    import c2pa
    settings = {"verify": {"verify_trust": True, "remote_manifest_fetch": False, "ocsp_fetch": False}}
    pem = "".join(open(p, encoding="utf-8").read().strip() + "\n" for p in anchors)
    if pem:
        settings["trust"] = {"trust_anchors": pem}
    with open(path, "rb") as f:
        reader = c2pa.Reader(sniff_format(path), f, context=c2pa.Context.from_dict(settings))
        return reader.crjson() if crjson else reader.json()


def main(argv=None):
    ap = argparse.ArgumentParser(description="c2pa-python Reader JSON")
    ap.add_argument("file")
    mode = ap.add_mutually_exclusive_group(required=True)
    mode.add_argument("--crjson", action="store_true")
    mode.add_argument("--manifest-json", action="store_true")
    ap.add_argument("--trust-anchor", action="append", default=[], metavar="PEM")
    args = ap.parse_args(argv)
    try:
        print(read(args.file, args.trust_anchor, args.crjson))
    except Exception as e:  # noqa: BLE001 - C2paError subclasses, OSError
        print(f"reader_json.py: {type(e).__name__}: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
