import LensClient

/// `lensctl trust-anchor`: the root certificate to verify this device's photos with.
enum TrustAnchorCommand: Command {
    static let name = "trust-anchor"
    static let synopsis = "trust-anchor           the PEM root that verifiers should trust for this device"
    static let help = """
    usage: lensctl trust-anchor [--bus ADDRESS] [--json]

    Prints the PEM certificate of the root that signed this device's certificate, e.g. for
    lensctl verify --require-trusted --trust-anchor <(lensctl trust-anchor) photo.jpg
    """

    static func run(_ argv: [String]) throws -> ExitCode {
        let args = try Arguments(argv)
        _ = try args.positionals(0, "no arguments")
        let camera = try Connection.camera(args)
        let pem = try Connection.client { () throws(LensClientError) in try camera.trustAnchor() }
        if args.json {
            Output.json(["pem": pem])
        } else {
            Output.line(pem.hasSuffix("\n") ? String(pem.dropLast()) : pem)
        }
        return .ok
    }
}
