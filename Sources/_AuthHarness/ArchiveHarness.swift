import AuthAppSupport
public import Foundation

/// The binary property list and keyed-archive reader that vendor-session adoption runs on whatever another app
/// planted, for the fuzzer. Not API.
public enum ArchiveHarness {
    /// Decodes `data` as a binary property list and as a keyed archive, reading a few fields as adoption does.
    public static func decode(_ data: Data) {
        _ = try? BinaryPropertyList.decode(data)
        if let archive = try? KeyedArchive(data) {
            _ = (archive.className, archive.string("accessToken"), archive.date("expiresAt"), archive.object("lastTokenResponse"))
        }
    }
}
