/// A QR code (ISO/IEC 18004, byte mode, error correction level L, versions 1–10) for a URL shown in a terminal: a
/// device sign-in's `verification_uri_complete`, so the user scans it with a phone instead of typing.
///
/// ```swift
/// if let code = TerminalQRCode(authorization.verificationURIComplete!.absoluteString) { print(code.rendered) }
/// ```
///
/// The encoder is small on purpose: terminal URLs are short (up to 271 bytes), and a dependency for this alone is not
/// worth it. Each of the eight masks is scored with the standard's four penalty rules and the lowest is used.
public struct TerminalQRCode: Sendable {
    /// The version (1–10); the symbol is `17 + 4 × version` modules wide.
    public let version: Int
    /// The mask applied (0–7).
    public let mask: Int
    /// The modules, row by row; `true` is dark.
    public let modules: [[Bool]]

    /// Encodes `text` (UTF-8), or returns `nil` when it does not fit in version 10 (271 bytes).
    ///
    /// - Parameters:
    ///   - text: what the code carries, usually a URL.
    ///   - fixed: a fixed mask (0–7) instead of the best-scoring one (tests compare against reference encoders mask
    ///     by mask).
    public init?(_ text: String, mask fixed: Int? = nil) {
        let bytes = Array(text.utf8)
        guard let version = (1...10).first(where: { Self.fits(bytes.count, version: $0) }) else { return nil }
        let codewords = Self.codewords(for: bytes, version: version)
        let base = Matrix(version: version)
        let candidates = fixed.map { [$0] } ?? Array(0..<8)
        var best: (mask: Int, modules: [[Bool]], penalty: Int)?
        for mask in candidates {
            var matrix = base
            matrix.place(codewords, mask: mask)
            matrix.placeFormat(mask: mask)
            let modules = matrix.modules.map { $0.map { $0 ?? false } }
            let penalty = fixed == nil ? Self.penalty(modules) : 0
            if best == nil || penalty < best!.penalty { best = (mask, modules, penalty) }
        }
        self.version = version
        self.mask = best!.mask
        self.modules = best!.modules
    }

    /// The standard's mask penalty of this symbol (rules 1–4): the lowest of the eight masks' unless one was fixed.
    public var penalty: Int { Self.penalty(modules) }

    /// The code drawn with half blocks (two rows per line) and a 2-module quiet zone, for a terminal with a dark
    /// background: light modules are drawn, dark ones left blank — as `qrencode -t UTF8` does.
    public var rendered: String {
        let quiet = 2
        let size = modules.count
        func light(_ row: Int, _ column: Int) -> Bool {
            guard (0..<size).contains(row), (0..<size).contains(column) else { return true }
            return !modules[row][column]
        }
        var lines: [String] = []
        for row in stride(from: -quiet, to: size + quiet, by: 2) {
            var line = ""
            for column in -quiet..<(size + quiet) {
                switch (light(row, column), light(row + 1, column)) {
                case (true, true): line.append("█")
                case (true, false): line.append("▀")
                case (false, true): line.append("▄")
                case (false, false): line.append(" ")
                }
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }

    // MARK: Data and error correction

    /// Error correction level L: per version, the blocks as (count, total codewords, data codewords).
    private static let blocks: [[(count: Int, total: Int, data: Int)]] = [
        [(1, 26, 19)], [(1, 44, 34)], [(1, 70, 55)], [(1, 100, 80)], [(1, 134, 108)],
        [(2, 86, 68)], [(2, 98, 78)], [(2, 121, 97)], [(2, 146, 116)], [(2, 86, 68), (2, 87, 69)]
    ]

    private static func dataCapacity(_ version: Int) -> Int {
        blocks[version - 1].reduce(0) { $0 + $1.count * $1.data }
    }

    private static func countBits(_ version: Int) -> Int { version < 10 ? 8 : 16 }

    private static func fits(_ count: Int, version: Int) -> Bool {
        4 + countBits(version) + 8 * count <= 8 * dataCapacity(version)
    }

    /// Byte-mode data, terminator, padding, then the blocks' data and error correction codewords interleaved.
    private static func codewords(for bytes: [UInt8], version: Int) -> [UInt8] {
        var bits = BitWriter()
        bits.append(0b0100, count: 4)
        bits.append(bytes.count, count: countBits(version))
        for byte in bytes { bits.append(Int(byte), count: 8) }
        let capacity = dataCapacity(version) * 8
        bits.append(0, count: min(4, capacity - bits.count))
        bits.append(0, count: (8 - bits.count % 8) % 8)
        var data = bits.bytes
        var pad: UInt8 = 0xEC
        while data.count < dataCapacity(version) {
            data.append(pad)
            pad = pad == 0xEC ? 0x11 : 0xEC
        }
        var dataBlocks: [[UInt8]] = []
        var ecBlocks: [[UInt8]] = []
        var offset = 0
        for group in blocks[version - 1] {
            for _ in 0..<group.count {
                let block = Array(data[offset..<(offset + group.data)])
                offset += group.data
                dataBlocks.append(block)
                ecBlocks.append(ReedSolomon.remainder(of: block, degree: group.total - group.data))
            }
        }
        var result: [UInt8] = []
        for index in 0..<(dataBlocks.map(\.count).max() ?? 0) {
            for block in dataBlocks where index < block.count { result.append(block[index]) }
        }
        for index in 0..<(ecBlocks.first?.count ?? 0) {
            for block in ecBlocks { result.append(block[index]) }
        }
        return result
    }

    // MARK: Mask penalty (ISO/IEC 18004 §7.8.3)

    static func penalty(_ modules: [[Bool]]) -> Int {
        let size = modules.count
        var score = 0
        let columns = (0..<size).map { column in modules.map { $0[column] } }
        // Rule 1: runs of five or more modules of one colour, in rows and columns.
        for line in modules + columns {
            var run = 1
            for index in 1..<size {
                if line[index] == line[index - 1] {
                    run += 1
                } else {
                    if run >= 5 { score += run - 2 }
                    run = 1
                }
            }
            if run >= 5 { score += run - 2 }
        }
        // Rule 2: 2×2 blocks of one colour.
        for row in 0..<(size - 1) {
            for column in 0..<(size - 1) {
                let colour = modules[row][column]
                if modules[row][column + 1] == colour, modules[row + 1][column] == colour, modules[row + 1][column + 1] == colour {
                    score += 3
                }
            }
        }
        // Rule 3: a finder-like 1:1:3:1:1 pattern with four light modules on either side.
        let patterns: [[Bool]] = [
            [true, false, true, true, true, false, true, false, false, false, false],
            [false, false, false, false, true, false, true, true, true, false, true]
        ]
        for line in modules + columns where size >= 11 {
            for start in 0...(size - 11) {
                for pattern in patterns where Array(line[start..<(start + 11)]) == pattern { score += 40 }
            }
        }
        // Rule 4: the dark proportion's distance from 50 %, in steps of 5 %.
        let dark = modules.reduce(0) { $0 + $1.filter { $0 }.count }
        score += abs(dark * 100 / (size * size) - 50) / 5 * 10
        return score
    }
}

/// Collects bits most significant first.
private struct BitWriter {
    private(set) var bytes: [UInt8] = []
    private(set) var count = 0

    mutating func append(_ value: Int, count bits: Int) {
        for shift in stride(from: bits - 1, through: 0, by: -1) {
            if count % 8 == 0 { bytes.append(0) }
            if (value >> shift) & 1 == 1 { bytes[bytes.count - 1] |= UInt8(0x80 >> (count % 8)) }
            count += 1
        }
    }
}

/// Reed–Solomon over GF(256) with the QR code's polynomial x⁸ + x⁴ + x³ + x² + 1.
private enum ReedSolomon {
    static let tables: (exp: [UInt8], log: [Int]) = {
        var exp = [UInt8](repeating: 0, count: 512)
        var log = [Int](repeating: 0, count: 256)
        var value = 1
        for power in 0..<255 {
            exp[power] = UInt8(value)
            log[value] = power
            value <<= 1
            if value & 0x100 != 0 { value ^= 0x11D }
        }
        for power in 255..<512 { exp[power] = exp[power - 255] }
        return (exp, log)
    }()

    static func multiply(_ a: UInt8, _ b: UInt8) -> UInt8 {
        guard a != 0, b != 0 else { return 0 }
        return tables.exp[tables.log[Int(a)] + tables.log[Int(b)]]
    }

    /// The generator polynomial ∏ (x − αⁱ), i < degree, highest coefficient first (the leading 1 omitted).
    static func generator(degree: Int) -> [UInt8] {
        var polynomial: [UInt8] = [1]
        for power in 0..<degree {
            var next = [UInt8](repeating: 0, count: polynomial.count + 1)
            for (index, coefficient) in polynomial.enumerated() {
                next[index] ^= coefficient
                next[index + 1] ^= multiply(coefficient, tables.exp[power])
            }
            polynomial = next
        }
        return Array(polynomial.dropFirst())
    }

    /// The error correction codewords of `data`: the remainder of data × x^degree divided by the generator.
    static func remainder(of data: [UInt8], degree: Int) -> [UInt8] {
        let generator = generator(degree: degree)
        var remainder = [UInt8](repeating: 0, count: degree)
        for byte in data {
            let factor = byte ^ remainder[0]
            remainder.removeFirst()
            remainder.append(0)
            for index in 0..<degree { remainder[index] ^= multiply(generator[index], factor) }
        }
        return remainder
    }
}

/// The symbol being built: function patterns fixed, data modules `nil` until placed.
private struct Matrix {
    let version: Int
    let size: Int
    var modules: [[Bool?]]

    private static let alignment: [[Int]] = [
        [], [6, 18], [6, 22], [6, 26], [6, 30], [6, 34], [6, 22, 38], [6, 24, 42], [6, 26, 46], [6, 28, 50]
    ]

    init(version: Int) {
        self.version = version
        size = 17 + 4 * version
        modules = Array(repeating: Array(repeating: nil, count: size), count: size)
        for (row, column) in [(0, 0), (size - 7, 0), (0, size - 7)] { placeFinder(row, column) }
        // Alignment patterns before the timing patterns, which they may cross (the timing keeps what is set).
        let centres = Self.alignment[version - 1]
        for row in centres {
            for column in centres where modules[row][column] == nil {
                for dr in -2...2 {
                    for dc in -2...2 { modules[row + dr][column + dc] = max(abs(dr), abs(dc)) != 1 }
                }
            }
        }
        for index in 8..<(size - 8) {
            if modules[6][index] == nil { modules[6][index] = index % 2 == 0 }
            if modules[index][6] == nil { modules[index][6] = index % 2 == 0 }
        }
        // Reserve the format areas (written per mask) and the dark module.
        placeFormat(bits: 0)
        modules[size - 8][8] = true
        if version >= 7 { placeVersion() }
    }

    private mutating func placeFinder(_ top: Int, _ left: Int) {
        for dr in -1...7 {
            for dc in -1...7 {
                let row = top + dr
                let column = left + dc
                guard (0..<size).contains(row), (0..<size).contains(column) else { continue }
                let inner = (0...6).contains(dr) && (0...6).contains(dc)
                let ring = inner && (dr == 0 || dr == 6 || dc == 0 || dc == 6)
                let core = (2...4).contains(dr) && (2...4).contains(dc)
                modules[row][column] = ring || core  // the separator (outside 0…6) is light
            }
        }
    }

    /// Version information (versions 7 and up): 6 bits and a BCH(18, 6) remainder, in two 6×3 blocks.
    private mutating func placeVersion() {
        var remainder = version << 12
        for shift in stride(from: 17, through: 12, by: -1) where remainder & (1 << shift) != 0 { remainder ^= 0x1F25 << (shift - 12) }
        let bits = (version << 12) | remainder
        for index in 0..<18 {
            let dark = (bits >> index) & 1 == 1
            modules[index / 3][index % 3 + size - 11] = dark
            modules[index % 3 + size - 11][index / 3] = dark
        }
    }

    /// Format information for level L and `mask`: BCH(15, 5), masked with 0x5412.
    mutating func placeFormat(mask: Int) {
        let data = (0b01 << 3) | mask
        var remainder = data << 10
        for shift in stride(from: 14, through: 10, by: -1) where remainder & (1 << shift) != 0 { remainder ^= 0x537 << (shift - 10) }
        placeFormat(bits: ((data << 10) | remainder) ^ 0x5412)
    }

    private mutating func placeFormat(bits: Int) {
        for index in 0..<15 {
            let dark = (bits >> index) & 1 == 1
            // Beside the top-left finder, then split between the bottom-left and top-right ones.
            let verticalRow = index < 6 ? index : index < 8 ? index + 1 : size - 15 + index
            modules[verticalRow][8] = dark
            let horizontalColumn = index < 8 ? size - index - 1 : index < 9 ? 15 - index : 14 - index
            modules[8][horizontalColumn] = dark
        }
        modules[size - 8][8] = true
    }

    /// Places the codewords in the two-column zigzag from the bottom right, skipping the timing column, masking
    /// each data module.
    mutating func place(_ codewords: [UInt8], mask: Int) {
        var bitIndex = 0
        let totalBits = codewords.count * 8
        var upward = true
        var column = size - 1
        while column > 0 {
            if column == 6 { column -= 1 }
            for step in 0..<size {
                let row = upward ? size - 1 - step : step
                for c in [column, column - 1] where modules[row][c] == nil {
                    var dark = false
                    if bitIndex < totalBits { dark = (codewords[bitIndex / 8] >> (7 - bitIndex % 8)) & 1 == 1 }
                    bitIndex += 1
                    if Self.masked(mask, row, c) { dark.toggle() }
                    modules[row][c] = dark
                }
            }
            upward.toggle()
            column -= 2
        }
    }

    private static func masked(_ mask: Int, _ row: Int, _ column: Int) -> Bool {
        switch mask {
        case 0: (row + column) % 2 == 0
        case 1: row % 2 == 0
        case 2: column % 3 == 0
        case 3: (row + column) % 3 == 0
        case 4: (row / 2 + column / 3) % 2 == 0
        case 5: (row * column) % 2 + (row * column) % 3 == 0
        case 6: ((row * column) % 2 + (row * column) % 3) % 2 == 0
        default: ((row + column) % 2 + (row * column) % 3) % 2 == 0
        }
    }
}
