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
