/// Which way each camera faces: what the device says (V4L2_CID_CAMERA_ORIENTATION), else what
/// the configuration says for its path, else by order (the first is `back`, the second `front`,
/// any more `external`), as phones and laptops most often have them.
public enum V4L2Positions {
    public static func assign(paths: [String], reported: [CameraPosition?],
                              configured: [String: CameraPosition]) -> [CameraPosition] {
        precondition(paths.count == reported.count)
        return paths.indices.map { index in
            reported[index] ?? configured[paths[index]] ?? byOrder(index)
        }
    }

    private static func byOrder(_ index: Int) -> CameraPosition {
        switch index {
        case 0: .back
        case 1: .front
        default: .external
        }
    }
}
