import Foundation

/// An NMEA log from Tests/fixtures/nmea, split into receiver epochs for the feeder, with the
/// positions it states, which is what the tests expect gpsd to report.
public struct GpsdNMEALog {
    /// One position as the log's GGA sentence states it.
    public struct Position: Equatable {
        public var latitude: Double
        public var longitude: Double
        /// GGA's altitude field: metres above mean sea level; nil in a 2D log.
        public var altitudeMSL: Double?
        public var hdop: Double
        /// What gpsd 3.22 reports as eph for this HDOP with GGA quality 1 (measured; see
        /// gen_nmea.py).
        public var eph: Double { hdop * 19.0 }
    }

    /// The sentences of each epoch (each starts with a GGA), CRLF-terminated as sent.
    public let epochs: [Data]
    /// Each distinct position of the log's fix epochs, in order of first appearance.
    public let positions: [Position]
    /// From the first to the last RMC time stamp: the receiver's clock, not the host's.
    public let receiverTimes: ClosedRange<Date>

    public init(named name: String) throws {
        let url = TestTools.repoRoot.appendingPathComponent("Tests/fixtures/nmea/\(name)")
        let sentences = try String(contentsOf: url, encoding: .ascii)
            .split(whereSeparator: \.isNewline)
            .filter { $0.hasPrefix("$") }
        var epochs: [String] = []
        var positions: [Position] = []
        var times: [Date] = []
        for sentence in sentences {
            if sentence.dropFirst(3).hasPrefix("RMC"), let time = Self.time(rmc: sentence) {
                times.append(time)
            }
            guard sentence.dropFirst(3).hasPrefix("GGA") else {
                epochs[epochs.count - 1] += sentence + "\r\n"
                continue
            }
            epochs.append(sentence + "\r\n")
            if let position = Self.position(gga: sentence), positions.last != position {
                positions.append(position)
            }
        }
        self.epochs = epochs.map { Data($0.utf8) }
        self.positions = positions
        receiverTimes = times.first!...times.last!
    }

    /// `$GPRMC,hhmmss.ss,status,lat,N,lon,E,speed,track,ddmmyy,...` as UTC.
    private static func time(rmc: Substring) -> Date? {
        let field = rmc.split(separator: ",", omittingEmptySubsequences: false)
        let format = DateFormatter()
        format.locale = Locale(identifier: "en_US_POSIX")
        format.timeZone = TimeZone(identifier: "UTC")
        format.dateFormat = "ddMMyy HHmmss.SS"
        return format.date(from: "\(field[9]) \(field[1])")
    }

    /// `$GPGGA,hhmmss.ss,ddmm.mmmm,N,dddmm.mmmm,E,quality,sats,hdop,alt,M,...`; nil without a fix.
    private static func position(gga: Substring) -> Position? {
        let field = gga.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        guard field[6] != "0", let hdop = Double(field[8]) else { return nil }
        return Position(
            latitude: degrees(field[2], degreeDigits: 2, negative: field[3] == "S"),
            longitude: degrees(field[4], degreeDigits: 3, negative: field[5] == "W"),
            altitudeMSL: Double(field[9]), hdop: hdop)
    }

    private static func degrees(_ text: String, degreeDigits: Int, negative: Bool) -> Double {
        let value = Double(text.prefix(degreeDigits))! + Double(text.dropFirst(degreeDigits))! / 60
        return negative ? -value : value
    }
}
