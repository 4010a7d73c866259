import CarouselCore
import CDRM

/// libdrm's getters, each returning a handle that frees the struct with its own drmModeFree*:
/// nil where libdrm returned NULL (an object gone, out of memory, not a KMS device).
package enum DrmObjects {
    package static func resources(_ fd: Int32) -> CHandle<drmModeResPtr>? {
        CHandle(drmModeGetResources(fd), release: drmModeFreeResources)
    }
    package static func connector(_ fd: Int32, _ id: UInt32) -> CHandle<drmModeConnectorPtr>? {
        CHandle(drmModeGetConnector(fd, id), release: drmModeFreeConnector)
    }
    package static func encoder(_ fd: Int32, _ id: UInt32) -> CHandle<drmModeEncoderPtr>? {
        CHandle(drmModeGetEncoder(fd, id), release: drmModeFreeEncoder)
    }
    package static func crtc(_ fd: Int32, _ id: UInt32) -> CHandle<drmModeCrtcPtr>? {
        CHandle(drmModeGetCrtc(fd, id), release: drmModeFreeCrtc)
    }
    package static func planeResources(_ fd: Int32) -> CHandle<drmModePlaneResPtr>? {
        CHandle(drmModeGetPlaneResources(fd), release: drmModeFreePlaneResources)
    }
    package static func plane(_ fd: Int32, _ id: UInt32) -> CHandle<drmModePlanePtr>? {
        CHandle(drmModeGetPlane(fd, id), release: drmModeFreePlane)
    }
    package static func objectProperties(_ fd: Int32, _ id: UInt32, _ type: UInt32) -> CHandle<drmModeObjectPropertiesPtr>? {
        CHandle(drmModeObjectGetProperties(fd, id, type), release: drmModeFreeObjectProperties)
    }
    package static func property(_ fd: Int32, _ id: UInt32) -> CHandle<drmModePropertyPtr>? {
        CHandle(drmModeGetProperty(fd, id), release: drmModeFreeProperty)
    }
    package static func atomicRequest() -> CHandle<drmModeAtomicReqPtr>? {
        CHandle(drmModeAtomicAlloc(), release: drmModeAtomicFree)
    }
    package static func version(_ fd: Int32) -> CHandle<drmVersionPtr>? {
        CHandle(drmGetVersion(fd), release: drmFreeVersion)
    }
}
