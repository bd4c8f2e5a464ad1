/// The app's look, in GTK's CSS, over GTK's own Adwaita theme. Sizes the layout depends on (the
/// control bar, the capture button, the last result) are fixed here, so the window lays out the
/// same on every desktop.
enum Style {
    static let controlBarHeight = 96
    static let lastResultSize = 56
    static let css = """
    .preview { background: black; }
    .control-bar { background: #1e1e1e; min-height: \(controlBarHeight)px; padding: 0 16px; }
    .control-bar button.circular { color: white; background: #3a3a3a; border: none; min-width: 40px; min-height: 40px; }
    .control-bar button.circular:checked { background: #26a269; }
    .control-bar button.circular:disabled { color: #777; background: #2a2a2a; }
    .control-bar menubutton > button { color: white; background: #3a3a3a; border: none; border-radius: 9999px;
                                       min-width: 40px; min-height: 40px; }
    .control-bar menubutton > button:disabled { color: #777; background: #2a2a2a; }
    .control-bar menubutton.flash-off > button, .control-bar menubutton.countdown-off > button { color: #9a9996; }
    button.capture { min-width: 64px; min-height: 64px; border-radius: 9999px; padding: 0;
                     background: white; border: 4px solid #bbbbbb; color: #202020; font-size: 20px; font-weight: bold; }
    button.capture.video { background: #e01b24; color: white; }
    button.capture.recording { background: #a51d2d; border-color: #e01b24; }
    button.capture:disabled { background: #555555; border-color: #444444; color: #888; }
    button.last-result { padding: 0; border-radius: 9999px; border: 2px solid #bbbbbb; background: #2a2a2a; }
    .last-result-picture { border-radius: 9999px; }
    .badge { border-radius: 9px; padding: 0 5px; font-weight: bold; font-size: 11px; }
    .badge.verified { background: #26a269; color: white; }
    .badge.pending { background: #5e5c64; color: white; }
    .badge.invalid { background: #c01c28; color: white; }
    .badge.unsigned { background: #e66100; color: white; }
    .video-length { background: rgba(0,0,0,0.6); color: white; padding: 2px 8px; margin: 12px; border-radius: 6px; }
    .banner { background: #c01c28; color: white; padding: 6px 10px; }
    .banner button { color: white; background: rgba(255,255,255,0.2); border: none; }
    .reasons { background: rgba(0,0,0,0.78); color: #ffd479; padding: 8px 14px; border-radius: 8px; margin: 12px; font-size: 15px; }
    .reasons-expander, .reasons-expander title { color: #deddda; font-size: 13px; }
    .reasons-details { color: #deddda; font-size: 12px; }
    .instruction { background: rgba(0,0,0,0.7); color: white; padding: 6px 16px; border-radius: 8px; margin: 48px 12px; font-size: 18px; font-weight: bold; }
    .countdown-number { color: white; font-size: 120px; font-weight: bold; text-shadow: 0 0 12px black; }
    .indicator { background: rgba(0,0,0,0.6); color: white; padding: 2px 8px; border-radius: 6px; margin: 10px; }
    .recording-time { background: #c01c28; color: white; padding: 2px 10px; border-radius: 6px; margin: 10px; font-weight: bold; }
    .shutter { background: white; }
    .viewer-bar { padding: 6px; }
    .viewer-position { font-weight: bold; }
    .viewer-picture { background: black; }
    .viewer-details { padding: 10px 14px; }
    .unavailable-title { font-size: 22px; font-weight: bold; }
    .unavailable { padding: 40px; }
    """
}
