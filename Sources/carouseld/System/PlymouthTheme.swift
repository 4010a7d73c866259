import CarouselCore
import CarouselEngine
import CarouselPixels
import FoundationEssentials

/// A plymouth theme of one picture, full screen, on plymouth's two-step plugin: two-step draws
/// the picture as its watermark and keeps plymouth's own password dialog (a LUKS root) and
/// messages, which a script theme would have to draw itself. No throbber and no end animation:
/// when plymouth goes idle at `deactivate`, the picture stays up (docs/boot-splash.md).
struct PlymouthTheme {
    static let name = "carouseld"
    /// The dialog's images, which two-step looks for in the theme's own folder.
    static let dialogImages = ["entry.png", "bullet.png", "lock.png", "capslock.png", "keyboard.png", "keymap-render.png"]

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    let directory: String
    /// A stock theme's folder to copy the dialog's images from (plymouth-themes' spinner).
    let stockImages: String

    func write(_ frame: PixelBuffer, background: RGB) throws(Failure) {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw Failure(description: "\(directory): cannot create the theme's folder (\(error))")
        }
        do throws(PNGWriter.Failure) { try PNGWriter.write(frame, to: "\(directory)/watermark.png") } catch {
            throw Failure(description: "\(directory)/watermark.png: \(error)")
        }
        for image in Self.dialogImages {
            let (from, to) = ("\(stockImages)/\(image)", "\(directory)/\(image)")
            guard let bytes = FileManager.default.contents(atPath: from) else { continue }
            guard FileManager.default.createFile(atPath: to, contents: bytes) else {
                throw Failure(description: "\(to): cannot write it")
            }
        }
        let description = plymouthFile(background: background)
        guard FileManager.default.createFile(atPath: "\(directory)/\(Self.name).plymouth", contents: Data(description.utf8)) else {
            throw Failure(description: "\(directory)/\(Self.name).plymouth: cannot write it")
        }
    }

    /// The theme's description: the picture centred (it is the screen's size), the config's
    /// background around it should the screen's mode differ, no animation.
    func plymouthFile(background: RGB) -> String {
        let colour = formatted("0x%06x", Int(background.value))
        return """
            [Plymouth Theme]
            Name=carouseld
            Description=The carousel's first picture (carouseld splash install)
            ModuleName=two-step

            [two-step]
            ImageDir=\(directory)
            WatermarkHorizontalAlignment=.5
            WatermarkVerticalAlignment=.5
            HorizontalAlignment=.5
            VerticalAlignment=.75
            DialogHorizontalAlignment=.5
            DialogVerticalAlignment=.5
            Transition=none
            TransitionDuration=0.0
            BackgroundStartColor=\(colour)
            BackgroundEndColor=\(colour)

            [boot-up]
            UseEndAnimation=false

            [shutdown]
            UseEndAnimation=false

            [reboot]
            UseEndAnimation=false

            """
    }
}
