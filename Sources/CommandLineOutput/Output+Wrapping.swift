extension Output {
    /// `text` after `label`, wrapped to `width` columns with the continuation lines indented under the text: words
    /// (split at spaces) are never cut unless one alone is wider than the line, and nothing is ever dropped.
    ///
    /// `wrapped("subject  ", "urn:fdc:…")` keeps a subject whole on one line whenever it fits in `width`.
    package static func wrapped(_ label: String, _ text: String, width: Int = 80) -> [String] {
        let indent = String(repeating: " ", count: label.count)
        let room = max(1, width - label.count)
        var lines: [String] = []
        var current = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: true).map(String.init) {
            if current.isEmpty {
                current = word
            } else if current.count + 1 + word.count <= room {
                current += " " + word
            } else {
                lines.append(current)
                current = word
            }
            // A word wider than the line (a long subject) is split across lines, every character kept.
            while current.count > room {
                lines.append(String(current.prefix(room)))
                current = String(current.dropFirst(room))
            }
        }
        if !current.isEmpty || lines.isEmpty { lines.append(current) }
        return lines.enumerated().map { ($0.offset == 0 ? label : indent) + $0.element }
    }
}
