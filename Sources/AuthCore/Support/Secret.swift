/// A secret string — a token, authorization code, PKCE verifier or client secret — that never prints.
///
/// `description`, `debugDescription` and `dump` show `<redacted>`, so a secret that reaches a log line, an error
/// message or a crash report by accident leaks nothing. Writing one into a string with interpolation does not compile:
/// `"Bearer \(token)"` would silently send `Bearer <redacted>` (a mistake migrating code makes where a vendor SDK
/// returned plain strings). Read the value only where it must go on the wire, with ``reveal()``. It encodes as its
/// plain value, because storage must keep it.
public struct Secret: Sendable, Hashable, Codable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    private let value: String

    /// Wraps a secret value.
    public init(_ value: String) { self.value = value }

    /// The plain value, for the one place that must send or store it.
    public func reveal() -> String { value }

    /// Whether the secret is the empty string.
    package var isEmpty: Bool { value.isEmpty }

    /// Always `<redacted>`.
    public var description: String { "<redacted>" }
    /// Always `Secret(<redacted>)`.
    public var debugDescription: String { "Secret(<redacted>)" }
    /// A mirror without children, so `dump` and reflection-based loggers see nothing.
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }

    /// Decodes the plain value.
    public init(from decoder: any Decoder) throws {
        value = try decoder.singleValueContainer().decode(String.self)
    }

    /// Encodes the plain value (storage needs it; never encode a `Secret` into a log).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value)
    }
}

extension DefaultStringInterpolation {
    /// Not available: interpolating a ``Secret`` would write `<redacted>` where the value was meant — an
    /// `Authorization` header that silently fails. Use `secret.reveal()` where the value must go on the wire, or
    /// `secret.description` to write the redacted form on purpose.
    @available(*, unavailable, message: "interpolating a Secret writes <redacted>; use reveal() to send it, or description to log it redacted")
    public mutating func appendInterpolation(_ secret: Secret) {
        appendLiteral(secret.description)
    }

    /// Not available either, for the same reason (`"Bearer \(olAuthState.accessToken)"`).
    @available(*, unavailable, message: "interpolating a Secret writes <redacted>; unwrap it and use reveal() to send it")
    public mutating func appendInterpolation(_ secret: Secret?) {
        appendLiteral(secret?.description ?? "nil")
    }
}
