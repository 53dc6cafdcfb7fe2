/// A provider's stable, lowercase identifier, such as `"grab"` or `"govuk"`: the name a registry selects by.
public struct ProviderID: RawRepresentable, Hashable, Comparable, Sendable, Codable, CustomStringConvertible,
    ExpressibleByStringLiteral
{
    /// The lowercase identifier.
    public let rawValue: String

    /// Creates an identifier; the value is lowercased so lookups are case-insensitive.
    public init(rawValue: String) { self.rawValue = rawValue.lowercased() }

    /// Creates an identifier from a literal.
    public init(stringLiteral value: String) { self.init(rawValue: value) }

    /// The identifier.
    public var description: String { rawValue }

    /// Orders identifiers alphabetically.
    public static func < (lhs: ProviderID, rhs: ProviderID) -> Bool { lhs.rawValue < rhs.rawValue }

    /// Decodes the identifier from a plain string.
    public init(from decoder: any Decoder) throws {
        self.init(rawValue: try decoder.singleValueContainer().decode(String.self))
    }

    /// Encodes the identifier as a plain string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
