#ifndef PASSMINT_COPENSSL_SHIM_H
#define PASSMINT_COPENSSL_SHIM_H
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <openssl/pkcs7.h>
#include <openssl/pkcs12.h>
#include <openssl/cms.h>
#include <openssl/err.h>
#include <openssl/provider.h>
#include <openssl/rand.h>
#include <openssl/sha.h>
#include <openssl/bio.h>
#include <openssl/ssl.h>

/* sk_X509_* are type-generic macros that Swift cannot import. */
static inline int pm_sk_X509_num(const STACK_OF(X509) *s) { return sk_X509_num(s); }
/* sk_X509_value is a macro. */
static inline X509 *pm_sk_X509_value(const STACK_OF(X509) *s, int i) { return sk_X509_value(s, i); }
/* sk_X509_new_null is a macro. */
static inline STACK_OF(X509) *pm_sk_X509_new_null(void) { return sk_X509_new_null(); }
/* sk_X509_push is a macro; the stack does not take a reference (caller keeps ownership rules of OpenSSL). */
static inline int pm_sk_X509_push(STACK_OF(X509) *s, X509 *x) { return sk_X509_push(s, x); }
/* sk_X509_free is a macro; frees the stack only, not the certificates. */
static inline void pm_sk_X509_free(STACK_OF(X509) *s) { sk_X509_free(s); }
/* sk_X509_pop_free with X509_free is a macro; frees the stack and every certificate in it. */
static inline void pm_sk_X509_pop_free(STACK_OF(X509) *s) { sk_X509_pop_free(s, X509_free); }

/* sk_CMS_SignerInfo_* are macros. */
static inline int pm_sk_CMS_SignerInfo_num(const STACK_OF(CMS_SignerInfo) *s) { return sk_CMS_SignerInfo_num(s); }
/* sk_CMS_SignerInfo_value is a macro. */
static inline CMS_SignerInfo *pm_sk_CMS_SignerInfo_value(const STACK_OF(CMS_SignerInfo) *s, int i) {
    return sk_CMS_SignerInfo_value(s, i);
}

/* sk_ASN1_OBJECT_* are macros (extended key usage is a STACK_OF(ASN1_OBJECT)). */
static inline int pm_sk_ASN1_OBJECT_num(const STACK_OF(ASN1_OBJECT) *s) { return sk_ASN1_OBJECT_num(s); }
/* sk_ASN1_OBJECT_value is a macro. */
static inline const ASN1_OBJECT *pm_sk_ASN1_OBJECT_value(const STACK_OF(ASN1_OBJECT) *s, int i) {
    return sk_ASN1_OBJECT_value(s, i);
}

/* EVP_RSA_gen is a macro over the variadic EVP_PKEY_Q_keygen. */
static inline EVP_PKEY *pm_rsa_generate(unsigned int bits) { return EVP_RSA_gen(bits); }

/* OPENSSL_free is a macro (CRYPTO_free with file/line). */
static inline void pm_openssl_free(void *p) { OPENSSL_free(p); }

/* BIO_get_mem_data is a macro over BIO_ctrl. */
static inline long pm_BIO_get_mem_data(BIO *b, char **pp) { return BIO_get_mem_data(b, pp); }
#endif
