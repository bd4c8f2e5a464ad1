#include "COpenSSL.h"

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
