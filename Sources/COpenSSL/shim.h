#ifndef SMPCTL_COPENSSL_SHIM_H
#define SMPCTL_COPENSSL_SHIM_H
#include <openssl/ssl.h>
#include <openssl/err.h>
#include <openssl/bio.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <sys/time.h>

/* OpenSSL macros and composite constants, as functions and constants Swift can use. */
static inline long smp_dtls_get_timeout(SSL *ssl, struct timeval *tv) { return DTLSv1_get_timeout(ssl, tv); }
static inline int smp_dtls_handle_timeout(SSL *ssl) { return (int)DTLSv1_handle_timeout(ssl); }
static inline int smp_set_tlsext_host_name(SSL *ssl, const char *name) { return (int)SSL_set_tlsext_host_name(ssl, name); }
static inline long smp_ssl_set_mtu(SSL *ssl, long mtu) { return SSL_set_mtu(ssl, mtu); }
static inline long smp_ssl_ctx_set_min_proto(SSL_CTX *ctx, int version) { return SSL_CTX_set_min_proto_version(ctx, version); }
static inline uint64_t smp_ssl_op_no_query_mtu(void) { return SSL_OP_NO_QUERY_MTU; }
static inline uint64_t smp_ssl_op_cookie_exchange(void) { return SSL_OP_COOKIE_EXCHANGE; }
static inline void smp_bio_set_retry_read(BIO *bio) { BIO_set_retry_read(bio); }
static inline void smp_bio_clear_retry_flags(BIO *bio) { BIO_clear_retry_flags(bio); }
/* A distinguished name as RFC 2253 text ("CN=smp-device,O=…") into buffer; returns its length. */
static inline int smp_x509_name_text(const X509_NAME *name, char *buffer, int size) {
    if (size <= 0) return 0;
    BIO *bio = BIO_new(BIO_s_mem());
    int length = 0;
    if (bio != NULL) {
        X509_NAME_print_ex(bio, name, 0, XN_FLAG_RFC2253);
        length = BIO_read(bio, buffer, size - 1);
        BIO_free(bio);
    }
    if (length < 0) length = 0;
    buffer[length] = 0;
    return length;
}
static inline int smp_ssl_cb_read_alert(void) { return SSL_CB_READ_ALERT; }
#endif
