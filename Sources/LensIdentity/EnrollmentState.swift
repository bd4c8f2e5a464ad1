/// Whether lensd can sign, as the `EnrollmentState` D-Bus property reports it.
public enum EnrollmentState: String, Sendable {
    /// A usable key and a currently valid certificate.
    case enrolled
    /// The identity (or a configured credential) is incomplete or absent.
    case missing
    /// The certificate is past its notAfter, or not yet valid by the system clock.
    case expired
    /// Something is there but unusable: unparsable, a key of another certificate, a certificate
    /// C2PA validators refuse, a chain that does not verify, a key readable by other users.
    case invalid
    /// Its CA's OCSP responder says the certificate is revoked: nothing is signed any more.
    case revoked
}
