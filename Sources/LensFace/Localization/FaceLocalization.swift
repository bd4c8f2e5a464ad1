import FoundationEssentials

/// The instruction texts, as the face library's `Localization` gives them: the gettext catalog of
/// the text domain `lensd` for the user's language (the system-defined locale), or, with
/// `useLocalizationDictionary`, the app's own `localizationDictionary` whatever the locale; then
/// the English default. Both are keyed by the library's keys
/// (`dot.face_lite_auto_capture.instruction.face_too_far`, `FaceInstruction.localizationKey`), so an
/// app's Localizable.strings, read with `NSDictionary(contentsOf:)`, serves as the dictionary.
public struct FaceLocalization: Sendable {
    public static let textDomain = "lensd"

    public var catalog: MessageCatalog?
    /// Localization key → text; used instead of the catalog when `useLocalizationDictionary`.
    public var localizationDictionary: [String: String]
    /// The library's switch: true ignores the locale's catalog for `localizationDictionary`.
    public var useLocalizationDictionary: Bool

    public init(catalog: MessageCatalog? = nil, localizationDictionary: [String: String] = [:],
                useLocalizationDictionary: Bool = false) {
        self.catalog = catalog
        self.localizationDictionary = localizationDictionary
        self.useLocalizationDictionary = useLocalizationDictionary
    }

    /// The catalog for the languages the environment asks for, found the gettext way:
    /// `LANGUAGE` (a colon-separated list) when the locale from `LC_ALL`, `LC_MESSAGES` or `LANG`
    /// is not C/POSIX, else that locale; for each, `ll_CC@variant`, `ll_CC`, `ll@variant`, `ll`
    /// under `<directory>/<language>/LC_MESSAGES/lensd.mo`. An unreadable or malformed catalog
    /// is skipped (English is better than no text), and reported through `problems`.
    public static func forEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment,
                                      localeDirectories: [String],
                                      localizationDictionary: [String: String] = [:],
                                      useLocalizationDictionary: Bool = false) -> (localization: FaceLocalization, problems: [String]) {
        var problems: [String] = []
        for language in languages(environment) {
            for directory in localeDirectories {
                let path = "\(directory)/\(language)/LC_MESSAGES/\(textDomain).mo"
                guard FileManager.default.fileExists(atPath: path) else { continue }
                do {
                    let catalog = try MessageCatalog(contentsOf: path)
                    return (FaceLocalization(catalog: catalog, localizationDictionary: localizationDictionary,
                                             useLocalizationDictionary: useLocalizationDictionary), problems)
                } catch {
                    problems.append(error.description)
                }
            }
        }
        return (FaceLocalization(localizationDictionary: localizationDictionary, useLocalizationDictionary: useLocalizationDictionary),
                problems)
    }

    /// Catalog names to try, most wanted first (public for apps with a text domain of their own).
    public static func languages(_ environment: [String: String]) -> [String] {
        let locale = ["LC_ALL", "LC_MESSAGES", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty }
        guard let locale, locale != "C", locale != "POSIX", !locale.hasPrefix("C.") else { return [] }
        let wanted = environment["LANGUAGE"].map { $0.split(separator: ":").map(String.init) } ?? []
        return (wanted.isEmpty ? [locale] : wanted).flatMap(variants).reduce(into: []) { list, name in
            if !list.contains(name) { list.append(name) }
        }
    }

    /// `de_DE.UTF-8@euro` → de_DE@euro, de_DE, de@euro, de; names that could leave the
    /// locale directory (a '/' or '..') give nothing.
    private static func variants(_ name: String) -> [String] {
        let allowed = name.allSatisfy { $0.isLetter || $0.isNumber || "_@.-".contains($0) }
        guard allowed, !name.contains(".."), !name.isEmpty else { return [] }
        var rest = Substring(name), modifier = ""
        if let at = rest.firstIndex(of: "@") { modifier = String(rest[at...]); rest = rest[..<at] }
        if let dot = rest.firstIndex(of: ".") { rest = rest[..<dot] }
        let territory = String(rest)
        let language = rest.split(separator: "_").first.map(String.init) ?? territory
        var names = [territory + modifier, territory]
        if language != territory { names += [language + modifier, language] }
        return names.filter { !$0.isEmpty && !$0.hasPrefix("@") }
    }

    public func text(for instruction: FaceInstruction) -> String {
        let localized = useLocalizationDictionary ? localizationDictionary[instruction.localizationKey]
            : catalog?.translation(of: instruction.defaultText, context: instruction.localizationKey)
        return localized ?? instruction.defaultText
    }
}

extension FaceInstruction {
    public func localizedText(_ localization: FaceLocalization) -> String { localization.text(for: self) }
}
