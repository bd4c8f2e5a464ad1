/// Lets a handler made before its flow exists (a queue's event handler, given to the queue the
/// flow is made with) reach the flow once it does; crosses threads inside Confined.
final class Relay<Flow: AnyObject> {
    weak var flow: Flow?
}
