#!/usr/bin/env python3
"""c2pa_verdict.py - the reference C2PA validator for lensd's tests (c2pa-python / c2pa-rs).

Usage:
  c2pa_verdict.py FILE [--trust-anchor PEM]... [--require-trusted] [--format MIME]
  c2pa_verdict.py --serve   one verdict per line of stdin (oracle_serve.py: a JSON list, the
                            arguments above), answered by one line: the exit code, a space, the
                            JSON object (one fresh c2pa Context and Reader each time; the tests
                            keep one process rather than import c2pa-python ~1000 times)

Prints ONE JSON object on stdout (always the same keys):
  validation_state      "Trusted" | "Valid" | "Invalid" | null (no manifest / error)
  success, informational  [code, ...]      (validation_results.activeManifest)
  failure               [{"code", "explanation", "url"}, ...]
  ingredient_failures   [code, ...]  failures in validation_results.ingredientDeltas, flattened
  claim_version, claim_generator_info, signature_info, active_manifest
  assertion_labels      labels Reader.json() shows (hard binding / thumbnail hidden)
  claim_assertions      every label the claim references (created/gathered/assertions)
  metadata              {label: data} for every *.metadata assertion
  actions               [{"action", "when", "digitalSourceType"}, ...]
  thumbnail             thumbnail identifier or null
  hard_binding          {label: map} for c2pa.hash.* (from detailed_json; bytes as hex)
  error                 null, or the error text (exit 2 / 3)

Exit codes: 0 validates (Valid or Trusted; only Trusted with --require-trusted),
1 does not validate, 2 no manifest, 3 any other error.

Trust: the anchors' PEM text goes to c2pa.Context.from_dict({"trust": {"trust_anchors": ...},
"verify": {"verify_trust": true, "remote_manifest_fetch": false, "ocsp_fetch": false}}).
With no --trust-anchor nothing is trusted (best case is "Valid").
"""
import argparse
import base64
import binascii
import json
import re
import sys
import warnings

from oracle_serve import serve

EXIT_OK, EXIT_INVALID, EXIT_NO_MANIFEST, EXIT_ERROR = 0, 1, 2, 3

HARD_BINDING = re.compile(r"^c2pa\.hash\.(data|bmff|boxes|collection\.data|multi-asset)(\.v\d+)?(__\d+)?$")
METADATA = re.compile(r"\.metadata(__\d+)?$")
ACTIONS = re.compile(r"^c2pa\.actions(\.v\d+)?(__\d+)?$")
BYTE_KEYS = {"hash", "pad", "pad2", "value", "hashes"}


def skeleton(path):
    return {
        "file": path, "validation_state": None, "success": [], "informational": [],
        "failure": [], "ingredient_failures": [], "active_manifest": None, "claim_version": None,
        "claim_generator_info": None, "signature_info": None, "assertion_labels": [],
        "claim_assertions": [], "metadata": {}, "actions": [], "thumbnail": None,
        "hard_binding": {}, "error": None,
    }


def b64_to_hex(v):
    """detailed_json renders CBOR byte strings as standard base64; turn them into hex."""
    if isinstance(v, str):
        try:
            return base64.b64decode(v, validate=True).hex()
        except (binascii.Error, ValueError):
            return v
    if isinstance(v, list):
        return [b64_to_hex(x) for x in v]
    return v


def bytes_as_hex(obj):
    if isinstance(obj, dict):
        return {k: (b64_to_hex(v) if k in BYTE_KEYS and not isinstance(v, dict) else bytes_as_hex(v))
                for k, v in obj.items()}
    if isinstance(obj, list):
        return [bytes_as_hex(x) for x in obj]
    return obj


def sniff_format(path):
    try:
        with open(path, "rb") as f:
            head = f.read(12)
    except OSError:
        return None
    if head[:2] == b"\xff\xd8":
        return "image/jpeg"
    if head[4:8] == b"ftyp":
        return "video/mp4"
    if head[:8] == b"\x89PNG\r\n\x1a\n":
        return "image/png"
    return None


def summarize(out, reader):
    store = json.loads(reader.json())
    label = store.get("active_manifest")
    active = (store.get("manifests") or {}).get(label, {}) if label else {}
    out["active_manifest"] = label
    out["validation_state"] = store.get("validation_state")

    am = ((store.get("validation_results") or {}).get("activeManifest")) or {}
    out["success"] = [s.get("code") for s in am.get("success") or []]
    out["informational"] = [s.get("code") for s in am.get("informational") or []]
    failures = am.get("failure")
    if failures is None:  # no per-manifest results: fall back to the flat status list
        failures = store.get("validation_status") or []
    out["failure"] = [{"code": s.get("code"), "explanation": s.get("explanation"),
                       "url": s.get("url")} for s in failures]

    out["ingredient_failures"] = [s.get("code") for d in (store.get("validation_results") or {}).get("ingredientDeltas") or []
                                  for s in (d.get("validationDeltas") or {}).get("failure") or []]

    out["claim_version"] = active.get("claim_version")
    out["claim_generator_info"] = active.get("claim_generator_info")
    out["signature_info"] = active.get("signature_info")
    out["thumbnail"] = (active.get("thumbnail") or {}).get("identifier")
    for a in active.get("assertions") or []:
        lab = a.get("label", "")
        out["assertion_labels"].append(lab)
        if METADATA.search(lab):
            out["metadata"][lab] = a.get("data")
        if ACTIONS.match(lab):
            for act in (a.get("data") or {}).get("actions") or []:
                out["actions"].append({"action": act.get("action"), "when": act.get("when"),
                                       "digitalSourceType": act.get("digitalSourceType")})

    try:
        detailed = json.loads(reader.detailed_json())
    except Exception:  # noqa: BLE001 - detailed view is best effort
        detailed = {}
    dm = ((detailed.get("manifests") or {}).get(label) or {}) if label else {}
    claim = dm.get("claim") or {}
    for key in ("created_assertions", "gathered_assertions", "assertions"):
        for h in claim.get(key) or []:
            out["claim_assertions"].append(h.get("url", "").rsplit("/", 1)[-1])
    for k, v in (dm.get("assertion_store") or {}).items():
        if HARD_BINDING.match(k):
            out["hard_binding"][k] = bytes_as_hex(v)


def verdict(argv):
    """(exit code, the JSON object) for one command line."""
    ap = argparse.ArgumentParser(description="reference C2PA verdict (c2pa-python)")
    ap.add_argument("file")
    ap.add_argument("--trust-anchor", action="append", default=[], metavar="PEM",
                    help="PEM file with trust anchor certificate(s); repeatable")
    ap.add_argument("--require-trusted", action="store_true")
    ap.add_argument("--format", help="MIME type (default: sniffed from the bytes)")
    args = ap.parse_args(argv)
    out = skeleton(args.file)

    def finish(code, error=None):
        out["error"] = error
        return code, out

    warnings.simplefilter("ignore")
    try:
        import c2pa
    except ImportError as e:
        return finish(EXIT_ERROR, f"cannot import c2pa-python: {e}")

    try:
        pem = "".join(open(p, encoding="utf-8").read().strip() + "\n" for p in args.trust_anchor)
        settings = {"verify": {"verify_trust": True, "remote_manifest_fetch": False,
                               "ocsp_fetch": False}}
        if pem:
            settings["trust"] = {"trust_anchors": pem}
        ctx = c2pa.Context.from_dict(settings)
        fmt = args.format or sniff_format(args.file)
        if fmt:
            with open(args.file, "rb") as f:
                reader = c2pa.Reader(fmt, f, context=ctx)
                summarize(out, reader)
        else:
            reader = c2pa.Reader(args.file, context=ctx)
            summarize(out, reader)
        try:
            reader.close()
        except Exception:  # noqa: BLE001
            pass
    except c2pa.C2paError.ManifestNotFound as e:
        return finish(EXIT_NO_MANIFEST, str(e) or "ManifestNotFound")
    except Exception as e:  # noqa: BLE001 - C2paError subclasses, OSError, JSON errors
        msg = f"{type(e).__name__}: {e}"
        no_manifest = "ManifestNotFound" in msg or "no JUMBF" in msg
        return finish(EXIT_NO_MANIFEST if no_manifest else EXIT_ERROR, msg)

    state = out["validation_state"]
    ok = state == "Trusted" if args.require_trusted else state in ("Valid", "Trusted")
    return finish(EXIT_OK if ok else EXIT_INVALID)


def served_verdict(argv):
    try:
        return verdict(argv)
    except SystemExit as e:  # argparse refused the arguments
        return EXIT_ERROR, {"error": f"bad arguments (exit {e.code})"}


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if argv == ["--serve"]:
        return serve(served_verdict)
    code, out = verdict(argv)
    print(json.dumps(out, indent=1, default=str))
    return code


if __name__ == "__main__":
    sys.exit(main())
