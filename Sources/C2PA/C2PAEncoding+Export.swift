// C2PA's users see its encodings (CBOR, JUMBF, JSON, the claim, the labels) as part of it, as
// before they became a module of their own.
@_exported import C2PAEncoding
