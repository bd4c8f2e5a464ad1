#ifndef LENS_CTSS2_H
#define LENS_CTSS2_H

// tpm2-tss's ESAPI for the one thing OpenSSL's tpm2 provider cannot do: TPM2_Certify, the
// evidence that a device key was made inside the TPM. Structures cross this boundary only as
// the TPM's own marshaled bytes (Tss2_MU), so Swift never touches tpm2-tss's unions. The
// libraries (libtss2-esys, -mu, -tctildr, -rc) are opened (dlopen) on first use: a lensd
// without `key = tpm2:` never loads them. Nothing here but adaptation.

#include <stddef.h>
#include <stdint.h>
#include <tss2/tss2_common.h>

typedef struct lens_tss2_tpm lens_tss2_tpm;

/// Opens the libraries, once for the process: NULL when ready, else why not (static storage).
const char *lens_tss2_load(void);

/// A connection to the TPM through the TCTI `tcti` (tctildr's syntax; NULL: its default).
TSS2_RC lens_tss2_open(const char *tcti, lens_tss2_tpm **tpm);
void lens_tss2_close(lens_tss2_tpm *tpm);

/// Tss2_RC_Decode: the TSS's own text for a response code (static storage).
const char *lens_tss2_describe(TSS2_RC rc);

/// TPM2_CreatePrimary in the owner hierarchy (empty authorization) from `template`, a marshaled
/// TPM2B_PUBLIC; the object's ESYS handle in `*object`.
TSS2_RC lens_tss2_create_primary(lens_tss2_tpm *tpm, const uint8_t *template_, size_t length, uint32_t *object);

/// TPM2_Load of a marshaled TPM2B_PUBLIC and TPM2B_PRIVATE under `parent`.
TSS2_RC lens_tss2_load_object(lens_tss2_tpm *tpm, uint32_t parent, const uint8_t *public_, size_t publicLength,
                              const uint8_t *private_, size_t privateLength, uint32_t *object);

/// The ESYS handle of the persistent object at TPM handle `handle`.
TSS2_RC lens_tss2_persistent(lens_tss2_tpm *tpm, uint32_t handle, uint32_t *object);

/// TPM2_Certify of `object` by `signer` (both with empty authorization) with the ECDSA scheme
/// and hash `hashAlg` (a TPM2_ALG_ID), `qualifying` as its extra data: the TPMS_ATTEST (the
/// TPM2B_ATTEST's contents) and the marshaled TPMT_SIGNATURE.
TSS2_RC lens_tss2_certify_ecdsa(lens_tss2_tpm *tpm, uint32_t object, uint32_t signer, uint16_t hashAlg,
                                const uint8_t *qualifying, size_t qualifyingLength,
                                uint8_t *attest, size_t attestCapacity, size_t *attestLength,
                                uint8_t *signature, size_t signatureCapacity, size_t *signatureLength);

/// TPM2_NV_Read of the whole NV index `index` (owner authorization, empty), in chunks the TPM accepts.
TSS2_RC lens_tss2_nv_read(lens_tss2_tpm *tpm, uint32_t index, uint8_t *out, size_t capacity, size_t *length);

/// TPM2_FlushContext of a transient object; Esys_TR_Close of a persistent one's handle.
void lens_tss2_flush(lens_tss2_tpm *tpm, uint32_t object);
void lens_tss2_forget(lens_tss2_tpm *tpm, uint32_t object);

#endif
