import AuthCore

/// A postal address from the `https://vocab.account.gov.uk/v1/address` claim (GOV.UK's address vocabulary; every
/// field is optional on the wire, `uprn` arrives as a number or a string).
public struct PostalAddress: Sendable, Hashable {
    /// The Unique Property Reference Number.
    public let uprn: String?
    /// The organisation name.
    public let organisationName: String?
    /// The department name.
    public let departmentName: String?
    /// The flat or unit.
    public let subBuildingName: String?
    /// The building number.
    public let buildingNumber: String?
    /// The building name.
    public let buildingName: String?
    /// The dependent street name.
    public let dependentStreetName: String?
    /// The street name.
    public let streetName: String?
    /// The double dependent locality.
    public let doubleDependentAddressLocality: String?
    /// The dependent locality.
    public let dependentAddressLocality: String?
    /// The town or city.
    public let addressLocality: String?
    /// The postcode.
    public let postalCode: String?
    /// The ISO 3166 country code.
    public let addressCountry: String?
    /// When the user started living there (`YYYY-MM-DD`).
    public let validFrom: String?
    /// When the user stopped living there; `nil` for the current address.
    public let validUntil: String?

    init(_ object: [String: JSONValue]) {
        func text(_ key: String) -> String? {
            if let string = object[key]?.stringValue { return string }
            return object[key]?.int64Value.map(String.init)
        }
        uprn = text("uprn")
        organisationName = text("organisationName")
        departmentName = text("departmentName")
        subBuildingName = text("subBuildingName")
        buildingNumber = text("buildingNumber")
        buildingName = text("buildingName")
        dependentStreetName = text("dependentStreetName")
        streetName = text("streetName")
        doubleDependentAddressLocality = text("doubleDependentAddressLocality")
        dependentAddressLocality = text("dependentAddressLocality")
        addressLocality = text("addressLocality")
        postalCode = text("postalCode")
        addressCountry = text("addressCountry")
        validFrom = text("validFrom")
        validUntil = text("validUntil")
    }

    /// Whether this is the user's current address (it has no end date).
    public var isCurrent: Bool { validUntil == nil }
}

/// A passport from the `https://vocab.account.gov.uk/v1/passport` claim.
public struct PassportDetails: Sendable, Hashable {
    /// The passport number.
    public let documentNumber: String
    /// The issuing state (ICAO code, `GBR`).
    public let icaoIssuerCode: String?
    /// The expiry date (`YYYY-MM-DD`).
    public let expiryDate: String?

    init?(_ object: [String: JSONValue]) {
        guard let number = object["documentNumber"]?.stringValue else { return nil }
        documentNumber = number
        icaoIssuerCode = object["icaoIssuerCode"]?.stringValue
        expiryDate = object["expiryDate"]?.stringValue
    }
}

/// A driving licence from the `https://vocab.account.gov.uk/v1/drivingPermit` claim.
public struct DrivingPermitDetails: Sendable, Hashable {
    /// The licence number.
    public let personalNumber: String
    /// The issuer (`DVLA` or `DVA`).
    public let issuedBy: String?
    /// The issue number (DVLA).
    public let issueNumber: String?
    /// The issue date (`YYYY-MM-DD`).
    public let issueDate: String?
    /// The expiry date (`YYYY-MM-DD`).
    public let expiryDate: String?
    /// The address on the licence, when stated.
    public let fullAddress: String?

    init?(_ object: [String: JSONValue]) {
        guard let number = object["personalNumber"]?.stringValue else { return nil }
        personalNumber = number
        issuedBy = object["issuedBy"]?.stringValue
        issueNumber = object["issueNumber"]?.stringValue
        issueDate = object["issueDate"]?.stringValue
        expiryDate = object["expiryDate"]?.stringValue
        fullAddress = object["fullAddress"]?.stringValue
    }
}

/// Why GOV.UK One Login could not prove the user's identity: a code from the
/// `https://vocab.account.gov.uk/v1/returnCode` claim (for example `A`, `C`, `X`; their meaning is agreed with GOV.UK
/// when the service is onboarded).
public struct ReturnCode: Sendable, Hashable, CustomStringConvertible {
    /// The code.
    public let code: String

    /// Creates a return code.
    public init(code: String) { self.code = code }

    /// The code.
    public var description: String { code }
}

extension GOVUKServiceConfiguration.IdentityClaim {
    /// The members of an array-of-objects claim, or `nil` when absent.
    ///
    /// - Throws: `malformed_identity_claim` when present but not an array of objects.
    func objects(in info: UserInfoClaims) throws -> [[String: JSONValue]]? {
        guard let value = info[rawValue] else { return nil }
        guard let array = value.arrayValue else {
            throw AuthError(.malformedIdentityClaim, "The user info claim \(shortName) is not a JSON array.", providerID: GOVUKProvider.id)
        }
        let objects = array.compactMap(\.objectValue)
        guard objects.count == array.count else {
            throw AuthError(.malformedIdentityClaim, "The user info claim \(shortName) has members that are not objects.", providerID: GOVUKProvider.id)
        }
        return objects
    }
}
