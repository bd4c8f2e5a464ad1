#ifndef LENS_COPENSSL_H
#define LENS_COPENSSL_H

#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/crypto.h>
#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/objects.h>
#include <openssl/ocsp.h>
#include <openssl/pem.h>
#include <openssl/pkcs7.h>
#include <openssl/provider.h>
#include <openssl/encoder.h>
#include <openssl/rand.h>
#include <openssl/rsa.h>
#include <openssl/ts.h>
#include <openssl/x509.h>
#include <openssl/x509_vfy.h>
#include <openssl/x509v3.h>

// Wrappers for OpenSSL function-like macros, which Swift cannot import.

void lens_OPENSSL_free(void *pointer);

STACK_OF(X509) *lens_sk_X509_new_null(void);
int lens_sk_X509_push(STACK_OF(X509) *stack, X509 *certificate);
void lens_sk_X509_free(STACK_OF(X509) *stack);
int lens_sk_X509_num(const STACK_OF(X509) *stack);
X509 *lens_sk_X509_value(const STACK_OF(X509) *stack, int index);

// The certificates a signed PKCS#7 carries (borrowed; NULL when it is not SignedData).
STACK_OF(X509) *lens_PKCS7_certificates(PKCS7 *p7);

int lens_sk_ASN1_OBJECT_num(const STACK_OF(ASN1_OBJECT) *stack);
ASN1_OBJECT *lens_sk_ASN1_OBJECT_value(const STACK_OF(ASN1_OBJECT) *stack, int index);

STACK_OF(X509_EXTENSION) *lens_sk_X509_EXTENSION_new_null(void);
int lens_sk_X509_EXTENSION_push(STACK_OF(X509_EXTENSION) *stack, X509_EXTENSION *extension);
/// Frees the stack only; the extensions stay their owners'.
void lens_sk_X509_EXTENSION_free(STACK_OF(X509_EXTENSION) *stack);

/// EVP_PKEY_KEYPAIR is a compound macro, which Swift cannot import.
static const int lens_EVP_PKEY_KEYPAIR = EVP_PKEY_KEYPAIR;

/// Marks a BIT STRING as whole bytes (no unused bits), as a signature is; the flag is a struct field.
void lens_ASN1_BIT_STRING_whole_bytes(ASN1_BIT_STRING *string);

/// The OCSP responder URLs of a certificate's authorityInfoAccess (X509_get1_ocsp), as one
/// newline-separated string to free with lens_OPENSSL_free; NULL when it names none.
char *lens_X509_ocsp_urls(X509 *certificate);
/* The certificate's certificatePolicies OIDs, dotted and joined by "\n" (free with lens_OPENSSL_free); NULL when absent. */
char *lens_X509_policy_oids(X509 *certificate);
/* The extension with dotted OID `oid`: its index, or -1 when absent or the OID does not parse. */
int lens_X509_extension_index(X509 *certificate, const char *oid);

#endif
