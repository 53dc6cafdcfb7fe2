import Foundation
import Testing

@Suite("The Architecture article names real files")
struct ArchitectureArticleTests {
    private static let sources = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/AuthCore")

    @Test("Every file the sign-in walk names exists, and the walk names at most 25 of them")
    func walk() throws {
        let article = try String(contentsOf: Self.sources.appendingPathComponent("AuthCore.docc/Architecture.md"), encoding: .utf8)
        let start = try #require(article.range(of: "## One sign-in, file by file"))
        let end = try #require(article.range(of: "A refresh reads the same way"))
        let walk = article[start.upperBound..<end.lowerBound]
        let pattern = try NSRegularExpression(pattern: "`([A-Za-z]+/[A-Za-z+]+\\.swift)`")
        let text = String(walk)
        let files = Set(
            pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)).map {
                String(text[Range($0.range(at: 1), in: text)!])
            })
        #expect(files.count >= 15 && files.count <= 25, "the walk names \(files.count) files")
        for file in files.sorted() {
            #expect(FileManager.default.fileExists(atPath: Self.sources.appendingPathComponent(file).path), "\(file) is named but missing")
        }
        #expect(text.contains("That is \(files.count) files of AuthCore"), "the article's own count matches")
    }
}
