#if HummingbirdSignIn
    import AuthWebSignIn
    import Testing

    /// Session ids, sign-in states and lock names are stored as `sha256Hex`; PostgreSQL computes the same digest in SQL
    /// (`encode(sha256(…), 'hex')`), so the text must be exactly lowercase hex of the UTF-8.
    @Suite("Session id digests")
    struct SHA256HexTests {
        @Test("digests are SHA-256 of the UTF-8 in lowercase hex (FIPS 180-2 vectors)")
        func knownVectors() {
            #expect(sha256Hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
            #expect(sha256Hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
            #expect(
                sha256Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
                    == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        }

        @Test("non-ASCII text is hashed as its UTF-8 bytes")
        func utf8() {
            // "é" is C3 A9 in UTF-8 (sha256sum of those two bytes).
            #expect(sha256Hex("é") == "4a99557e4033c3539de2eb65472017cad5f9557f7a0625a09f1c3f6e2ba69c4c")
        }
    }
#endif
