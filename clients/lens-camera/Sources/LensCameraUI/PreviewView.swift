import Foundation
import GtkKit
import LensClient

/// The live preview filling its space (fit or fill), with what is drawn over it: the focus
/// reticle, the zoom, location and recording indicators, the capture-disabled reasons, the
/// countdown and the shutter flash. Turns clicks into frame points and pinches / Ctrl+scroll
/// into absolute zoom factors.
final class PreviewView {
    let root: Overlay
    private let picture = Picture()
    private let reticleLayer: DrawingArea
    private let zoomIndicator = Label("1.0×")
    let recordingTime = Label("00:00")
    let reasons = ReasonsView()
    /// The current fix's accuracy, while location decides whether capture may go ahead.
    let location = Label()
    /// The seconds left before the photo or recording, large in the middle.
    let countdown = Label()
    /// Face mode's instruction ("Move closer", "Hold still..."), at the top of the preview.
    let instruction = Label()
    private let shutter = Box(.vertical)

    private var frameSize: (width: Double, height: Double) = (0, 0)
    private var reticle: LensPoint?
    private var reticleTimer: UInt32?
    private var shutterTimer: UInt32?
    /// Face mode: the detection area and the face lensd found, drawn over the preview.
    var face: FaceOverlay? { didSet { reticleLayer.queueDraw() } }
    private var pinch: ZoomGesture?
    private var scrollZoom = ScrollZoom()

    var scaling: PreviewGeometry.Scaling = .fit {
        didSet {
            picture.fit = scaling == .fit ? .contain : .cover
            reticleLayer.queueDraw()
        }
    }
    /// The factor lensd last reported, and the camera's maximum.
    var zoomFactor = 1.0 { didSet { zoomIndicator.text = DisplayText.zoom(zoomFactor) } }
    var maximumZoom = 1.0

    var onFocus: (LensPoint) -> Void = { _ in }
    var onZoom: (Double) -> Void = { _ in }

    init() {
        picture.allowShrinking()
        picture.addCSSClass("preview")
        picture.setExpand(horizontal: true, vertical: true)
        picture.setAccessibleName(tr("Camera preview: click to focus, pinch or Ctrl+scroll to zoom"))
        root = Overlay(child: picture)
        var drawReticle: DrawingArea.Draw = { _, _, _ in }
        reticleLayer = DrawingArea { cairo, width, height in drawReticle(cairo, width, height) }
        drawReticle = { [unowned self] cairo, _, _ in draw(Painter(cairo)) }
        reticleLayer.receivesPointer = false
        root.addLayer(reticleLayer)

        shutter.addCSSClass("shutter")
        shutter.receivesPointer = false
        shutter.isVisible = false
        root.addLayer(shutter)

        addLabelLayer(zoomIndicator, css: "indicator", horizontal: .end, vertical: .start, shown: true, describedAs: tr("Zoom factor"))
        addLabelLayer(recordingTime, css: "recording-time", horizontal: .center, vertical: .start,
                      describedAs: tr("Recording duration"))
        addLabelLayer(instruction, css: "instruction", horizontal: .center, vertical: .start,
                      describedAs: tr("Face capture instruction"))
        addLabelLayer(location, css: "indicator", horizontal: .start, vertical: .start, describedAs: tr("Location accuracy"))
        addLabelLayer(countdown, css: "countdown-number", horizontal: .center, vertical: .center, describedAs: tr("Countdown"))
        root.addLayer(reasons.root)

        picture.add(ClickGesture { [unowned self] x, y in clicked(x: x, y: y) })
        picture.add(PinchGesture(began: { [unowned self] in
            pinch = ZoomGesture(startFactor: zoomFactor, maximum: maximumZoom)
        }, scaleChanged: { [unowned self] scale in
            if let pinch { onZoom(pinch.factor(forCumulativeScale: scale)) }
        }))
        picture.add(ScrollController { [unowned self] _, dy, modifiers in
            guard modifiers.contains(.control) else { return false }
            onZoom(scrollZoom.factor(afterScroll: dy, at: ProcessInfo.processInfo.systemUptime,
                                     currentFactor: zoomFactor, maximum: maximumZoom))
            return true
        })
    }

    /// A text over the picture that clicks go through.
    private func addLabelLayer(_ label: Label, css: String, horizontal: Widget.Align, vertical: Widget.Align, shown: Bool = false,
                               describedAs description: String) {
        label.addCSSClass(css)
        label.setAlign(horizontal: horizontal, vertical: vertical)
        label.receivesPointer = false
        label.isVisible = shown
        label.setAccessibleDescription(description)
        root.addLayer(label)
    }

    func show(_ frame: Texture) {
        frameSize = (Double(frame.width), Double(frame.height))
        picture.show(frame)
    }

    private var geometry: PreviewGeometry {
        PreviewGeometry(frameWidth: frameSize.width, frameHeight: frameSize.height,
                        viewWidth: picture.width, viewHeight: picture.height, scaling: scaling)
    }

    private func clicked(x: Double, y: Double) {
        guard let point = geometry.framePoint(atViewX: x, y: y) else { return }
        onFocus(LensPoint(x: point.x, y: point.y))
    }

    /// Shows the reticle where the camera focused, for two seconds.
    func showReticle(at point: LensPoint) {
        reticle = point
        reticleLayer.queueDraw()
        if let reticleTimer { MainContext.cancel(reticleTimer) }
        reticleTimer = MainContext.after(milliseconds: 2000) { [weak self] in
            self?.reticleTimer = nil
            self?.reticle = nil
            self?.reticleLayer.queueDraw()
        }
    }

    private func draw(_ painter: Painter) {
        guard frameSize.width > 0 else { return }
        let geometry = geometry
        if let face {
            // The area lensd searches, faintly; the face white, green once it is good enough.
            painter.setColor(red: 1, green: 1, blue: 1, alpha: 0.5)
            strokeFrameRectangle(painter, geometry, FaceMode.detectionArea, inset: 2, lineWidth: 2)
            if let box = face.face {
                if face.isValid { painter.setColor(red: 0.15, green: 0.64, blue: 0.41) } else { painter.setColor(red: 1, green: 1, blue: 1) }
                strokeFrameRectangle(painter, geometry, box, inset: 0, lineWidth: 4)
            }
        }
        if let reticle {
            let center = geometry.viewPoint(atFrameX: reticle.x, y: reticle.y)
            painter.setColor(red: 1, green: 0.85, blue: 0.2)
            painter.strokeRectangle(x: center.x - 36, y: center.y - 36, width: 72, height: 72, lineWidth: 2)
            painter.line(from: (center.x - 8, center.y), to: (center.x + 8, center.y), lineWidth: 2)
            painter.line(from: (center.x, center.y - 8), to: (center.x, center.y + 8), lineWidth: 2)
        }
    }

    /// A rectangle given in normalized frame coordinates, where the preview shows it.
    private func strokeFrameRectangle(_ painter: Painter, _ geometry: PreviewGeometry,
                                      _ box: (left: Double, top: Double, right: Double, bottom: Double),
                                      inset: Double, lineWidth: Double) {
        let topLeft = geometry.viewPoint(atFrameX: box.left, y: box.top)
        let bottomRight = geometry.viewPoint(atFrameX: box.right, y: box.bottom)
        painter.strokeRectangle(x: topLeft.x + inset, y: topLeft.y + inset, width: bottomRight.x - topLeft.x - 2 * inset,
                                height: bottomRight.y - topLeft.y - 2 * inset, lineWidth: lineWidth)
    }

    /// A brief white flash over the preview as the photo is taken.
    func flashShutter() {
        shutter.isVisible = true
        if let shutterTimer { MainContext.cancel(shutterTimer) }
        shutterTimer = MainContext.after(milliseconds: 120) { [weak self] in
            self?.shutterTimer = nil
            self?.shutter.isVisible = false
        }
    }

    /// Its window is closing: the reticle and the shutter flash no longer end on screen.
    func stopTimers() {
        for timer in [reticleTimer, shutterTimer].compactMap({ $0 }) { MainContext.cancel(timer) }
        reticleTimer = nil
        shutterTimer = nil
    }
}
