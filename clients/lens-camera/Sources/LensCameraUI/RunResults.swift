import GtkKit

/// This run's results, newest first: the thumbnail lensd sent at once, then what lensd's verifier
/// made of the kept file. The last-result button shows the newest, the viewer any of them.
final class RunResults {
    struct Result {
        let name: String
        let kind: ResultKind
        let thumbnail: Texture?
        /// nil while lensd signs it and the app keeps and verifies it.
        var verdict: Verdict?
        var file: String?
    }

    private(set) var all: [Result] = []
    /// After every change, on the main context.
    var onChange: () -> Void = {}

    var newest: Result? { all.first }

    func index(of name: String) -> Int? { all.firstIndex { $0.name == name } }

    func add(name: String, thumbnail: Texture?, kind: ResultKind) {
        guard index(of: name) == nil else { return }
        all.insert(Result(name: name, kind: kind, thumbnail: thumbnail), at: 0)
        onChange()
    }

    func mark(name: String, verdict: Verdict, file: String?) {
        guard let index = index(of: name) else { return }
        all[index].verdict = verdict
        all[index].file = file
        onChange()
    }

    func remove(name: String) {
        guard let index = index(of: name) else { return }
        all.remove(at: index)
        onChange()
    }
}
