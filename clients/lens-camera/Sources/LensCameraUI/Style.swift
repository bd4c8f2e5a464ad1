/// The app's look, in GTK's CSS. Sizes the layout depends on (bar heights, the capture button)
/// are fixed here, so the window lays out the same on every desktop.
enum Style {
    static let controlBarHeight = 96
    static let stripHeight = 84
    static let css = """
    .preview { background: black; }
    .control-bar { background: #1e1e1e; min-height: \(controlBarHeight)px; padding: 0 12px; }
    .control-bar button { color: white; background: #3a3a3a; border: none; margin: 0 4px; }
    .control-bar button:disabled { color: #777; background: #2a2a2a; }
    button.capture { min-width: 64px; min-height: 64px; border-radius: 9999px; padding: 0;
                     background: white; border: 4px solid #bbbbbb; color: #202020; font-size: 20px; }
    button.capture.video { background: #e01b24; color: white; }
    button.capture.recording { background: #a51d2d; border-color: #e01b24; }
    button.capture:disabled { background: #555555; border-color: #444444; color: #888; }
    .strip { background: #2a2a2a; min-height: \(stripHeight)px; padding: 0 8px; }
    .strip button { padding: 0; margin: 0 4px; border: none; background: none; }
    .badge { border-radius: 9px; padding: 0 5px; font-weight: bold; margin: 3px; }
    .badge.verified { background: #26a269; color: white; }
    .badge.pending { background: #5e5c64; color: white; }
    .badge.invalid { background: #c01c28; color: white; }
    .badge.unsigned { background: #e66100; color: white; }
    .video-length { background: rgba(0,0,0,0.6); color: white; padding: 0 4px; margin: 3px; }
    .banner { background: #c01c28; color: white; padding: 6px 10px; }
    .banner button { color: white; background: rgba(255,255,255,0.2); border: none; }
    .reasons { background: rgba(0,0,0,0.75); color: #ffd479; padding: 8px 14px; border-radius: 8px; margin: 12px; font-size: 15px; }
    .instruction { background: rgba(0,0,0,0.7); color: white; padding: 6px 16px; border-radius: 8px; margin: 48px 12px; font-size: 18px; font-weight: bold; }
    button.face-on { background: #26a269; }
    .indicator { background: rgba(0,0,0,0.6); color: white; padding: 2px 8px; border-radius: 6px; margin: 10px; }
    .recording-time { background: #c01c28; color: white; padding: 2px 10px; border-radius: 6px; margin: 10px; font-weight: bold; }
    .shutter { background: white; }
    .unavailable-title { font-size: 22px; font-weight: bold; }
    .unavailable { padding: 40px; }
    """
}
