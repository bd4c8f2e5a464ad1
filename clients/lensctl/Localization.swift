import FoundationEssentials
import LensFace

/// lensctl's gettext catalogs: `TEXTDOMAINDIR` when set (as gettext's shell tools read it),
/// else the `share/locale` beside the installed binary's `bin/`, else /usr/share/locale.
enum Localization {
    static func current() -> FaceLocalization {
        let environment = ProcessInfo.processInfo.environment
        var directories: [String] = []
        if let override = environment["TEXTDOMAINDIR"], !override.isEmpty { directories.append(override) }
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        directories.append(binary.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("share/locale").path)
        directories.append("/usr/share/locale")
        let (localization, problems) = FaceLocalization.forEnvironment(environment, localeDirectories: directories)
        problems.forEach { Output.note("lensctl: message catalog skipped: \($0)") }
        return localization
    }
}
