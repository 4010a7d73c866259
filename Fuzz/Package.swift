// swift-tools-version:6.0
import PackageDescription

// libFuzzer targets for carouseld, one executable per input the daemon reads. Not part of the
// main package, so `swift build` and `swift test` never build them; scripts/fuzz builds them with
// `-sanitize=fuzzer,address` (libFuzzer then provides `main`) and CAROUSELD_FUZZ_LIBRARY=1, which
// makes the main package offer `carouseld` as a library (see ../Package.swift).

// A path dependency's identity is its directory's name, whatever the checkout is called.
let root = Context.packageDirectory.split(separator: "/").dropLast().last.map(String.init) ?? "carouseld"
let daemon = Target.Dependency.product(name: "carouseld", package: root)
let engine = Target.Dependency.product(name: "CarouselEngine", package: root)
// The daemon's layers, each its own module: the parsers and decoders are reached in them.
let layers: [Target.Dependency] = ["CarouselCore", "CarouselPixels", "CarouselConfig", "CarouselBackends"]
    .map { .product(name: $0, package: root) }

let fuzzers = ["config", "playlist", "recording", "touchscript", "jpeg", "png", "webp", "engine"]

let package = Package(
    name: "carouseld-fuzz",
    dependencies: [.package(path: "..")],
    targets: [
        .target(name: "CLibFuzzer"),
        .target(name: "FuzzSupport", dependencies: ["CLibFuzzer", daemon, engine] + layers),
    ] + fuzzers.map { name in
        .executableTarget(name: "fuzz-\(name)", dependencies: ["FuzzSupport", daemon, engine] + layers,
                          path: "Sources/fuzz-\(name)")
    }
)
