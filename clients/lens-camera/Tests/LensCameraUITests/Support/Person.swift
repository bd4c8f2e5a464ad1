import Foundation
import LensTestSupport

/// Synthesized input through XTEST (xdotool): what a person does with mouse and keyboard.
struct Person {
    let display: String

    func click(x: Int, y: Int) throws {
        try xdotool(["mousemove", String(x), String(y), "click", "1"])
    }

    /// A key by its X name: "space", "v", "f", "c".
    func press(_ key: String) throws {
        try xdotool(["key", key])
    }

    /// Ctrl held while the wheel turns `notches` steps away from the user (zoom in).
    func controlScrollUp(x: Int, y: Int, notches: Int) throws {
        try xdotool(["mousemove", String(x), String(y), "keydown", "ctrl",
                     "click", "--repeat", String(notches), "--delay", "40", "4", "keyup", "ctrl"])
    }

    /// As dragging the window's corner does (there is no window manager to drag it with).
    func resizeWindow(named name: String, width: Int, height: Int) throws {
        try xdotool(["search", "--name", name, "windowsize", String(width), String(height)])
    }

    private func xdotool(_ arguments: [String]) throws {
        let r = try runProcess(["xdotool"] + arguments, env: ["DISPLAY": display])
        guard r.status == 0 else { throw TestToolError("xdotool \(arguments.joined(separator: " ")): \(String(decoding: r.stderr, as: UTF8.self))") }
    }
}
