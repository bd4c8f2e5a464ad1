import Foundation
import GtkKit
import LensClient

/// `lens-camera [--bus system|session|ADDRESS]`: runs the app until its window closes.
public enum LensCameraApp {
    public static func main(arguments: [String]) -> Int32 {
        let bus: BusAddress
        do {
            bus = try BusChoice.parse(arguments)
        } catch {
            FileHandle.standardError.write(Data("lens-camera: \(error)\n".utf8))
            return 2
        }
        // The id names the installed desktop entry, icon and metainfo (clients/lens-camera/data).
        let application = Application(id: "org.lensd.LensCamera")
        var window: CameraWindow?
        return application.run { application in
            application.loadStyle(Style.css)
            // Where `make install-app` puts the app's own action icons (the flash), beside the binary.
            application.addIcons(from: Translation.installPrefix.appendingPathComponent("share/icons").path)
            Window.setDefaultIcon(named: "org.lensd.LensCamera")
            window = window ?? CameraWindow(application: application, bus: bus)
            window?.present()
        }
    }
}
