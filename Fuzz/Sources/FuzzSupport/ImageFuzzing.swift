import CarouselEngine
@testable import carouseld
@testable import CarouselPixels

/// One image input through the daemon's only decode path (`ImageDecoder.makeCard`, as the
/// image store's worker calls it), from a file in /dev/shm standing in for the file. `signature` is
/// written over the first bytes so that each target stays on its own decoder. A card, when made,
/// must have the spec's size. The pixel cap is 4 megapixels rather than the default 100, so a
/// header claiming a huge picture is refused quickly instead of making every run slow.
public enum ImageFuzzing {
    nonisolated(unsafe) private static var file: MemoryFile?
    nonisolated(unsafe) private static var scratch: [UInt8] = []

    public static func run(_ data: UnsafePointer<UInt8>?, _ size: Int, signature: [(offset: Int, bytes: [UInt8])]) {
        let file = Self.file ?? MemoryFile(name: "image")
        Self.file = file
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: UnsafeBufferPointer(start: data, count: size))
        for part in signature where scratch.count >= part.offset + part.bytes.count {
            scratch.replaceSubrange(part.offset..<part.offset + part.bytes.count, with: part.bytes)
        }
        scratch.withUnsafeBufferPointer { file.write($0.baseAddress, $0.count) }
        for fit in [FitMode.cover, .contain] {
            let spec = CardSpec(width: 48, height: 32, fit: fit, maxImagePixels: 4_000_000)
            guard let card = try? ImageDecoder.makeCard(path: file.path, spec: spec) else { return }
            if card.width != spec.width || card.height != spec.height {
                fuzzFailure("card \(card.width)x\(card.height) for spec \(spec.width)x\(spec.height)")
            }
        }
    }
}
