/// Text that came from a provider (an `iss`, `alg`, `kid`, an OAuth error description, a claim) on its way into
/// an error message, a log line or a terminal.
///
/// A hostile provider can put ANSI escape sequences (rewriting what a terminal shows), carriage returns and
/// newlines (forging log lines), bidirectional overrides (reordering what is read) or NULs into any string it
/// controls. ``sanitized(_:limit:removingUnsafe:)`` replaces (or removes) every such scalar and caps the length.
package enum ProviderText {
    /// `text` with every control (C0, DEL, C1), bidirectional-formatting and line/paragraph-separator scalar
    /// replaced by `?` — or removed, with `removingUnsafe` (an OAuth error description, which reads better without
    /// the stray marks) — cut to `limit` scalars (an ellipsis marks a cut).
    package static func sanitized(_ text: String, limit: Int = 500, removingUnsafe: Bool = false) -> String {
        var scalars = String.UnicodeScalarView()
        var count = 0
        for scalar in text.unicodeScalars {
            if count == limit {
                scalars.append("…")
                break
            }
            if isUnsafe(scalar) {
                if removingUnsafe { continue }
                scalars.append("?")
            } else {
                scalars.append(scalar)
            }
            count += 1
        }
        return String(scalars)
    }

    /// Whether `text` would be changed by ``sanitized(_:limit:removingUnsafe:)`` (ignoring the length cap).
    package static func containsUnsafeCharacters(_ text: String) -> Bool {
        text.unicodeScalars.contains(where: isUnsafe)
    }

    private static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: true  // C0 (ESC, CR, LF, NUL, …), DEL, C1 (CSI 0x9B, …)
        case 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069, 0x061C: true  // bidi marks, embeddings, isolates
        case 0x2028, 0x2029: true  // line and paragraph separators
        default: false
        }
    }
}
