// LensClient: LensCamera and LensCameraDelegate over D-Bus.
