import FoundationEssentials
import LensClient

/// How capture and record claim the camera: at once when it is free, else in lensd's queue
/// (first come, first served) until the command's deadline, saying who holds it.
enum CameraWait {
    static func claim(_ camera: LensCamera, deadline: ContinuousClock.Instant, timeout: Double) throws {
        let holder: String
        do {
            return try camera.startCaptureSession()
        } catch .busy(let message) {
            holder = message
        } catch {
            throw CommandFailure(error)
        }
        // lensd says "the camera is in use by USER (session N)".
        Output.note("waiting for the camera: \(holder.replacing("the camera is ", with: ""))")
        do {
            try camera.waitForCamera(timeout: max(.milliseconds(1), deadline - .now))
        } catch .busy(let message) {
            throw CommandFailure(.timeout, "gave up after \(Seconds.plain(timeout)) s waiting for the camera: \(message)")
        } catch {
            throw CommandFailure(error)
        }
    }
}
