import FuzzSupport
@testable import CarouselPixels

/// JPEG files through `ImageDecoder` (libjpeg band decoder or TurboJPEG, EXIF orientation, scaling).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    ImageFuzzing.run(data, size, signature: [(0, [0xFF, 0xD8, 0xFF])])
    return 0
}

runLibFuzzer(fuzz)
