import FoundationEssentials
import Glibc
import LensBus
import LensCore
import LensStorage
import LensSystem

/// Calls answered from the result store: the work runs on the storage thread (it reads and
/// copies files), the reply is sent from the loop.
struct StoreCalls {
    let store: ResultStore
    /// Reading results back copies whole files: off the bus thread, apart from signing.
    let worker: any JobQueue
    let loop: any LoopExecutor

    /// Runs `work` on the storage thread and answers `call` with its values. A memfd `fd` goes
    /// first in the reply; the reply dup()s it when built, then ours is closed.
    func answer(_ call: MethodCall,
                _ work: @escaping @Sendable (ResultStore) throws -> (values: [BusValue], fd: Int32?)) -> MethodResult {
        let reply = DeferredReply(for: call)
        let (store, loop) = (store, loop)
        worker.submit {
            let result = Result { try Self.mapStorageErrors { try work(store) } }
            loop.post {
                switch result {
                case .success(let answer):
                    reply.reply((answer.fd.map { [BusValue.fd($0)] } ?? []) + answer.values)
                    if let fd = answer.fd { try? FileDescriptor(adopting: fd).close() }
                case .failure(let error):
                    reply.fail(LensError.from(error).busError)
                }
            }
        }
        return .deferred(reply)
    }

    private static func mapStorageErrors<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch let error as StorageError where error.kind == .notFound {
            throw LensError.notFound("no result with that name for this user (results are kept per user, oldest dropped first)")
        }
    }

    /// A result name as clients send it: the lower-case UUID lensd gave the capture.
    static func resultName(_ call: MethodCall) throws -> String {
        guard let name = call.arguments.first?.stringValue, UUID(uuidString: name) != nil, name == name.lowercased() else {
            throw LensError.invalidArgument("a result name is the lower-case UUID that BeginCapture returned")
        }
        return name
    }
}
