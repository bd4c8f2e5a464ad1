/// Dotted OIDs of the extended key usages C2PA signing credentials involve.
public enum ExtendedKeyUsage {
    public static let emailProtection = "1.3.6.1.5.5.7.3.4"
    public static let documentSigning = "1.3.6.1.5.5.7.3.36"
    public static let c2paClaimSigning = "1.3.6.1.4.1.62558.2.1"
    public static let timeStamping = "1.3.6.1.5.5.7.3.8"
    public static let ocspSigning = "1.3.6.1.5.5.7.3.9"
    public static let serverAuth = "1.3.6.1.5.5.7.3.1"
    public static let anyExtendedKeyUsage = "2.5.29.37.0"
}
