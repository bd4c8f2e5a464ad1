import LensCore

/// Where fixes come from: gpsd (GPSDLocationProvider) in lensd; a fix source of their own in
/// in-process tests. Loop thread only.
protocol LocationSource: AnyObject {
    var status: LocationStatus { get }
    var currentFix: LocationFix? { get }
    /// Called on the loop thread whenever the status changes.
    var onChange: ((LocationStatus) -> Void)? { get set }
    func start()
    func stop()
}

extension GPSDLocationProvider: LocationSource {}
