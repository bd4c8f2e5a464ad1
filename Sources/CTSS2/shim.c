#include "CTSS2.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tss2/tss2_esys.h>
#include <tss2/tss2_mu.h>
#include <tss2/tss2_rc.h>
#include <tss2/tss2_tctildr.h>

struct lens_tss2_tpm {
    TSS2_TCTI_CONTEXT *tcti;
    ESYS_CONTEXT *esys;
};

// tpm2-tss's entry points, resolved once by lens_tss2_load.
static struct {
    TSS2_RC (*tctildr_initialize)(const char *, TSS2_TCTI_CONTEXT **);
    void (*tctildr_finalize)(TSS2_TCTI_CONTEXT **);
    TSS2_RC (*initialize)(ESYS_CONTEXT **, TSS2_TCTI_CONTEXT *, TSS2_ABI_VERSION *);
    void (*finalize)(ESYS_CONTEXT **);
    void (*free)(void *);
    TSS2_RC (*create_primary)(ESYS_CONTEXT *, ESYS_TR, ESYS_TR, ESYS_TR, ESYS_TR, const TPM2B_SENSITIVE_CREATE *,
                              const TPM2B_PUBLIC *, const TPM2B_DATA *, const TPML_PCR_SELECTION *, ESYS_TR *,
                              TPM2B_PUBLIC **, TPM2B_CREATION_DATA **, TPM2B_DIGEST **, TPMT_TK_CREATION **);
    TSS2_RC (*load)(ESYS_CONTEXT *, ESYS_TR, ESYS_TR, ESYS_TR, ESYS_TR, const TPM2B_PRIVATE *, const TPM2B_PUBLIC *, ESYS_TR *);
    TSS2_RC (*from_tpm_public)(ESYS_CONTEXT *, TPM2_HANDLE, ESYS_TR, ESYS_TR, ESYS_TR, ESYS_TR *);
    TSS2_RC (*certify)(ESYS_CONTEXT *, ESYS_TR, ESYS_TR, ESYS_TR, ESYS_TR, ESYS_TR, const TPM2B_DATA *,
                       const TPMT_SIG_SCHEME *, TPM2B_ATTEST **, TPMT_SIGNATURE **);
    TSS2_RC (*nv_read_public)(ESYS_CONTEXT *, ESYS_TR, ESYS_TR, ESYS_TR, ESYS_TR, TPM2B_NV_PUBLIC **, TPM2B_NAME **);
    TSS2_RC (*nv_read)(ESYS_CONTEXT *, ESYS_TR, ESYS_TR, ESYS_TR, ESYS_TR, ESYS_TR, UINT16, UINT16, TPM2B_MAX_NV_BUFFER **);
    TSS2_RC (*flush_context)(ESYS_CONTEXT *, ESYS_TR);
    TSS2_RC (*tr_close)(ESYS_CONTEXT *, ESYS_TR *);
    TSS2_RC (*public_unmarshal)(const uint8_t *, size_t, size_t *, TPM2B_PUBLIC *);
    TSS2_RC (*private_unmarshal)(const uint8_t *, size_t, size_t *, TPM2B_PRIVATE *);
    TSS2_RC (*signature_marshal)(const TPMT_SIGNATURE *, uint8_t *, size_t, size_t *);
    const char *(*decode)(TSS2_RC);
} api;

static pthread_once_t loaded = PTHREAD_ONCE_INIT;
static const char *load_failure;
static char load_message[512];

static void *open_library(const char *name) {
    // Never closed: ESYS keeps nothing global, but a handle closed under a live context would crash.
    void *library = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (library == NULL && load_failure == NULL) {
        const char *why = dlerror();
        snprintf(load_message, sizeof load_message, "%s could not be loaded (install libtss2-esys-3.0.2-0): %s", name,
                 why ? why : "unknown error");
        load_failure = load_message;
    }
    return library;
}

static void *resolve(void *library, const char *name) {
    void *symbol = library ? dlsym(library, name) : NULL;
    if (symbol == NULL && load_failure == NULL) {
        snprintf(load_message, sizeof load_message, "tpm2-tss has no %s", name);
        load_failure = load_message;
    }
    return symbol;
}

static void load(void) {
    void *esys = open_library("libtss2-esys.so.0"), *mu = open_library("libtss2-mu.so.0");
    void *tctildr = open_library("libtss2-tctildr.so.0"), *rc = open_library("libtss2-rc.so.0");
    api.tctildr_initialize = resolve(tctildr, "Tss2_TctiLdr_Initialize");
    api.tctildr_finalize = resolve(tctildr, "Tss2_TctiLdr_Finalize");
    api.initialize = resolve(esys, "Esys_Initialize");
    api.finalize = resolve(esys, "Esys_Finalize");
    api.free = resolve(esys, "Esys_Free");
    api.create_primary = resolve(esys, "Esys_CreatePrimary");
    api.load = resolve(esys, "Esys_Load");
    api.from_tpm_public = resolve(esys, "Esys_TR_FromTPMPublic");
    api.certify = resolve(esys, "Esys_Certify");
    api.nv_read_public = resolve(esys, "Esys_NV_ReadPublic");
    api.nv_read = resolve(esys, "Esys_NV_Read");
    api.flush_context = resolve(esys, "Esys_FlushContext");
    api.tr_close = resolve(esys, "Esys_TR_Close");
    api.public_unmarshal = resolve(mu, "Tss2_MU_TPM2B_PUBLIC_Unmarshal");
    api.private_unmarshal = resolve(mu, "Tss2_MU_TPM2B_PRIVATE_Unmarshal");
    api.signature_marshal = resolve(mu, "Tss2_MU_TPMT_SIGNATURE_Marshal");
    api.decode = resolve(rc, "Tss2_RC_Decode");
}

const char *lens_tss2_load(void) {
    pthread_once(&loaded, load);
    return load_failure;
}

TSS2_RC lens_tss2_open(const char *tcti, lens_tss2_tpm **tpm) {
    lens_tss2_tpm *opened = calloc(1, sizeof *opened);
    if (opened == NULL) return TSS2_ESYS_RC_MEMORY;
    TSS2_RC rc = api.tctildr_initialize(tcti, &opened->tcti);
    if (rc == TSS2_RC_SUCCESS) {
        rc = api.initialize(&opened->esys, opened->tcti, NULL);
        if (rc != TSS2_RC_SUCCESS) api.tctildr_finalize(&opened->tcti);
    }
    if (rc != TSS2_RC_SUCCESS) {
        free(opened);
        return rc;
    }
    *tpm = opened;
    return rc;
}

void lens_tss2_close(lens_tss2_tpm *tpm) {
    api.finalize(&tpm->esys);
    api.tctildr_finalize(&tpm->tcti);
    free(tpm);
}

const char *lens_tss2_describe(TSS2_RC rc) {
    return api.decode(rc);
}

TSS2_RC lens_tss2_create_primary(lens_tss2_tpm *tpm, const uint8_t *template_, size_t length, uint32_t *object) {
    TPM2B_PUBLIC public_ = {0};
    TSS2_RC rc = api.public_unmarshal(template_, length, NULL, &public_);
    if (rc != TSS2_RC_SUCCESS) return rc;
    const TPM2B_SENSITIVE_CREATE sensitive = {0};
    const TPM2B_DATA outside = {0};
    const TPML_PCR_SELECTION pcrs = {0};
    return api.create_primary(tpm->esys, ESYS_TR_RH_OWNER, ESYS_TR_PASSWORD, ESYS_TR_NONE, ESYS_TR_NONE, &sensitive,
                              &public_, &outside, &pcrs, object, NULL, NULL, NULL, NULL);
}

TSS2_RC lens_tss2_load_object(lens_tss2_tpm *tpm, uint32_t parent, const uint8_t *public_, size_t publicLength,
                              const uint8_t *private_, size_t privateLength, uint32_t *object) {
    TPM2B_PUBLIC inPublic = {0};
    TPM2B_PRIVATE inPrivate = {0};
    TSS2_RC rc = api.public_unmarshal(public_, publicLength, NULL, &inPublic);
    if (rc == TSS2_RC_SUCCESS) rc = api.private_unmarshal(private_, privateLength, NULL, &inPrivate);
    if (rc != TSS2_RC_SUCCESS) return rc;
    return api.load(tpm->esys, parent, ESYS_TR_PASSWORD, ESYS_TR_NONE, ESYS_TR_NONE, &inPrivate, &inPublic, object);
}

TSS2_RC lens_tss2_persistent(lens_tss2_tpm *tpm, uint32_t handle, uint32_t *object) {
    return api.from_tpm_public(tpm->esys, handle, ESYS_TR_NONE, ESYS_TR_NONE, ESYS_TR_NONE, object);
}

TSS2_RC lens_tss2_certify_ecdsa(lens_tss2_tpm *tpm, uint32_t object, uint32_t signer, uint16_t hashAlg,
                                const uint8_t *qualifying, size_t qualifyingLength,
                                uint8_t *attest, size_t attestCapacity, size_t *attestLength,
                                uint8_t *signature, size_t signatureCapacity, size_t *signatureLength) {
    TPM2B_DATA extra = {0};
    if (qualifyingLength > sizeof extra.buffer) return TSS2_ESYS_RC_BAD_VALUE;
    extra.size = (UINT16)qualifyingLength;
    if (qualifyingLength > 0) memcpy(extra.buffer, qualifying, qualifyingLength);
    TPMT_SIG_SCHEME scheme = {.scheme = TPM2_ALG_ECDSA, .details.ecdsa.hashAlg = hashAlg};
    TPM2B_ATTEST *certified = NULL;
    TPMT_SIGNATURE *signed_ = NULL;
    TSS2_RC rc = api.certify(tpm->esys, object, signer, ESYS_TR_PASSWORD, ESYS_TR_PASSWORD, ESYS_TR_NONE, &extra, &scheme,
                             &certified, &signed_);
    if (rc != TSS2_RC_SUCCESS) return rc;
    if (certified->size > attestCapacity) {
        rc = TSS2_ESYS_RC_INSUFFICIENT_BUFFER;
    } else {
        memcpy(attest, certified->attestationData, certified->size);
        *attestLength = certified->size;
        *signatureLength = 0;
        rc = api.signature_marshal(signed_, signature, signatureCapacity, signatureLength);
    }
    api.free(certified);
    api.free(signed_);
    return rc;
}

TSS2_RC lens_tss2_nv_read(lens_tss2_tpm *tpm, uint32_t index, uint8_t *out, size_t capacity, size_t *length) {
    ESYS_TR nv = ESYS_TR_NONE;
    TSS2_RC rc = api.from_tpm_public(tpm->esys, index, ESYS_TR_NONE, ESYS_TR_NONE, ESYS_TR_NONE, &nv);
    if (rc != TSS2_RC_SUCCESS) return rc;
    TPM2B_NV_PUBLIC *public_ = NULL;
    rc = api.nv_read_public(tpm->esys, nv, ESYS_TR_NONE, ESYS_TR_NONE, ESYS_TR_NONE, &public_, NULL);
    size_t total = rc == TSS2_RC_SUCCESS ? public_->nvPublic.dataSize : 0;
    api.free(public_);
    if (rc == TSS2_RC_SUCCESS && total > capacity) rc = TSS2_ESYS_RC_INSUFFICIENT_BUFFER;
    // 512 bytes: below every TPM's TPM2_PT_NV_BUFFER_MAX (the TCG's minimum is 1024 on PC clients).
    size_t done = 0;
    while (rc == TSS2_RC_SUCCESS && done < total) {
        UINT16 chunk = (UINT16)(total - done < 512 ? total - done : 512);
        TPM2B_MAX_NV_BUFFER *data = NULL;
        rc = api.nv_read(tpm->esys, ESYS_TR_RH_OWNER, nv, ESYS_TR_PASSWORD, ESYS_TR_NONE, ESYS_TR_NONE, chunk, (UINT16)done, &data);
        if (rc == TSS2_RC_SUCCESS && (data->size == 0 || data->size > chunk)) rc = TSS2_ESYS_RC_MALFORMED_RESPONSE;
        if (rc == TSS2_RC_SUCCESS) {
            memcpy(out + done, data->buffer, data->size);
            done += data->size;
        }
        api.free(data);
    }
    api.tr_close(tpm->esys, &nv);
    *length = done;
    return rc;
}

void lens_tss2_flush(lens_tss2_tpm *tpm, uint32_t object) {
    api.flush_context(tpm->esys, object);
}

void lens_tss2_forget(lens_tss2_tpm *tpm, uint32_t object) {
    ESYS_TR handle = object;
    api.tr_close(tpm->esys, &handle);
}
