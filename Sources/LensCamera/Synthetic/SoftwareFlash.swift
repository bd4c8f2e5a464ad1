import FoundationEssentials
import Glibc

/// The synthetic camera's flash: a gamma lift, out = 255·(in/255)^0.6, applied to the scene's
/// colours. Mid-tones and shadows brighten visibly (the grey field goes from 110 to 154) while
/// 0 and 255 keep their values, so the red marker stays pure red with the flash on.
enum SoftwareFlash {
    private static let curve: [UInt8] = (0...255).map { UInt8((pow(Double($0) / 255, 0.6) * 255).rounded()) }

    static func illuminate(_ color: RGBColor) -> RGBColor {
        RGBColor(curve[Int(color.red)], curve[Int(color.green)], curve[Int(color.blue)])
    }
}
