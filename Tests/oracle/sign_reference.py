#!/usr/bin/env python3
"""sign_reference.py - sign a JPEG or MP4 with c2pa-python's Builder (the reference writer).

Usage:
  sign_reference.py IN OUT --key PEM --chain PEM [--alg es256|es384] [--thumbnail]
                    [--claim-version 1|2] [--title T] [--when RFC3339] [--callback]
                    [--format MIME] [--tsa-url URL] [--parent SIGNED [--update]]

The manifest holds, all in created_assertions (v2) / assertions (v1):
  c2pa.actions.v2  [{action: c2pa.created, when, digitalSourceType: digitalCapture}]
  c2pa.metadata    JSON-LD with exif:GPSLatitude / exif:GPSLongitude / exif:GPSAltitude
  c2pa.hash.data   (added by c2pa-rs; c2pa.hash.bmff.v3 for MP4)
  c2pa.thumbnail.claim only with --thumbnail (settings builder.thumbnail.enabled).
--claim-version 1 sets the manifest definition's "claim_version": 1 (c2pa.claim, urn:uuid:).
--key is a PKCS#8 PEM ("BEGIN PRIVATE KEY"); --chain is leaf first, then intermediates.
--alg takes every algorithm C2PA lists (es256/384/512, ps256/384/512, ed25519); the key must match.
--tsa-url has c2pa-rs fetch an RFC 3161 time-stamp (sigTst2) from that TSA while signing.
--parent adds SIGNED as the parentOf ingredient (its manifest nested in the store) and makes
the action c2pa.opened on it; with --update the new manifest is an update manifest (intent
UPDATE: no actions or metadata of its own, no hard binding).
--callback signs through Signer.from_callback with the `cryptography` package (raw r||s)
instead of C2paSignerInfo. --format defaults to the type sniffed from IN's bytes. Prints OUT. Exit 1 with a message on failure.
"""
import argparse
import datetime
import sys
import warnings

DIGITAL_CAPTURE = "http://cv.iptc.org/newscodes/digitalsourcetype/digitalCapture"


def manifest_definition(args):
    when = args.when or datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    if args.parent:
        if args.update:
            return {"claim_generator_info": [{"name": "sign_reference", "version": "1.0"}], "assertions": []}
        return {
            "claim_generator_info": [{"name": "sign_reference", "version": "1.0"}],
            "title": args.title,
            "assertions": [{"label": "c2pa.actions.v2",
                            "data": {"actions": [{"action": "c2pa.opened", "when": when,
                                                  "parameters": {"ingredientIds": ["parent"]}}]}}],
        }
    m = {
        "claim_generator_info": [{"name": "sign_reference", "version": "1.0"}],
        "title": args.title,
        "assertions": [
            {"label": "c2pa.actions.v2",
             "data": {"actions": [{"action": "c2pa.created", "when": when,
                                   "digitalSourceType": DIGITAL_CAPTURE}]}},
            {"label": "c2pa.metadata",
             "data": {"@context": {"exif": "http://ns.adobe.com/exif/1.0/"},
                      "exif:GPSLatitude": "52,31.200480N",
                      "exif:GPSLongitude": "13,24.297240E",
                      "exif:GPSAltitude": "3450/100"}},
        ],
    }
    if args.claim_version == 1:
        m["claim_version"] = 1
    return m


def callback_signer(c2pa, key_pem, chain_pem, alg):
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature

    key = serialization.load_pem_private_key(key_pem, password=None)
    digest, size = (hashes.SHA256(), 32) if alg == "es256" else (hashes.SHA384(), 48)

    def sign(data: bytes) -> bytes:
        r, s = decode_dss_signature(key.sign(data, ec.ECDSA(digest)))
        return r.to_bytes(size, "big") + s.to_bytes(size, "big")  # COSE wants r||s, not DER

    enum = c2pa.C2paSigningAlg.ES256 if alg == "es256" else c2pa.C2paSigningAlg.ES384
    return c2pa.Signer.from_callback(sign, enum, chain_pem.decode(), None)


def main(argv=None):
    ap = argparse.ArgumentParser(description="sign a JPEG with c2pa-python")
    ap.add_argument("input")
    ap.add_argument("output")
    ap.add_argument("--key", required=True, help="PKCS#8 PEM private key")
    ap.add_argument("--chain", required=True, help="PEM chain: leaf, then intermediates")
    ap.add_argument("--alg", choices=["es256", "es384", "es512", "ps256", "ps384", "ps512", "ed25519"],
                    default="es256")
    ap.add_argument("--thumbnail", action="store_true", help="embed a thumbnail (default off)")
    ap.add_argument("--claim-version", type=int, choices=[1, 2], default=2)
    ap.add_argument("--title", default="photo.jpg")
    ap.add_argument("--when", help="c2pa.created 'when' (default: now, UTC)")
    ap.add_argument("--callback", action="store_true",
                    help="sign via Signer.from_callback + cryptography")
    ap.add_argument("--format", help="MIME type (default: sniffed from IN's bytes)")
    ap.add_argument("--tsa-url", help="RFC 3161 time-stamp authority to stamp the signature")
    ap.add_argument("--parent", help="signed file to add as the parentOf ingredient")
    ap.add_argument("--update", action="store_true", help="with --parent: an update manifest")
    args = ap.parse_args(argv)
    if args.update and not args.parent:
        ap.error("--update needs --parent")

    warnings.simplefilter("ignore")
    try:
        import c2pa
        from c2pa_verdict import sniff_format

        key = open(args.key, "rb").read()
        chain = open(args.chain, "rb").read()
        settings = {
            "builder": {
                "thumbnail": {"enabled": bool(args.thumbnail)},
                # a camera attests its own actions and metadata: created, not gathered
                "created_assertion_labels": ["c2pa.actions", "c2pa.metadata"],
            },
            "verify": {"verify_after_sign": False, "remote_manifest_fetch": False,
                       "ocsp_fetch": False},
        }
        ctx = c2pa.Context.from_dict(settings)
        if args.callback:
            signer = callback_signer(c2pa, key, chain, args.alg)
        else:
            signer = c2pa.Signer.from_info(
                c2pa.C2paSignerInfo(args.alg.encode(), chain, key,
                                    args.tsa_url.encode() if args.tsa_url else None))
        builder = c2pa.Builder(manifest_definition(args), context=ctx)
        fmt = args.format or sniff_format(args.input) or "image/jpeg"
        if args.parent:
            if args.update:
                builder.set_intent(c2pa.C2paBuilderIntent.UPDATE)
            with open(args.parent, "rb") as parent:
                builder.add_ingredient({"title": "parent", "relationship": "parentOf", "label": "parent"},
                                       sniff_format(args.parent) or fmt, parent)
        with open(args.input, "rb") as src, open(args.output, "w+b") as dst:
            builder.sign(signer, fmt, src, dst)
    except Exception as e:  # noqa: BLE001
        try:
            import os
            os.remove(args.output)
        except OSError:
            pass
        print(f"sign_reference.py: signing failed: {type(e).__name__}: {e}", file=sys.stderr)
        return 1
    print(args.output)
    return 0


if __name__ == "__main__":
    sys.exit(main())
