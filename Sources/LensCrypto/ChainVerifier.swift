import COpenSSL
import FoundationEssentials
import Glibc

public enum ChainVerifier {
    /// OpenSSL X509_verify_cert with X509_V_FLAG_X509_STRICT | X509_V_FLAG_PARTIAL_CHAIN (an intermediate may be an anchor),
    /// X509_PURPOSE_ANY; `at == nil` → X509_V_FLAG_NO_CHECK_TIME, otherwise X509_VERIFY_PARAM_set_time(at).
    /// Returns nil when the leaf chains to one of `anchors`, else the reason (X509_verify_cert_error_string).
    public static func verify(leaf: Certificate, intermediates: [Certificate], anchors: [Certificate], at: Date?) -> String? {
        // Whatever happens, nothing this leaves on the error queue concerns later operations.
        defer { ERR_clear_error() }
        guard let store = X509_STORE_new() else { return CryptoError.openSSL("create trust store").reason }
        defer { X509_STORE_free(store) }
        for anchor in anchors {
            guard X509_STORE_add_cert(store, anchor.x509) == 1 else { return CryptoError.openSSL("add trust anchor").reason }
        }

        // The stack borrows the X509s; the caller's `intermediates` array keeps them alive for this call.
        guard let untrusted = lens_sk_X509_new_null() else { return CryptoError.openSSL("collect intermediates").reason }
        defer { lens_sk_X509_free(untrusted) }
        for intermediate in intermediates {
            guard lens_sk_X509_push(untrusted, intermediate.x509) > 0 else {
                return CryptoError.openSSL("collect intermediates").reason
            }
        }

        guard let context = X509_STORE_CTX_new() else { return CryptoError.openSSL("create verification context").reason }
        defer { X509_STORE_CTX_free(context) }
        guard X509_STORE_CTX_init(context, store, leaf.x509, untrusted) == 1 else {
            return CryptoError.openSSL("create verification context").reason
        }

        let parameters = X509_STORE_CTX_get0_param(context)
        var flags = X509_V_FLAG_X509_STRICT | X509_V_FLAG_PARTIAL_CHAIN
        if let at {
            X509_VERIFY_PARAM_set_time(parameters, time_t(at.timeIntervalSince1970.rounded(.down)))
        } else {
            flags |= X509_V_FLAG_NO_CHECK_TIME
        }
        guard X509_VERIFY_PARAM_set_flags(parameters, UInt(flags)) == 1,
              X509_VERIFY_PARAM_set_purpose(parameters, X509_PURPOSE_ANY) == 1
        else { return CryptoError.openSSL("configure verification").reason }

        guard X509_verify_cert(context) != 1 else { return nil }
        let code = X509_STORE_CTX_get_error(context)
        guard code != X509_V_OK else { return CryptoError.openSSL("verify certificate chain").reason }
        return String(cString: X509_verify_cert_error_string(Int(code)))
    }
}
