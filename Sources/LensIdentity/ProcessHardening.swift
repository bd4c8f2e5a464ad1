import LensSystem
/// Keeps the device key out of reach of other processes and out of crash dumps.
public enum ProcessHardening {
    /// Makes the process non-dumpable (prctl PR_SET_DUMPABLE 0): no core file, and neither
    /// ptrace nor /proc/<pid>/mem for other processes of the same user, only for CAP_SYS_PTRACE.
    /// The core size limit is set to 0 as well, because under fs.suid_dumpable=2 the kernel still
    /// dumps non-dumpable processes. Call it before the key is loaded.
    public static func disableCoreDumps() throws {
        try CurrentProcess.setDumpable(false)
        try CurrentProcess.setCoreSizeLimit(0)
    }
}
