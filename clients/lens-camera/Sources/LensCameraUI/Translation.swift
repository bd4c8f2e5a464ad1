import Foundation
import LensClient
import LensFace

/// The app's texts in the desktop's language: gettext catalogs of the text domain `lens-camera`
/// (clients/lens-camera/po, installed by `make install-app`), chosen as lensd's own catalogs are
/// (LANGUAGE, LC_ALL, LC_MESSAGES, LANG) and read with LensFace's .mo reader — so no system
/// locale needs to be generated. English where a text has no translation.
struct Translation: Sendable {
    static let textDomain = "lens-camera"
    /// Loaded once, from the environment and the places catalogs are installed.
    static let current = Translation.forEnvironment(ProcessInfo.processInfo.environment, localeDirectories: localeDirectories)

    let catalog: MessageCatalog?

    /// The prefix the running binary is installed in (/usr for /usr/bin/lens-camera).
    static var installPrefix: URL {
        URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent().deletingLastPathComponent()
    }

    /// `<prefix>/share/locale` of the running binary (/usr/bin/lens-camera → /usr/share/locale),
    /// then the system's.
    static var localeDirectories: [String] {
        [installPrefix.appendingPathComponent("share/locale").path, "/usr/share/locale", "/usr/local/share/locale"]
    }

    static func forEnvironment(_ environment: [String: String], localeDirectories: [String]) -> Translation {
        for language in FaceLocalization.languages(environment) {
            for directory in localeDirectories {
                let path = "\(directory)/\(language)/LC_MESSAGES/\(textDomain).mo"
                if let catalog = try? MessageCatalog(contentsOf: path) { return Translation(catalog: catalog) }
            }
        }
        return Translation(catalog: nil)
    }

    func text(_ msgid: String) -> String { catalog?.translation(of: msgid) ?? msgid }
}

/// A text of the app in the user's language; `arguments` fill its %@ / %d.
func tr(_ msgid: String, _ arguments: CVarArg...) -> String {
    let text = Translation.current.text(msgid)
    return arguments.isEmpty ? text : String(format: text, arguments: arguments)
}
