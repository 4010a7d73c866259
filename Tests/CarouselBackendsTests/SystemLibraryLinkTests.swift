import XCTest
import CDRM
import CInput
import CImaging
import CSystemd

/// Proves each system library module really links and answers, not just compiles.
final class SystemLibraryLinkTests: XCTestCase {
    func testLibdrmLinks() {
        // No /dev/dri on the build machine: the call must still link and answer 0 or 1.
        let available = drmAvailable()
        XCTAssert(available == 0 || available == 1)
        XCTAssertEqual(cdrm_format_xrgb8888(), 0x3432_5258) // 'XR24'
    }

    func testLibudevAndLibinputLink() throws {
        let udev = try XCTUnwrap(udev_new())
        defer { udev_unref(udev) }
        var iface = libinput_interface(open_restricted: { _, _, _ in -1 }, close_restricted: { _, _ in })
        let li = try XCTUnwrap(libinput_udev_create_context(&iface, nil, udev))
        libinput_unref(li)
    }

    func testImagingLibrariesLink() throws {
        let tj = try XCTUnwrap(tjInitDecompress())
        tjDestroy(tj)
        let img = try XCTUnwrap(pixman_image_create_bits(PIXMAN_x8r8g8b8, 4, 4, nil, 0))
        pixman_image_unref(img)
        XCTAssertNotNil(png_get_libpng_ver(nil))
        XCTAssertGreaterThan(WebPGetDecoderVersion(), 0)
        let exif = try XCTUnwrap(exif_data_new())
        exif_data_unref(exif)
    }

    func testLibsystemdLinks() {
        // Outside systemd there is no NOTIFY_SOCKET: sd_notify answers 0 ("not sent").
        unsetenv("NOTIFY_SOCKET")
        XCTAssertEqual(sd_notify(0, "READY=1"), 0)
    }
}
