#include "CPKCS11.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <stddef.h>
#include <p11-kit/pkcs11.h>

_Static_assert(sizeof(lens_p11_attribute) == sizeof(CK_ATTRIBUTE), "CK_ATTRIBUTE layout");
_Static_assert(offsetof(lens_p11_attribute, value) == offsetof(CK_ATTRIBUTE, pValue), "CK_ATTRIBUTE layout");
_Static_assert(offsetof(lens_p11_attribute, length) == offsetof(CK_ATTRIBUTE, ulValueLen), "CK_ATTRIBUTE layout");
_Static_assert(LENS_CKR_USER_ALREADY_LOGGED_IN == CKR_USER_ALREADY_LOGGED_IN, "CKR");
_Static_assert(LENS_CKR_BUFFER_TOO_SMALL == CKR_BUFFER_TOO_SMALL, "CKR");
_Static_assert(LENS_CKO_PRIVATE_KEY == CKO_PRIVATE_KEY && LENS_CKO_PUBLIC_KEY == CKO_PUBLIC_KEY, "CKO");
_Static_assert(LENS_CKK_EC == CKK_EC, "CKK");
_Static_assert(LENS_CKA_SENSITIVE == CKA_SENSITIVE && LENS_CKA_EXTRACTABLE == CKA_EXTRACTABLE, "CKA");
_Static_assert(LENS_CKA_NEVER_EXTRACTABLE == CKA_NEVER_EXTRACTABLE && LENS_CKA_SIGN == CKA_SIGN, "CKA");
_Static_assert(LENS_CKA_EC_PARAMS == CKA_EC_PARAMS && LENS_CKA_EC_POINT == CKA_EC_POINT, "CKA");
_Static_assert(LENS_CKA_ID == CKA_ID && LENS_CKA_LABEL == CKA_LABEL && LENS_CKA_VERIFY == CKA_VERIFY, "CKA");
_Static_assert(LENS_CKA_KEY_TYPE == CKA_KEY_TYPE && LENS_CKA_PRIVATE == CKA_PRIVATE && LENS_CKA_TOKEN == CKA_TOKEN, "CKA");

struct lens_p11_module {
    void *library;
    CK_FUNCTION_LIST_PTR functions;
};

lens_p11_module *lens_p11_load(const char *path, char *error, size_t error_size) {
    void *library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        snprintf(error, error_size, "%s", dlerror());
        return NULL;
    }
    CK_C_GetFunctionList get_list = (CK_C_GetFunctionList)dlsym(library, "C_GetFunctionList");
    CK_FUNCTION_LIST_PTR functions = NULL;
    if (!get_list || get_list(&functions) != CKR_OK || !functions) {
        snprintf(error, error_size, "%s has no usable C_GetFunctionList", path);
        dlclose(library);
        return NULL;
    }
    lens_p11_module *module = malloc(sizeof *module);
    if (!module) {
        snprintf(error, error_size, "out of memory");
        dlclose(library);
        return NULL;
    }
    module->library = library;
    module->functions = functions;
    return module;
}

void lens_p11_unload(lens_p11_module *module) {
    dlclose(module->library);
    free(module);
}

unsigned long lens_p11_initialize(lens_p11_module *module) {
    CK_C_INITIALIZE_ARGS args = {.flags = CKF_OS_LOCKING_OK};
    return module->functions->C_Initialize(&args);
}

unsigned long lens_p11_finalize(lens_p11_module *module) {
    return module->functions->C_Finalize(NULL);
}

unsigned long lens_p11_slots(lens_p11_module *module, unsigned long *slots, unsigned long *count) {
    return module->functions->C_GetSlotList(CK_TRUE, slots, count);
}

unsigned long lens_p11_token_label(lens_p11_module *module, unsigned long slot, unsigned char label[32]) {
    CK_TOKEN_INFO info;
    CK_RV rv = module->functions->C_GetTokenInfo(slot, &info);
    if (rv == CKR_OK) {
        for (int i = 0; i < 32; i++) label[i] = info.label[i];
    }
    return rv;
}

unsigned long lens_p11_open_session(lens_p11_module *module, unsigned long slot, unsigned long *session) {
    return module->functions->C_OpenSession(slot, CKF_SERIAL_SESSION | CKF_RW_SESSION, NULL, NULL, session);
}

unsigned long lens_p11_close_session(lens_p11_module *module, unsigned long session) {
    return module->functions->C_CloseSession(session);
}

unsigned long lens_p11_login(lens_p11_module *module, unsigned long session, const unsigned char *pin, unsigned long length) {
    return module->functions->C_Login(session, CKU_USER, (CK_UTF8CHAR_PTR)pin, length);
}

unsigned long lens_p11_find(lens_p11_module *module, unsigned long session, lens_p11_attribute *template,
                            unsigned long count, unsigned long *objects, unsigned long capacity, unsigned long *found) {
    CK_RV rv = module->functions->C_FindObjectsInit(session, (CK_ATTRIBUTE_PTR)template, count);
    if (rv != CKR_OK) return rv;
    rv = module->functions->C_FindObjects(session, objects, capacity, found);
    CK_RV final = module->functions->C_FindObjectsFinal(session);
    return rv != CKR_OK ? rv : final;
}

unsigned long lens_p11_attribute_value(lens_p11_module *module, unsigned long session, unsigned long object,
                                       lens_p11_attribute *attribute) {
    return module->functions->C_GetAttributeValue(session, object, (CK_ATTRIBUTE_PTR)attribute, 1);
}

unsigned long lens_p11_sign_ecdsa(lens_p11_module *module, unsigned long session, unsigned long key,
                                  const unsigned char *digest, unsigned long digest_length,
                                  unsigned char *signature, unsigned long *signature_length) {
    CK_MECHANISM mechanism = {.mechanism = CKM_ECDSA};
    CK_RV rv = module->functions->C_SignInit(session, &mechanism, key);
    if (rv != CKR_OK) return rv;
    return module->functions->C_Sign(session, (CK_BYTE_PTR)digest, digest_length, signature, signature_length);
}

unsigned long lens_p11_generate_ec_pair(lens_p11_module *module, unsigned long session,
                                        lens_p11_attribute *public_template, unsigned long public_count,
                                        lens_p11_attribute *private_template, unsigned long private_count,
                                        unsigned long *public_key, unsigned long *private_key) {
    CK_MECHANISM mechanism = {.mechanism = CKM_EC_KEY_PAIR_GEN};
    return module->functions->C_GenerateKeyPair(session, &mechanism, (CK_ATTRIBUTE_PTR)public_template, public_count,
                                                (CK_ATTRIBUTE_PTR)private_template, private_count, public_key, private_key);
}
