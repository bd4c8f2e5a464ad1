import FoundationEssentials

/// One readable line for an error of a file operation: the errno's text ("No such file or
/// directory") where there is one, else the error as it prints. (Foundation's
/// `localizedDescription` comes with the Foundation that links ICU into lensd and lensctl.)
public func errorText(_ error: any Error) -> String {
    switch error {
    case let failure as SystemError: return failure.errno.description
    case let posix as POSIXError: return Errno(rawValue: posix.code.rawValue).description
    case let cocoa as CocoaError:
        if let posix = cocoa.underlying as? POSIXError { return Errno(rawValue: posix.code.rawValue).description }
        return String(describing: cocoa.code)
    default: return String(describing: error)
    }
}
