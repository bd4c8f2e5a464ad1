import LensBus

/// Which bus to reach lensd on: `.system` (where the installed daemon lives), `.session`, or
/// `.address("unix:path=…")` for a private bus. The same type LensBus uses, so callers need
/// not import LensBus.
public typealias BusAddress = LensBus.BusAddress
