import Foundation

/// The profile the vendor SDK 5 exposes (its `UserProfileResponse`), from `/api/2/user/<uuid>`: camelCase keys
/// inside `{"data": …}`.
///
/// Decoded as tolerantly as the vendor decodes it: a field of an unexpected type is `nil` rather than an error,
/// `addresses` and `accounts` are empty (not `nil`) when the server sends `[]` or something unreadable,
/// `emailVerified` / `phoneNumberVerified` may be `false` instead of a date, a birthday of `0000-00-00` means none,
/// and `primary` / `verified` of an e-mail or phone number may be a boolean or the string `"true"` / `"false"`.
/// The nested types are the vendor's top-level `Email`, `PhoneNumber`, `Name`, `Address` and `Account`.
public struct UserProfileResponse: Sendable, Codable, Hashable {
    /// The UUID.
    public var uuid: String?
    /// The legacy user id.
    public var userId: String?
    /// The account status.
    public var status: Int?
    /// The primary e-mail address.
    public var email: String?
    var emailVerified: StringOrIgnore?
    /// Every e-mail address of the account.
    public var emails: [Email]?
    /// The primary phone number.
    public var phoneNumber: String?
    var phoneNumberVerified: StringOrIgnore?
    /// Every phone number of the account.
    public var phoneNumbers: [PhoneNumber]?
    /// The display name.
    public var displayName: String?
    /// The name.
    public var name: Name?
    /// The addresses by kind (`home`, `delivery`, `invoice`); empty when the server sent none.
    public var addresses: [String: Address]?
    /// The gender (for example `withheld`).
    public var gender: String?
    var birthday: String?
    /// The connected accounts by client id; empty when the server sent none.
    public var accounts: [String: Account]?
    /// The Schibsted account merchant ids associated with the user.
    public var merchants: [Int]?
    /// When the account was created.
    public var published: String?
    /// When the account was verified.
    public var verified: String?
    /// When the account was last updated.
    public var updated: String?
    /// When the password was last changed.
    public var passwordChanged: String?
    /// When the user last authenticated.
    public var lastAuthenticated: String?
    /// When the user last logged in.
    public var lastLoggedIn: String?
    /// The locale (for example `sv_SE`).
    public var locale: String?
    /// The UTC offset (for example `+02:00`).
    public var utcOffset: String?
    /// The pair id used for external ids (TCF).
    public var pairId: String?
    /// The user's SDRN.
    public var sdrn: String?

    /// When the e-mail address was verified; `nil` when the server says `false`.
    public var emailVerifiedDate: String? { emailVerified?.value }
    /// When the phone number was verified; `nil` when the server says `false`.
    public var phoneNumberVerifiedDate: String? { phoneNumberVerified?.value }
    /// The birthday; `nil` for the server's `0000-00-00` (none given).
    public var birthdate: String? { birthday == "0000-00-00" ? nil : birthday }

    enum CodingKeys: String, CodingKey {
        case uuid, userId, status, email, emailVerified, emails, phoneNumber, phoneNumberVerified, phoneNumbers
        case displayName, name, addresses, gender, birthday, accounts, merchants, published, verified, updated
        case passwordChanged, lastAuthenticated, lastLoggedIn, locale, utcOffset, pairId, sdrn
    }

    /// Decodes each field on its own, as the vendor does: one unreadable field never loses the profile.
    ///
    /// - Throws: only when the value is not a JSON object.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        uuid = try? container.decode(String.self, forKey: .uuid)
        userId = try? container.decode(String.self, forKey: .userId)
        status = try? container.decode(Int.self, forKey: .status)
        email = try? container.decode(String.self, forKey: .email)
        emailVerified = try? container.decode(StringOrIgnore.self, forKey: .emailVerified)
        emails = try? container.decode([Email].self, forKey: .emails)
        phoneNumber = try? container.decode(String.self, forKey: .phoneNumber)
        phoneNumberVerified = try? container.decode(StringOrIgnore.self, forKey: .phoneNumberVerified)
        phoneNumbers = try? container.decode([PhoneNumber].self, forKey: .phoneNumbers)
        displayName = try? container.decode(String.self, forKey: .displayName)
        name = try? container.decode(Name.self, forKey: .name)
        gender = try? container.decode(String.self, forKey: .gender)
        birthday = try? container.decode(String.self, forKey: .birthday)
        merchants = try? container.decode([Int].self, forKey: .merchants)
        published = try? container.decode(String.self, forKey: .published)
        verified = try? container.decode(String.self, forKey: .verified)
        updated = try? container.decode(String.self, forKey: .updated)
        passwordChanged = try? container.decode(String.self, forKey: .passwordChanged)
        lastAuthenticated = try? container.decode(String.self, forKey: .lastAuthenticated)
        lastLoggedIn = try? container.decode(String.self, forKey: .lastLoggedIn)
        locale = try? container.decode(String.self, forKey: .locale)
        utcOffset = try? container.decode(String.self, forKey: .utcOffset)
        pairId = try? container.decode(String.self, forKey: .pairId)
        sdrn = try? container.decode(String.self, forKey: .sdrn)
        // The server sends an empty dictionary as `[]`.
        addresses = (try? container.decodeIfPresent([String: Address].self, forKey: .addresses)) ?? [:]
        accounts = (try? container.decodeIfPresent([String: Account].self, forKey: .accounts)) ?? [:]
    }

    /// What an e-mail address and a phone number have in common (the vendor's `Identifier`).
    public protocol Identifier: Codable, Hashable, Sendable {
        /// The address or number.
        var value: String? { get }
        /// Its kind (for example `other`).
        var type: String? { get }
        /// Whether it is the primary one.
        var isPrimary: Bool? { get }
        /// Whether it is verified.
        var isVerified: Bool? { get }
        /// When it was verified.
        var verifiedTime: String? { get }
    }

    /// An e-mail address of the account.
    public struct Email: Identifier {
        /// The address.
        public var value: String?
        /// Its kind (for example `other`).
        public var type: String?
        var primary: StringBool?
        var verified: StringBool?
        /// When it was verified.
        public var verifiedTime: String?

        /// Whether it is the primary address (`"true"` counts, any other string is `false`).
        public var isPrimary: Bool? { primary?.value }
        /// Whether it is verified (`"true"` counts, any other string is `false`).
        public var isVerified: Bool? { verified?.value }
    }

    /// A phone number of the account.
    public struct PhoneNumber: Identifier {
        /// The number.
        public var value: String?
        /// Its kind (for example `other`).
        public var type: String?
        var primary: StringBool?
        var verified: StringBool?
        /// When it was verified.
        public var verifiedTime: String?

        /// Whether it is the primary number (`"true"` counts, any other string is `false`).
        public var isPrimary: Bool? { primary?.value }
        /// Whether it is verified (`"true"` counts, any other string is `false`).
        public var isVerified: Bool? { verified?.value }
    }

    /// The user's name.
    public struct Name: Sendable, Codable, Hashable {
        /// The given name.
        public var givenName: String?
        /// The family name.
        public var familyName: String?
        /// The full name, formatted.
        public var formatted: String?

        /// A name.
        public init(givenName: String? = nil, familyName: String? = nil, formatted: String? = nil) {
            self.givenName = givenName
            self.familyName = familyName
            self.formatted = formatted
        }
    }

    /// An account connected to the user (by client).
    public struct Account: Sendable, Codable, Hashable {
        /// The client id.
        public var id: String?
        /// The client's name.
        public var accountName: String?
        /// The client's domain.
        public var domain: String?
        /// When it was connected.
        public var connected: String?

        /// A connected account.
        public init(id: String? = nil, accountName: String? = nil, domain: String? = nil, connected: String? = nil) {
            self.id = id
            self.accountName = accountName
            self.domain = domain
            self.connected = connected
        }
    }

    /// A postal address.
    public struct Address: Sendable, Codable, Hashable {
        /// The whole address, formatted.
        public var formatted: String?
        /// The street address.
        public var streetAddress: String?
        /// The postal code.
        public var postalCode: String?
        /// The locality.
        public var locality: String?
        /// The region.
        public var region: String?
        /// The country.
        public var country: String?
        /// The kind of address.
        public var type: AddressType?

        /// An address.
        public init(
            formatted: String? = nil, streetAddress: String? = nil, postalCode: String? = nil, locality: String? = nil,
            region: String? = nil, country: String? = nil, type: AddressType? = nil
        ) {
            self.formatted = formatted
            self.streetAddress = streetAddress
            self.postalCode = postalCode
            self.locality = locality
            self.region = region
            self.country = country
            self.type = type
        }

        /// The kinds of address.
        public enum AddressType: String, Sendable, Codable, Hashable {
            /// Home.
            case home
            /// Delivery.
            case delivery
            /// Invoice.
            case invoice
        }
    }
}

/// A date string the server may replace with `false` (the vendor's `StringOrIgnore`): anything but a string is `nil`.
struct StringOrIgnore: Sendable, Codable, Hashable {
    let value: String?

    init(value: String?) { self.value = value }

    init(from decoder: any Decoder) throws {
        value = try? decoder.singleValueContainer().decode(String.self)
    }

    /// As the vendor: a missing date is written back as `false`.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let value { try container.encode(value) } else { try container.encode(false) }
    }
}

/// A boolean the server may send as a string (the vendor's `StringBool`): `"true"` is `true`, any other non-boolean
/// is `false`; re-encoded in the form it came in.
struct StringBool: Sendable, Codable, Hashable {
    let value: Bool?
    let asString: Bool

    init(value: Bool?, asString: Bool) {
        self.value = value
        self.asString = asString
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let value = try? container.decode(Bool.self) {
            self.value = value
            asString = false
        } else {
            value = (try? container.decode(String.self)) == "true"
            asString = true
        }
    }

    func encode(to encoder: any Encoder) throws {
        guard let value else { return }
        var container = encoder.singleValueContainer()
        if asString { try container.encode(String(value)) } else { try container.encode(value) }
    }
}
