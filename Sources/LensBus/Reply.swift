import CSystemd

/// How a method call is answered, shared by direct and deferred replies.
enum Reply: Sendable {
    case values([BusValue])
    case error(BusError)

    /// Sends this answer to `request`; loop thread only. An answer that cannot be built (values
    /// not matching the declared signature, an invalid error name) still owes the caller a
    /// reply, so a generic error goes out instead of leaving it to time out.
    func send(to request: Message, declaredSignature: String) {
        guard sd_bus_message_get_expect_reply(request.pointer) > 0 else { return }
        do {
            try send(build(for: request, declaredSignature: declaredSignature))
        } catch {
            let fallback = Reply.error(.failed("The reply to \(request.member) could not be sent: \(error)"))
            try? fallback.send(fallback.build(for: request, declaredSignature: declaredSignature))
        }
    }

    private func build(for request: Message, declaredSignature: String) throws -> Message {
        var pointer: OpaquePointer?
        switch self {
        case .values(let values):
            guard values.signature == declaredSignature else {
                throw BusError.failed("\(request.member) returned '\(values.signature)' where '\(declaredSignature)' is declared")
            }
            try check(sd_bus_message_new_method_return(request.pointer, &pointer), "building a reply")
            let reply = Message(adopting: pointer!)
            try reply.append(values)
            return reply
        case .error(let error):
            var busError = sd_bus_error()
            defer { sd_bus_error_free(&busError) }
            _ = error.fill(&busError)
            try check(sd_bus_message_new_method_error(request.pointer, &pointer, &busError),
                      "building the error reply \(error.name)")
            return Message(adopting: pointer!)
        }
    }

    private func send(_ reply: Message) throws {
        try check(sd_bus_send(nil, reply.pointer, nil), "sending a reply")
    }
}
