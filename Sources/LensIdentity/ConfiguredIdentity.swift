import LensCrypto

/// A key and chain the administrator installed (e.g. issued by an organisation's CA). lensd never
/// writes anything for it.
enum ConfiguredIdentity {
    static func load(_ configuration: IdentityConfiguration) throws(IdentityFailure) -> IdentityMaterial {
        let remedy = "install a valid key and certificate chain at the configured paths, or remove both settings to use lensd's own device identity"
        guard let keyPath = configuration.keyPath, let chainPath = configuration.chainPath else {
            throw IdentityFailure(.missing, "only one of the device key and the certificate chain is configured; configure both, or neither to use lensd's own device identity")
        }
        let (keyText, keySource) = try CredentialFile.deviceKey(configuration, remedy: remedy, orFile: keyPath) {
            () throws(IdentityFailure) in try CredentialFile.read(keyPath, "the configured device key", isSecret: true, remedy: remedy)
        }
        let chainText = try CredentialFile.read(chainPath, "the configured certificate chain", isSecret: false, remedy: remedy)
        let key = try CredentialFile.parseKey(keyText, "the configured device key", path: keySource, remedy: remedy)
        let chain = try CredentialFile.parseCertificates(chainText, "the configured certificate chain", path: chainPath, remedy: remedy)
        var trustAnchor = chain[chain.count - 1]
        if let anchorPath = configuration.trustAnchorPath {
            let anchorText = try CredentialFile.read(anchorPath, "the configured trust anchor", isSecret: false, remedy: remedy)
            trustAnchor = try CredentialFile.parseCertificates(anchorText, "the configured trust anchor", path: anchorPath, remedy: remedy)[0]
        }
        return IdentityMaterial(
            key: key, chain: chain, trustAnchor: trustAnchor, keyPath: keySource, chainPath: chainPath,
            trustAnchorPath: configuration.trustAnchorPath ?? chainPath, remedy: remedy)
    }
}
