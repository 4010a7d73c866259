import CarouselCore
/// A picture decoded top to bottom a band of rows at a time, into B,G,R,A rows (pixman's
/// a8r8g8b8), for the card maker's band resampler (CardScaler). JPEG and PNG both stream this
/// way, so only the rows a card band needs are held, never the whole picture.
package protocol RowSource: AnyObject {
    /// Size in stored orientation, after any decode-time scaling.
    var width: Int { get }
    var height: Int { get }
    var orientation: ExifOrientation { get }
    /// Rows carry premultiplied alpha that must be composited over the background.
    var hasAlpha: Bool { get }
    /// The next row to be decoded.
    var nextRow: Int { get }
    /// Decodes the next `rows` rows into `destination`, `pitch` bytes apart.
    func read(rows: Int, into destination: UnsafeMutableRawPointer, pitch: Int) throws(ImageError)
    /// Passes over the next `rows` rows (still decoded, so damage there is found).
    func skip(rows: Int) throws(ImageError)
    /// Passes over the rest of the picture and its end, as a whole decode would.
    func finish() throws(ImageError)
}
