#ifndef LENS_CPKCS11_H
#define LENS_CPKCS11_H

// PKCS#11 2.40 through a module lensd loads at run time (dlopen of `pkcs11-module`, then
// C_GetFunctionList). Each function is one call of the module's function list; the types are
// plain C so that Swift never sees p11-kit's header. Every function returns the module's CK_RV.

#include <stddef.h>

typedef struct lens_p11_module lens_p11_module;

/// CK_ATTRIBUTE with the same layout (shim.c checks it at compile time).
typedef struct {
    unsigned long type;
    void *value;
    unsigned long length;
} lens_p11_attribute;

#define LENS_CKR_OK 0x000UL
#define LENS_CKR_USER_ALREADY_LOGGED_IN 0x100UL
#define LENS_CKR_BUFFER_TOO_SMALL 0x150UL
#define LENS_CKO_PUBLIC_KEY 2UL
#define LENS_CKO_PRIVATE_KEY 3UL
#define LENS_CKK_EC 3UL
#define LENS_CKA_CLASS 0x000UL
#define LENS_CKA_TOKEN 0x001UL
#define LENS_CKA_PRIVATE 0x002UL
#define LENS_CKA_LABEL 0x003UL
#define LENS_CKA_KEY_TYPE 0x100UL
#define LENS_CKA_ID 0x102UL
#define LENS_CKA_SENSITIVE 0x103UL
#define LENS_CKA_SIGN 0x108UL
#define LENS_CKA_VERIFY 0x10AUL
#define LENS_CKA_EXTRACTABLE 0x162UL
#define LENS_CKA_NEVER_EXTRACTABLE 0x164UL
#define LENS_CKA_EC_PARAMS 0x180UL
#define LENS_CKA_EC_POINT 0x181UL

/// dlopen(path) and C_GetFunctionList: the module, or NULL with a sentence in `error`.
lens_p11_module *lens_p11_load(const char *path, char *error, size_t error_size);
/// dlclose; call after lens_p11_finalize.
void lens_p11_unload(lens_p11_module *module);

/// C_Initialize with CKF_OS_LOCKING_OK (the module may be called from several threads).
unsigned long lens_p11_initialize(lens_p11_module *module);
unsigned long lens_p11_finalize(lens_p11_module *module);
/// C_GetSlotList(tokenPresent = true); `slots` NULL asks for the count.
unsigned long lens_p11_slots(lens_p11_module *module, unsigned long *slots, unsigned long *count);
/// C_GetTokenInfo's label: 32 bytes, blank-padded, not NUL-terminated.
unsigned long lens_p11_token_label(lens_p11_module *module, unsigned long slot, unsigned char label[32]);
/// C_OpenSession(CKF_SERIAL_SESSION | CKF_RW_SESSION).
unsigned long lens_p11_open_session(lens_p11_module *module, unsigned long slot, unsigned long *session);
unsigned long lens_p11_close_session(lens_p11_module *module, unsigned long session);
/// C_Login(CKU_USER).
unsigned long lens_p11_login(lens_p11_module *module, unsigned long session, const unsigned char *pin, unsigned long length);
/// C_FindObjectsInit, C_FindObjects (up to `capacity`), C_FindObjectsFinal.
unsigned long lens_p11_find(lens_p11_module *module, unsigned long session, lens_p11_attribute *template,
                            unsigned long count, unsigned long *objects, unsigned long capacity, unsigned long *found);
/// C_GetAttributeValue of one attribute; `attribute->value` NULL asks for the length.
unsigned long lens_p11_attribute_value(lens_p11_module *module, unsigned long session, unsigned long object,
                                       lens_p11_attribute *attribute);
/// C_SignInit(CKM_ECDSA) and C_Sign over a digest; the signature is r||s.
unsigned long lens_p11_sign_ecdsa(lens_p11_module *module, unsigned long session, unsigned long key,
                                  const unsigned char *digest, unsigned long digest_length,
                                  unsigned char *signature, unsigned long *signature_length);
/// C_GenerateKeyPair(CKM_EC_KEY_PAIR_GEN).
unsigned long lens_p11_generate_ec_pair(lens_p11_module *module, unsigned long session,
                                        lens_p11_attribute *public_template, unsigned long public_count,
                                        lens_p11_attribute *private_template, unsigned long private_count,
                                        unsigned long *public_key, unsigned long *private_key);

#endif
