#if canImport(Glibc)
import Glibc
#endif

/// Settings of lensd's own process that keep key material out of core dumps and ptrace.
public enum CurrentProcess {
    /// prctl(PR_SET_DUMPABLE).
    public static func setDumpable(_ dumpable: Bool) throws(SystemError) {
        try SystemCalls.setDumpable(dumpable)
    }

    /// setrlimit(RLIMIT_CORE), soft and hard.
    public static func setCoreSizeLimit(_ bytes: rlim_t) throws(SystemError) {
        try SystemCalls.setCoreSizeLimit(bytes)
    }
}
