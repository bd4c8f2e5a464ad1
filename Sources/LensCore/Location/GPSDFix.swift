import CGPS
import FoundationEssentials

extension LocationFix {
    /// The position in one gpsd TPV report (`fix` of a read with MODE_SET), or nil when the
    /// report has none we may record.
    ///
    /// Validity comes from `mode` plus finiteness, never from `fix.status`: gpsd 3.22 reports a
    /// plain GPS fix as status 0, the same as "unknown".
    init?(gpsd fix: gps_fix_t, receivedAt: Date) {
        let mode: FixMode
        switch fix.mode {
        case MODE_2D: mode = .twoD
        case MODE_3D: mode = .threeD
        default: return nil
        }
        guard fix.latitude.isFinite, fix.longitude.isFinite else { return nil }
        // The manifest records the receiver's own time. gpsd sends the first TPV of a new fix
        // with time 0 when the receiver has not yet sent a date (NMEA GGA carries only the
        // time of day; RMC brings the date); the next report has it, so wait for that rather
        // than invent one.
        guard fix.time.tv_sec != 0 else { return nil }

        // Accuracy radius: `eph`, gpsd's "estimated horizontal position error" in metres, which
        // its UERE model scales to about 95 % confidence. It is the one horizontal estimate
        // gpsd fills for every receiver: from HDOP for NMEA (3.22: eph = HDOP x 19 m, or x 4.75
        // with DGPS) and from the receiver's own figure for binary protocols. The alternative,
        // 2DRMS from GST's 1-sigma lat/lon errors, exists only for NMEA receivers that send
        // GST, arrives as a separate report that would have to be paired with its TPV by time,
        // and mixing the two would let the gate flip between two models from one epoch to the
        // next. `epx`/`epy` are NaN without xDOP/yDOP, and `g.dop` stays NaN without SKY.
        let accuracy = fix.eph.isFinite ? fix.eph : .infinity

        // altMSL (not the deprecated `altitude`, nor altHAE: exif:GPSAltitude is above sea
        // level) and only for a 3D fix: gpsd may carry a stale altitude into 2D.
        let altitude = mode == .threeD && fix.altMSL.isFinite ? fix.altMSL : nil

        self.init(
            latitude: fix.latitude, longitude: fix.longitude, altitude: altitude,
            horizontalAccuracy: accuracy, mode: mode,
            fixTime: Date(timeIntervalSince1970: Double(fix.time.tv_sec) + Double(fix.time.tv_nsec) / 1e9),
            receivedAt: receivedAt)
    }
}
