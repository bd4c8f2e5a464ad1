#!/usr/bin/env python3
"""extract-seeds.py CORPUS NAME SIGNED.jpg [CHAIN.pem]

Splits a C2PA-signed JPEG into seed inputs for each fuzz target and writes them under
CORPUS/<target>/NAME.<part>:
  fuzz-jpeg         the signed JPEG itself
  fuzz-jumbf        the manifest store (APP11 segments reassembled), the manifest superbox
  fuzz-cbor         the claim, every CBOR assertion, the COSE_Sign1, its protected header
  fuzz-cose         the COSE_Sign1 (the c2pa.signature box's cbor content)
  fuzz-certificate  every x5chain certificate (DER), and CHAIN.pem as text when given
  fuzz-cawg         every CAWG identity assertion's CBOR (cawg.identity)
Used by fuzz/make-seeds.sh; needs cbor2 (the project venv has it).
"""
import os
import struct
import sys

import cbor2


def app11_store(jpeg: bytes) -> bytes:
    """Joins the JPEG XT APP11 segments of the first C2PA box instance, as c2pa-rs reads them."""
    assert jpeg[:2] == b"\xff\xd8", "not a JPEG"
    pos, store, instance = 2, b"", None
    while pos + 4 <= len(jpeg) and jpeg[pos] == 0xFF:
        marker = jpeg[pos + 1]
        if marker == 0xDA:
            break
        (length,) = struct.unpack(">H", jpeg[pos + 2:pos + 4])
        payload = jpeg[pos + 4:pos + 2 + length]
        if marker == 0xEB and payload[:2] == b"JP":
            en, z = struct.unpack(">HI", payload[2:8])
            jumbf = payload[8:]
            if instance is None and z == 1 and jumbf[4:8] == b"jumb" and jumbf[16:20] == b"c2pa":
                instance, store = en, jumbf
            elif en == instance:
                store += jumbf[8:]  # continuations repeat LBox/TBox
        pos += 2 + length
    if not store:
        raise SystemExit("extract-seeds.py: no C2PA manifest store in the JPEG")
    return store


def boxes(data: bytes):
    """(type, payload, whole box) of each box in data."""
    pos = 0
    while pos + 8 <= len(data):
        size, tbox = struct.unpack(">I4s", data[pos:pos + 8])
        header = 8
        if size == 1:
            (size,) = struct.unpack(">Q", data[pos + 8:pos + 16])
            header = 16
        elif size == 0:
            size = len(data) - pos
        yield tbox.decode("latin-1"), data[pos + header:pos + size], data[pos:pos + size]
        pos += size


def superbox(payload: bytes):
    """(uuid type 4cc, label, children) of a jumb payload."""
    children = list(boxes(payload))
    tbox, jumd, _ = children[0]
    assert tbox == "jumd"
    label = None
    if jumd[16] & 0x02:
        label = jumd[17:jumd.index(b"\x00", 17)].decode()
    return jumd[:4].decode("latin-1"), label, children[1:]


def content(children, tbox):
    return next((p for t, p, _ in children if t == tbox), None)


def main(argv):
    if len(argv) not in (3, 4):
        raise SystemExit(__doc__)
    corpus, name, signed = argv[:3]
    chain = argv[3] if len(argv) == 4 else None

    def write(target, part, data):
        os.makedirs(os.path.join(corpus, target), exist_ok=True)
        with open(os.path.join(corpus, target, f"{name}.{part}"), "wb") as f:
            f.write(data)

    jpeg = open(signed, "rb").read()
    write("fuzz-jpeg", "jpg", jpeg)
    store = app11_store(jpeg)
    write("fuzz-jumbf", "store.jumbf", store)
    (_, store_payload, _), = list(boxes(store))
    _, _, manifests = superbox(store_payload)
    _, manifest_payload, manifest_box = manifests[-1]  # the active manifest
    write("fuzz-jumbf", "manifest.jumbf", manifest_box)
    for tbox, payload, _ in superbox(manifest_payload)[2]:
        if tbox != "jumb":
            continue
        kind, label, children = superbox(payload)
        if kind == "c2as":  # assertion store: the CBOR assertions
            for atype, apayload, _ in children:
                akind, alabel, achildren = superbox(apayload)
                cbor = content(achildren, "cbor")
                if cbor is not None:
                    write("fuzz-cbor", f"{alabel}.cbor", cbor)
                    if alabel.split("__")[0] == "cawg.identity":
                        write("fuzz-cawg", f"{alabel}.cbor", cbor)
        elif kind == "c2cl":
            write("fuzz-cbor", f"{label}.cbor", content(children, "cbor"))
        elif kind == "c2cs":
            cose = content(children, "cbor")
            write("fuzz-cose", "cose", cose)
            write("fuzz-cbor", "cose.cbor", cose)
            item = cbor2.loads(cose)
            item = item.value if isinstance(item, cbor2.CBORTag) else item
            protected = item[0]
            write("fuzz-cbor", "protected.cbor", protected)
            headers = cbor2.loads(protected) if protected else {}
            x5chain = headers.get(33) or item[1].get(33) or []
            for i, der in enumerate([x5chain] if isinstance(x5chain, bytes) else x5chain):
                write("fuzz-certificate", f"x5chain{i}.der", der)
    if chain:
        write("fuzz-certificate", "chain.pem", open(chain, "rb").read())


if __name__ == "__main__":
    main(sys.argv[1:])
