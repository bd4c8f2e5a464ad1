import Foundation

/// lens-bench: lensd's speed, measured next to a reference on the same bytes.
let usage = """
usage: lens-bench sign-jpeg --key KEY|pkcs11:URI|tpm2:BLOB --chain CHAIN [--trust-anchor ROOT] [--runs N]
                 [--pkcs11-module MODULE --pkcs11-pin-file FILE] [--tsa URL --tsa-trust-anchor PEM] FILE
       lens-bench sign-mp4 --key KEY --chain CHAIN [--trust-anchor ROOT] [--runs N] [--tsa URL --tsa-trust-anchor PEM] FILE
       lens-bench verify [--trust-anchor ROOT] [--runs N] FILE...
       lens-bench cli [--bus ADDRESS] [--runs N]
       lens-bench capture [--runs N] [--size WxH]
       lens-bench encode [--size WxH] [--frames N]
       lens-bench video [--runs N] [--size WxH] [--lengths S,S] [--realtime S]
       lens-bench preview [--size WxH] [--seconds S] [--photos N] [--recordings N]
       lens-bench outbox [--runs N] [--size MB] [FILE]
       lens-bench face [--runs N] [--size WxH]
       lens-bench memory [--captures N]
"""

let argv = Array(CommandLine.arguments.dropFirst())
do {
    switch argv.first {
    case "sign-jpeg": try SignFileBench(.jpeg, Array(argv.dropFirst())).run()
    case "sign-mp4": try SignFileBench(.mp4, Array(argv.dropFirst())).run()
    case "verify": try VerifyBench(Array(argv.dropFirst())).run()
    case "cli": try CLIBench(Array(argv.dropFirst())).run()
    case "capture": try CaptureBench(Array(argv.dropFirst())).run()
    case "encode": try EncodeBench(Array(argv.dropFirst())).run()
    case "video": try VideoBench(Array(argv.dropFirst())).run()
    case "preview": try PreviewBench(Array(argv.dropFirst())).run()
    case "outbox": try OutboxBench(Array(argv.dropFirst())).run()
    case "face": try FaceBench(Array(argv.dropFirst())).run()
    case "memory": try MemoryBench(Array(argv.dropFirst())).run()
    default:
        print(usage)
        exit(2)
    }
} catch {
    FileHandle.standardError.write(Data("lens-bench: \(error)\n".utf8))
    exit(1)
}
