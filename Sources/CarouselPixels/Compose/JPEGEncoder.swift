import CarouselCore
import CImaging

/// JPEG encoding with libturbojpeg, for the benchmark's generated photos and the tests.
/// (carouseld itself only reads JPEG.)
package enum JPEGEncoder {
    package static func encode(_ image: PixelImage, quality: Int = 90, subsampling: TJSAMP = TJSAMP_420,
                       progressive: Bool = false) -> [UInt8]? {
        guard image.format == PIXMAN_x8r8g8b8 || image.format == PIXMAN_a8r8g8b8,
              let handle = tjInitCompress() else { return nil }
        defer { tjDestroy(handle) }
        var output: UnsafeMutablePointer<UInt8>? = nil
        var size: UInt = 0
        let result = tjCompress2(handle, image.base.assumingMemoryBound(to: UInt8.self), Int32(image.width),
                                 Int32(image.stride), Int32(image.height), Int32(TJPF_BGRX.rawValue),
                                 &output, &size, Int32(subsampling.rawValue), Int32(quality),
                                 progressive ? Int32(TJFLAG_PROGRESSIVE) : 0)
        defer { if let output { tjFree(output) } }
        guard result == 0, let output else { return nil }
        return Array(UnsafeBufferPointer(start: output, count: Int(size)))
    }
}
