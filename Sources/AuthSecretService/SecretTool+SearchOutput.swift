import Foundation

extension SecretTool {
    /// The items in `secret-tool search --all` standard output: each starts with a `[object path]` line, followed by
    /// `name = value` lines (`label`, `secret`, `created`, `modified`, `schema`); the `attribute.NAME` lines go to
    /// standard error.
    ///
    /// A secret is one line: the storage writes secrets without line breaks. An item whose secret line is missing is
    /// locked.
    static func parse(_ output: Data) -> [Item] {
        var items: [Item] = []
        var current: Item?
        for line in String(decoding: output, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: true) {
            if line.hasPrefix("["), line.hasSuffix("]") {
                if let current { items.append(current) }
                current = Item(label: nil, secret: nil)
                continue
            }
            guard current != nil, let separator = line.range(of: " = ") else { continue }
            let value = String(line[separator.upperBound...])
            switch line[..<separator.lowerBound] {
            case "label": current?.label = value
            case "secret": current?.secret = Data(value.utf8)
            default: continue
            }
        }
        if let current { items.append(current) }
        return items
    }
}
