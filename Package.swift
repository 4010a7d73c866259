// swift-tools-version:6.0
import PackageDescription

// The fuzz targets (Fuzz/Package.swift, run by scripts/fuzz) reach the daemon's parsers and
// decoders through `@testable import carouseld`. A package can only import another package's
// libraries, so with CAROUSELD_FUZZ_LIBRARY set (scripts/fuzz sets it) `carouseld` is built as
// a library without its `@main` file. A plain `swift build` or `swift test` never sees it.
let fuzzLibrary = Context.environment["CAROUSELD_FUZZ_LIBRARY"] != nil
let carouseldDependencies: [Target.Dependency] = [
    "CarouselEngine", "CDRM", "CInput", "CImaging", "CJPEGStream", "CSystemd", "CYAML", "CTOML",
    .product(name: "ArgumentParser", package: "swift-argument-parser"),
    .product(name: "SystemPackage", package: "swift-system"),
]

let package = Package(
    name: "carouseld",
    platforms: [.macOS(.v13)],
    products: [
        fuzzLibrary ? .library(name: "carouseld", targets: ["carouseld"])
                    : .executable(name: "carouseld", targets: ["carouseld"]),
        .library(name: "CarouselEngine", targets: ["CarouselEngine"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // FileDescriptor and Errno: typed system calls, EINTR retried in one place.
        .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
    ],
    targets: [
        // libdrm: KMS modesetting, dumb buffers, page flips.
        .systemLibrary(
            name: "CDRM", pkgConfig: "libdrm",
            providers: [.apt(["libdrm-dev"])]),
        // libinput + libudev, plus Linux fd headers (epoll, timerfd, eventfd, signalfd, inotify).
        .systemLibrary(
            name: "CInput", pkgConfig: "libinput",
            providers: [.apt(["libinput-dev", "libudev-dev"])]),
        // Image codecs and pixel compositing: libturbojpeg, libpng, libwebp, libexif, pixman.
        .systemLibrary(
            name: "CImaging", pkgConfig: "pixman-1",
            providers: [.apt(["libturbojpeg0-dev", "libpng-dev", "libwebp-dev", "libexif-dev", "libpixman-1-dev"])]),
        // libsystemd: sd_notify for Type=notify, watchdog and status.
        .systemLibrary(
            name: "CSystemd", pkgConfig: "libsystemd",
            providers: [.apt(["libsystemd-dev"])]),
        // libyaml: reads `libinput record` files (Debian's library, not a bundled copy).
        .systemLibrary(
            name: "CYAML", pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"])]),
        // toml++ (Debian's libtomlplusplus3) behind a small C API: carouseld.conf.
        .target(
            name: "CTOML",
            cxxSettings: [.define("TOML_HEADER_ONLY", to: "0"), .define("TOML_SHARED_LIB", to: "1")],
            linkerSettings: [.linkedLibrary("tomlplusplus")]),
        // libjpeg's own API, a band of rows at a time; its fatal errors need setjmp (see the header).
        .target(name: "CJPEGStream", linkerSettings: [.linkedLibrary("jpeg")]),
        .target(name: "CarouselEngine"),
        fuzzLibrary ? .target(name: "carouseld", dependencies: carouseldDependencies, exclude: ["Carouseld.swift"])
                    : .executableTarget(name: "carouseld", dependencies: carouseldDependencies),
        // Helpers shared by both test targets (the seeded generator of the property and fuzz tests).
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "CarouselEngineTests", dependencies: ["CarouselEngine", "TestSupport"]),
        .testTarget(name: "carouseldTests", dependencies: ["carouseld", "CarouselEngine", "TestSupport", "CDRM", "CInput", "CImaging", "CSystemd"]),
    ],
    cxxLanguageStandard: .cxx17
)
