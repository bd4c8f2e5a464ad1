#!/usr/bin/env python3
"""conformance_rubric.py - the C2PA Conformance Program's asset rubric, as lensd's test oracle.

Usage:
  conformance_rubric.py FILE [--trust-anchor PEM]... [--spec-version 2.4]

Reads FILE's crJSON as c2pa-python's Reader writes it (reader_json.py) and checks the
statements of the program's rubric `asset-rubric-conformance0.2-spec2.4.yml`
(c2pa-org/conformance-public, asset-rubrics/, release 1.0 of 2026-08-06) on the active manifest
(crJSON manifests[0]), each function below named after the statement id it renders, plus two
inception/transformation signals of `asset-rubric-signals-local.yml` on every manifest.
Written from the rubric's statements, not from its evaluator (which needs json-formula).

Prints ONE JSON object:
  statements  {id: {"value": true | false | "warn", "matches": [...]}}  (rubric order)
  failed      [id, ...]   statements whose value is false
  signals     [{"label", "capturedMedia" b, "ambiguousActions" b}, ...]  per manifest
  error       null, or why the file could not be read
Exit codes: 0 every statement true (warnings allowed), 1 some statement false, 3 unreadable.
"""
import argparse
import json
import sys

from reader_json import read

IPTC = "http://cv.iptc.org/newscodes/digitalsourcetype/"
INCEPTION_ACTIONS = ["c2pa.created", "c2pa.opened"]
NON_EDITORIAL_ACTIONS = ["c2pa.converted", "c2pa.published", "c2pa.repackaged", "c2pa.transcoded",
                         "c2pa.resized.proportional", "c2pa.enhanced", "c2pa.edited.metadata", "c2pa.watermarked",
                         "c2pa.watermarked.bound", "c2pa.watermarked.unbound", "c2pa.redacted"]
DST_EXEMPT_PERCEPTIBLE_ACTIONS = ["c2pa.placed"]
WELL_FORMED_ERROR_CODES = [
    "assertion.action.malformed", "assertion.bmffHash.malformed", "assertion.boxesHash.malformed",
    "assertion.collectionHash.malformed", "assertion.dataHash.malformed", "assertion.external-reference.malformed",
    "assertion.external-reference.labelMismatch", "assertion.external-reference.created", "assertion.ingredient.malformed",
    "assertion.alternativeContentRepresentation.malformed", "assertion.alternativeContentRepresentation.missing",
    "assertion.multiAssetHash.malformed", "assertion.cbor.invalid", "assertion.json.invalid", "claim.cbor.invalid",
    "claim.hardBindings.missing", "claim.malformed", "claim.missing", "claim.multiple", "hashedURI.missing",
    "ingredient.manifest.missing", "assertion.boxesHash.unknownBox", "assertion.multipleHardBindings",
    "manifest.compressed.invalid", "manifest.html.multipleManifests", "manifest.inaccessible",
    "manifest.multipleParents", "manifest.structuredText.emptyReference", "manifest.structuredText.malformedReference",
    "manifest.structuredText.multipleReferences", "manifest.structuredText.noManifest",
    "manifest.structuredText.noResolutionPath", "manifest.timestamp.invalid", "manifest.timestamp.wrongParents",
    "manifest.update.invalid", "manifest.update.wrongParents", "MISSING_VALIDATION_RESULTS"]
VALID_ERROR_CODES = [
    "assertion.action.ingredientMismatch", "assertion.action.redactionMismatch", "assertion.bmffHash.mismatch",
    "assertion.boxesHash.mismatch", "assertion.collectionHash.mismatch", "assertion.dataHash.mismatch",
    "assertion.external-reference.hashMismatch", "assertion.alternativeContentRepresentation.hashMismatch",
    "assertion.multiAssetHash.mismatch", "assertion.hashedURI.mismatch", "assertion.hardBinding.redacted",
    "hashedURI.mismatch", "ingredient.manifest.mismatch", "ingredient.claimSignature.missing",
    "ingredient.claimSignature.mismatch", "claimSignature.missing", "MISSING_VALIDATION_RESULTS"]
VALID_RELATIONSHIPS = ["parentOf", "inputTo", "componentOf"]
HUMAN_ENTRY_SOURCE_TYPES = ["humanEntry.anonymous", "humanEntry.credentialed"]
TIFF_MEDIA_TYPES = ["image/tiff", "image/x-adobe-dng"]
ALLOWED_ASSERTIONS = [
    "c2pa.hash.data", "c2pa.hash.data.part", "c2pa.actions.v2", "c2pa.ingredient.v3", "c2pa.hash.boxes",
    "c2pa.hash.bmff.v3", "c2pa.hash.collection.data", "c2pa.soft-binding", "c2pa.cloud-data", "c2pa.embedded-data",
    "c2pa.metadata", "c2pa.certificate-status", "c2pa.asset-ref", "c2pa.asset-type.v2", "c2pa.hash.multi-asset",
    "c2pa.thumbnail.claim", "c2pa.thumbnail.ingredient", "c2pa.depthmap.GDepth", "c2pa.icon",
    "c2pa.alternative-content-representation", "c2pa.external-reference", "c2pa.session-keys",
    "c2pa.environmental-sustainability", "c2pa.repository-receipt", "c2pa.ai-disclosure", "c2pa.assertion.metadata",
    "c2pa.time-stamp", "font.info"]
ALLOWED_ACTIONS = [
    "c2pa.addedText", "c2pa.adjustedColor", "c2pa.changedSpeed", "c2pa.color_adjustments", "c2pa.converted",
    "c2pa.created", "c2pa.cropped", "c2pa.deleted", "c2pa.drawing", "c2pa.dubbed", "c2pa.edited",
    "c2pa.edited.metadata", "c2pa.enhanced", "c2pa.filtered", "c2pa.mastered", "c2pa.mixed", "c2pa.opened",
    "c2pa.orientation", "c2pa.placed", "c2pa.published", "c2pa.redacted", "c2pa.remixed", "c2pa.removed",
    "c2pa.repackaged", "c2pa.resized", "c2pa.resized.proportional", "c2pa.transcoded", "c2pa.translated",
    "c2pa.trimmed", "c2pa.unknown", "c2pa.watermarked", "c2pa.watermarked.bound", "c2pa.watermarked.unbound"]
DEPRECATED_ASSERTIONS = ["c2pa.claim", "c2pa.hash.bmff.v2", "c2pa.asset-type", "c2pa.ingredient",
                         "c2pa.ingredient.v2", "c2pa.actions"]
DEPRECATED_ACTIONS = ["c2pa.copied", "c2pa.formatted", "c2pa.version_updated", "c2pa.printed", "c2pa.managed",
                      "c2pa.produced", "c2pa.saved", "c2pa.color_adjustments", "c2pa.watermarked"]
STANDARD_PARAMETERS = ["redacted", "ingredients", "ingredient", "description", "relatedAssertions", "sourceLanguage",
                       "targetLanguage", "multipleInstances", "ranges", "weight", "width", "italic", "slant",
                       "optical-size"]
CAPTURE_SOURCE_TYPES = [IPTC + "digitalCapture", IPTC + "computationalCapture"]


class Manifest:
    """The rubric's accessors (_manifest_* in its expressions) over one crJSON manifest."""

    def __init__(self, m):
        self.m = m
        self.assertions = m.get("assertions") or {}
        self.claim = m.get("claim.v2") or {}
        self.actions_assertion = self.assertions.get("c2pa.actions.v2")

    def actions(self):
        return [a for v in self.assertions.values() if isinstance(v, dict) and v.get("actions") is not None
                for a in v["actions"]]

    def values(self):
        return [v for v in self.assertions.values() if isinstance(v, dict)]

    def ingredients(self):
        return [v for v in self.values() if v.get("relationship") is not None]

    def created(self):
        return self.claim.get("created_assertions") or []

    def failures(self):
        results = self.m.get("validationResults")
        return (results or {"failure": [{"code": "MISSING_VALIDATION_RESULTS"}]}).get("failure") or []

    def spec_version(self):
        info = self.claim.get("claim_generator_info")
        if isinstance(info, list):
            info = info[0] if info else {}
        return (info or {}).get("specVersion")


def matches(found):
    """A failIfMatched statement: true when nothing matched."""
    return (len(found) == 0, found)


# Each function renders the rubric statement `validation:<its name>`.
def mandatory_dst_for_perceptible_transformations(m, spec):
    return matches([a["action"] for a in m.actions() if a.get("action", "").startswith("c2pa.")
                    and a["action"] not in INCEPTION_ACTIONS + NON_EDITORIAL_ACTIONS + DST_EXEMPT_PERCEPTIBLE_ACTIONS
                    and a.get("digitalSourceType") is None])


def mandatory_spec_version(m, spec):
    version = m.spec_version()
    if version is None:
        return matches(["missing"] if tuple(map(int, spec.split(".")[:2])) >= (2, 4) else [])
    if not isinstance(version, str):
        return matches([version])
    return matches([] if version.split(".")[:2] == spec.split(".")[:2] else [version])


def mandatory_all_actions_included(m, spec):
    missing = [v for v in m.values() if v.get("actions") is not None and v.get("allActionsIncluded") is None]
    return (len(missing) == 0, [])


def no_dst_for_opened_action(m, spec):
    return matches([a["digitalSourceType"] for a in m.actions()
                    if a.get("action") == "c2pa.opened" and a.get("digitalSourceType") is not None])


def well_formed_data_present(m, spec):
    return (m.m.get("validationResults") is not None, [])


def well_formed_success(m, spec):
    return matches([f["code"] for f in m.failures() if f.get("code") in WELL_FORMED_ERROR_CODES])


def valid_data_present(m, spec):
    return well_formed_data_present(m, spec)


def valid_success(m, spec):
    return matches([f["code"] for f in m.failures() if f.get("code") in VALID_ERROR_CODES])


def inception_action_position(m, spec):
    first = next((h.get("url", "") for h in m.created() if "c2pa.actions" in h.get("url", "")), "")
    actions = m.actions()
    created = [a for a in actions if a.get("action") == "c2pa.created"]
    ok = first.endswith("c2pa.actions.v2") and (not created or actions[0].get("action") in INCEPTION_ACTIONS)
    return (ok, [])


def base_label(label):
    return label.split("__")[0]


def no_deprecated_assertions(m, spec):
    return matches([k for k in m.assertions if k.startswith("stds.") or k in DEPRECATED_ASSERTIONS])


def no_unsupported_assertions(m, spec):
    return matches([k for k in m.assertions if k.startswith("c2pa.") and base_label(k) not in ALLOWED_ASSERTIONS
                    and base_label(k) not in DEPRECATED_ASSERTIONS])


def no_deprecated_actions(m, spec):
    return matches([a["action"] for a in m.actions() if a.get("action") in DEPRECATED_ACTIONS])


def no_unsupported_actions(m, spec):
    return matches([a["action"] for a in m.actions()
                    if a.get("action", "").startswith("c2pa.") and a["action"] not in ALLOWED_ACTIONS])


def no_unrecognized_custom_assertions(m, spec):
    return matches([k for k in m.assertions if not k.startswith("c2pa.") and "." not in k])


def no_unrecognized_custom_actions(m, spec):
    return matches([a.get("action") for a in m.actions()
                    if not a.get("action", "").startswith("c2pa.") and "." not in a.get("action", "")])


def no_unrecognized_custom_action_parameters(m, spec):
    return matches([k for a in m.actions() if a.get("parameters") is not None for k in a["parameters"]
                    if k not in STANDARD_PARAMETERS and "." not in k])


def discouraged_legacy_action_parameters(m, spec):
    found = [a.get("action", "unknown") for a in m.actions() if a.get("parameters") is not None
             and (a["parameters"].get("description") is not None or a["parameters"].get("ingredient") is not None)]
    return (True if not found else "warn", found)


def active_manifest_urn(m, spec):
    return ((m.m.get("label") or "").startswith("urn:c2pa:"), [])


def review_ratings_datasource(m, spec):
    return (not [v for v in m.values() if v.get("reviewRatings") is not None
                 and ((v.get("dataSource") or {}).get("type")) in HUMAN_ENTRY_SOURCE_TYPES], [])


def ingredient_v3_no_active_manifest(m, spec):
    return (not [i for i in m.ingredients() if i.get("activeManifest") is None
                 and i.get("validationResults") is not None], [])


def ingredient_v3_mandatory_validation_results(m, spec):
    return (not [i for i in m.ingredients() if i.get("activeManifest") is not None
                 and i.get("validationResults") is None], [])


def ingredient_relationship_values(m, spec):
    return matches([i["relationship"] for i in m.ingredients() if i["relationship"] not in VALID_RELATIONSHIPS])


def mandatory_dst_for_created_action(m, spec):
    return (not [a for a in m.actions() if a.get("action") == "c2pa.created" and a.get("digitalSourceType") is None], [])


def no_deprecated_claim_fields(m, spec):
    return matches(["specVersion in claim"] if m.claim.get("specVersion") is not None else [])


def ingredient_v3_choice(m, spec):
    return (not [i for i in m.ingredients() if i.get("activeManifest") is not None
                 and i.get("digitalSourceType") is not None], [])


def alternative_content_representation_choice(m, spec):
    def bad(v):
        p = v.get("parameters") or {}
        if "exif.originalPreservationImage" not in (v.get("type"), p.get("type")):
            return False
        return (p.get("multiAssetPartIndex") is None) == (p.get("embeddedOriginalPreservationImage") is None)
    return (not [v for v in m.values() if bad(v)], [])


def forbidden_labels_in_external_references(m, spec):
    forbidden = ["c2pa.actions", "c2pa.actions.v2", "c2pa.cloud-data", "c2pa.external-reference"]
    return matches([v["label"] for v in m.values() if v.get("label") is not None and v.get("url") is not None
                    and v.get("relationship") is None and (v["label"] in forbidden or v["label"].startswith("c2pa.hash")
                                                           or v["label"].startswith("c2pa.ingredient"))])


def no_url_in_hashes(m, spec):
    return matches([k for k in ("c2pa.hash.data", "c2pa.hash.bmff.v3")
                    if isinstance(m.assertions.get(k), dict) and m.assertions[k].get("url")])


def all_actions_included_opened(m, spec):
    actions = m.actions()
    flagged = (len(actions) == 1 and (m.actions_assertion or {}).get("allActionsIncluded") is not True
               and actions[0].get("action") == "c2pa.opened")
    return matches(actions if flagged else [])


def opened_action_ingredient_reference(m, spec):
    return matches([a for a in m.actions() if a.get("action") == "c2pa.opened"
                    and len((a.get("parameters") or {}).get("ingredients") or []) != 1])


def no_box_hash_for_tiff(m, spec):
    asset_type = m.assertions.get("c2pa.asset-type.v2") or {}
    return matches(["c2pa.hash.boxes"] if "c2pa.hash.boxes" in m.assertions
                   and asset_type.get("dc:format") in TIFF_MEDIA_TYPES else [])


STATEMENTS = [
    mandatory_dst_for_perceptible_transformations, mandatory_spec_version, mandatory_all_actions_included,
    no_dst_for_opened_action, well_formed_data_present, well_formed_success, valid_data_present, valid_success,
    inception_action_position, no_deprecated_assertions, no_unsupported_assertions, no_deprecated_actions,
    no_unsupported_actions, no_unrecognized_custom_assertions, no_unrecognized_custom_actions,
    no_unrecognized_custom_action_parameters, discouraged_legacy_action_parameters, active_manifest_urn,
    review_ratings_datasource, ingredient_v3_no_active_manifest, ingredient_v3_mandatory_validation_results,
    ingredient_relationship_values, mandatory_dst_for_created_action, no_deprecated_claim_fields,
    ingredient_v3_choice, alternative_content_representation_choice, forbidden_labels_in_external_references,
    no_url_in_hashes, all_actions_included_opened, opened_action_ingredient_reference, no_box_hash_for_tiff,
]


def signals(m):
    """inception:signal_capturedMedia and transformation:signal_ambiguousActions of the signals rubric."""
    listed = (m.actions_assertion or {}).get("actions") or []
    captured = any(a.get("action") in INCEPTION_ACTIONS and a.get("digitalSourceType") in CAPTURE_SOURCE_TYPES
                   for a in listed)
    ambiguous = (not listed or (m.actions_assertion or {}).get("allActionsIncluded") is not True
                 or any(a.get("action") is not None and not a["action"].startswith("c2pa.") for a in listed)
                 or any(a.get("action") == "c2pa.unknown" for a in listed)
                 or any("c2pa.actions" in h.get("url", "") for h in m.claim.get("gathered_assertions") or []))
    return {"label": m.m.get("label"), "capturedMedia": captured, "ambiguousActions": ambiguous}


def evaluate(crjson, spec):
    manifests = [Manifest(m) for m in crjson.get("manifests") or []]
    active = manifests[0] if manifests else Manifest({})
    statements = {}
    for statement in STATEMENTS:
        value, found = statement(active, spec)
        statements[statement.__name__] = {"value": value, "matches": found}
    return {"statements": statements, "failed": [k for k, v in statements.items() if v["value"] is False],
            "signals": [signals(m) for m in manifests], "error": None}


def main(argv=None):
    ap = argparse.ArgumentParser(description="C2PA conformance rubric (program 0.2, spec 2.4) over crJSON")
    ap.add_argument("file")
    ap.add_argument("--trust-anchor", action="append", default=[], metavar="PEM")
    ap.add_argument("--spec-version", default="2.4")
    args = ap.parse_args(argv)
    try:
        crjson = json.loads(read(args.file, args.trust_anchor, crjson=True))
    except Exception as e:  # noqa: BLE001 - C2paError subclasses, OSError, JSON errors
        print(json.dumps({"statements": {}, "failed": [], "signals": [], "error": f"{type(e).__name__}: {e}"}))
        return 3
    out = evaluate(crjson, args.spec_version)
    print(json.dumps(out, indent=1, default=str))
    return 1 if out["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
