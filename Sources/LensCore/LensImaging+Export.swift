// LensCore's users see the imaging module as part of it, as before it was split out.
@_exported import LensImaging
