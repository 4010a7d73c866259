import FuzzSupport
@testable import CarouselPixels

/// PNG files through `ImageDecoder` (libpng's simplified API, alpha over the background, scaling).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    ImageFuzzing.run(data, size, signature: [(0, [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])])
    return 0
}

runLibFuzzer(fuzz)
