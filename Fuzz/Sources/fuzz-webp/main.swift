import FuzzSupport
@testable import CarouselPixels

/// WebP files through `ImageDecoder` (libwebp, scaling).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    ImageFuzzing.run(data, size, signature: [(0, Array("RIFF".utf8)), (8, Array("WEBP".utf8))])
    return 0
}

runLibFuzzer(fuzz)
