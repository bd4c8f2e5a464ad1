import LensClient

/// `lensctl trust-anchor`: the root certificate to verify this device's photos with, or with
/// `--chain` the certificates its manifests carry.
enum TrustAnchorCommand: Command {
    static let name = "trust-anchor"
    static let synopsis = "trust-anchor [--chain] the PEM root that verifiers should trust for this device"
    static let help = """
    usage: lensctl trust-anchor [--chain] [--bus ADDRESS] [--json]

    Prints the PEM certificate of the root that signed this device's certificate, e.g. for
    lensctl verify --require-trusted --trust-anchor <(lensctl trust-anchor) photo.jpg

      --chain  print the device's certificate chain instead: its own certificate first, then
               the intermediates, as its manifests carry them (x5chain); the root is not in it
    """

    static func run(_ argv: [String]) throws -> ExitCode {
        let args = try Arguments(argv, switches: ["--chain"])
        _ = try args.positionals(0, "no arguments")
        let camera = try Connection.camera(args)
        let pem = try Connection.client { () throws(LensClientError) in
            args.has("--chain") ? try camera.certificateChain() : try camera.trustAnchor()
        }
        if args.json {
            Output.json(["pem": pem])
        } else {
            Output.line(pem.hasSuffix("\n") ? String(pem.dropLast()) : pem)
        }
        return .ok
    }
}
