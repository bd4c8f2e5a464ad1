#include "COpenSSL.h"

#include <string.h>

void lens_OPENSSL_free(void *pointer) {
    OPENSSL_free(pointer);
}

STACK_OF(X509) *lens_sk_X509_new_null(void) {
    return sk_X509_new_null();
}

int lens_sk_X509_push(STACK_OF(X509) *stack, X509 *certificate) {
    return sk_X509_push(stack, certificate);
}

void lens_sk_X509_free(STACK_OF(X509) *stack) {
    sk_X509_free(stack);
}

int lens_sk_X509_num(const STACK_OF(X509) *stack) {
    return sk_X509_num(stack);
}

X509 *lens_sk_X509_value(const STACK_OF(X509) *stack, int index) {
    return sk_X509_value(stack, index);
}

STACK_OF(X509) *lens_PKCS7_certificates(PKCS7 *p7) {
    return PKCS7_type_is_signed(p7) && p7->d.sign != NULL ? p7->d.sign->cert : NULL;
}

int lens_sk_ASN1_OBJECT_num(const STACK_OF(ASN1_OBJECT) *stack) {
    return sk_ASN1_OBJECT_num(stack);
}

ASN1_OBJECT *lens_sk_ASN1_OBJECT_value(const STACK_OF(ASN1_OBJECT) *stack, int index) {
    return sk_ASN1_OBJECT_value(stack, index);
}

STACK_OF(X509_EXTENSION) *lens_sk_X509_EXTENSION_new_null(void) {
    return sk_X509_EXTENSION_new_null();
}

int lens_sk_X509_EXTENSION_push(STACK_OF(X509_EXTENSION) *stack, X509_EXTENSION *extension) {
    return sk_X509_EXTENSION_push(stack, extension);
}

void lens_sk_X509_EXTENSION_free(STACK_OF(X509_EXTENSION) *stack) {
    sk_X509_EXTENSION_free(stack);
}

void lens_ASN1_BIT_STRING_whole_bytes(ASN1_BIT_STRING *string) {
    string->flags &= ~(ASN1_STRING_FLAG_BITS_LEFT | 0x07);
    string->flags |= ASN1_STRING_FLAG_BITS_LEFT;
}

char *lens_X509_ocsp_urls(X509 *certificate) {
    STACK_OF(OPENSSL_STRING) *urls = X509_get1_ocsp(certificate);
    if (urls == NULL) return NULL;
    size_t length = 0;
    for (int i = 0; i < sk_OPENSSL_STRING_num(urls); i++) length += strlen(sk_OPENSSL_STRING_value(urls, i)) + 1;
    char *joined = length > 0 ? OPENSSL_zalloc(length) : NULL;
    for (int i = 0; joined != NULL && i < sk_OPENSSL_STRING_num(urls); i++) {
        if (i > 0) strcat(joined, "\n");
        strcat(joined, sk_OPENSSL_STRING_value(urls, i));
    }
    X509_email_free(urls);
    return joined;
}

char *lens_X509_policy_oids(X509 *certificate) {
    CERTIFICATEPOLICIES *policies = X509_get_ext_d2i(certificate, NID_certificate_policies, NULL, NULL);
    if (policies == NULL) return NULL;
    char *joined = OPENSSL_zalloc((size_t)sk_POLICYINFO_num(policies) * 129 + 1);
    for (int i = 0; joined != NULL && i < sk_POLICYINFO_num(policies); i++) {
        char oid[128];
        OBJ_obj2txt(oid, sizeof oid, sk_POLICYINFO_value(policies, i)->policyid, 1);
        if (i > 0) strcat(joined, "\n");
        strcat(joined, oid);
    }
    CERTIFICATEPOLICIES_free(policies);
    return joined;
}

int lens_X509_extension_index(X509 *certificate, const char *oid) {
    ASN1_OBJECT *object = OBJ_txt2obj(oid, 1);
    if (object == NULL) return -1;
    int index = X509_get_ext_by_OBJ(certificate, object, -1);
    ASN1_OBJECT_free(object);
    return index;
}
