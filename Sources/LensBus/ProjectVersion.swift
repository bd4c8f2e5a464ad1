/// The lensd release this build belongs to. Daemon and clients both link LensBus, so lensd's
/// `Version` property and `lensctl --version` cannot disagree; `make dist` reads it from here.
public enum ProjectVersion {
    public static let string = "0.1.0"
}
