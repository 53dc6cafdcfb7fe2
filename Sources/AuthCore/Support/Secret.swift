/// A secret string — a token, authorization code, PKCE verifier or client secret — that never prints.
///
/// `description`, `debugDescription`, `String(describing:)`, `print` and `dump` show `<redacted>` (or
/// `Secret(<redacted>)`), so a secret that reaches a log line, an error message or a crash report by accident leaks
/// nothing. Read the value only where it must go on the wire, with ``reveal()``. It encodes as its plain value, because
/// storage must keep it.
///
/// Interpolating a `Secret` or a `Secret?` into a string (`"Bearer \(token)"`, or a message of any type whose
/// interpolation is `DefaultStringInterpolation`, such as swift-log's `Logger.Message`) is a compile error, in Swift 6
/// and Swift 5 language modes, with or without warnings as errors: the compiler reports
/// `ambiguous use of 'appendInterpolation'`, with notes pointing at the `appendInterpolation(_:useRevealToSendIt:)` and
/// `appendInterpolation(_:orDescriptionToLogIt:)` overloads below. Were it to compile, the header would read
/// `Bearer <redacted>` (or `Bearer Optional(Secret(<redacted>))`): a mistake migrating code makes where a vendor SDK
/// returned plain strings. Write `"Bearer " + token.reveal()` to send the value, or `token.description` to write the
/// redacted form on purpose. `Scripts/ci/secret-interpolation-check.sh` type-checks both mistakes against the built
/// module and expects exactly this error. Generic code that interpolates a value of type `T` is not affected, and
/// gets `<redacted>`, never the value.
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

// Why two overloads per type: an `@available(*, unavailable)` overload loses overload resolution to the standard
// library's generic `appendInterpolation(_:)` (unavailable declarations rank last), so `"\(secret)"` would compile and
// write `<redacted>`. A non-generic overload taking `Secret` ranks above the generic one; two of them, equally good
// (each adds one defaulted argument), make every `"\(secret)"` ambiguous: an error, not a warning.
extension DefaultStringInterpolation {
    /// Makes `"\(secret)"` ambiguous, hence a compile error: `ambiguous use of 'appendInterpolation'`. Interpolating a
    /// ``Secret`` would write `<redacted>` where the value was meant — an `Authorization` header that silently fails.
    /// Use `secret.reveal()` where the value must go on the wire, or `secret.description` to write the redacted form on
    /// purpose. Spelling the label out picks this overload: it is deprecated, and writes `<redacted>`.
    @available(*, deprecated, message: "interpolating a Secret writes <redacted>; use reveal() to send it, or description to log it redacted")
    public mutating func appendInterpolation(_ secret: Secret, useRevealToSendIt: Void = ()) {
        appendLiteral(secret.description)
    }

    /// The other half of the ambiguity that makes `"\(secret)"` a compile error; see
    /// `appendInterpolation(_:useRevealToSendIt:)`.
    @available(*, deprecated, message: "interpolating a Secret writes <redacted>; use reveal() to send it, or description to log it redacted")
    public mutating func appendInterpolation(_ secret: Secret, orDescriptionToLogIt: Void = ()) {
        appendLiteral(secret.description)
    }

    /// Makes `"\(optionalSecret)"` a compile error too (`"Bearer \(olAuthState.accessToken)"`), which would otherwise
    /// write `Optional(Secret(<redacted>))`: `ambiguous use of 'appendInterpolation'`. Unwrap it and use
    /// `reveal()`. Spelling the label out picks this overload: it is deprecated, and writes `<redacted>` or `nil`.
    @available(*, deprecated, message: "interpolating a Secret? writes <redacted>; unwrap it and use reveal() to send it")
    public mutating func appendInterpolation(_ secret: Secret?, useRevealToSendIt: Void = ()) {
        appendLiteral(secret?.description ?? "nil")
    }

    /// The other half of the ambiguity that makes `"\(optionalSecret)"` a compile error.
    @available(*, deprecated, message: "interpolating a Secret? writes <redacted>; unwrap it and use reveal() to send it")
    public mutating func appendInterpolation(_ secret: Secret?, orDescriptionToLogIt: Void = ()) {
        appendLiteral(secret?.description ?? "nil")
    }
}
