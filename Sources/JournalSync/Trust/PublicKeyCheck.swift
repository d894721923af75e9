import Crypto
import JournalKit

/// Whether a public key read from the hub can be used: anyone who can write a card may write any 32
/// bytes as its keys.
///
/// - X25519 (what epoch keys are wrapped for): a key of small order gives an all-zero shared secret
///   whatever the other side's private key (RFC 7748, section 6.1), so a key wrapped for it is one
///   anyone who reads the hub can unwrap. swift-crypto does not check the result (it follows
///   CryptoKit), so the check is made here: a key agreement with a fixed private key, refused when it
///   gives zeros.
/// - Ed25519 (what checks signatures): a key of small order, or one not encoded canonically, lets
///   signatures be made without its private key. The encodings of the eight points of small order,
///   with their non-canonical twins, are listed (as libsodium lists them), and any encoding of a y
///   coordinate not below the field's prime is refused.
enum PublicKeyCheck {
    /// Why `key` cannot be an X25519 key to wrap for, or nil when it can.
    static func agreementProblem(_ key: [UInt8]) -> String? {
        guard key.count == 32, let publicKey = try? Curve25519.KeyAgreement.PublicKey(rawRepresentation: key),
            let secret = try? probe.sharedSecretFromKeyAgreement(with: publicKey)
        else { return "its X25519 key is not 32 bytes" }
        let zero = secret.withUnsafeBytes { $0.allSatisfy { $0 == 0 } }
        return zero ? "its X25519 key is of small order, so a key wrapped for it could be read by anyone" : nil
    }

    /// Why `key` cannot check signatures, or nil when it can.
    static func signingProblem(_ key: [UInt8]) -> String? {
        guard key.count == 32, (try? Curve25519.Signing.PublicKey(rawRepresentation: key)) != nil else {
            return "its Ed25519 key is not 32 bytes"
        }
        if smallOrder.contains(key) { return "its Ed25519 key is of small order, so signatures could be made without it" }
        return isCanonical(key) ? nil : "its Ed25519 key is not encoded canonically"
    }

    /// A fixed private key for the small-order probe: the result depends only on whether the public
    /// key has a large-order part, not on which private key multiplies it (each is a multiple of 8).
    private static let probe = try! Curve25519.KeyAgreement.PrivateKey(rawRepresentation: [UInt8](repeating: 0x5a, count: 32))

    /// The 255-bit y coordinate (the sign bit aside) is below 2^255 - 19.
    private static func isCanonical(_ key: [UInt8]) -> Bool {
        var y = key
        y[31] &= 0x7f
        // Little-endian: compare with the prime from the top byte down.
        let prime: [UInt8] = [0xed] + [UInt8](repeating: 0xff, count: 30) + [0x7f]
        for index in stride(from: 31, through: 0, by: -1) where y[index] != prime[index] { return y[index] < prime[index] }
        return false
    }

    /// The encodings of Ed25519's points of order 1, 2, 4 and 8, canonical or not.
    private static let smallOrder: Set<[UInt8]> = Set([
        "0000000000000000000000000000000000000000000000000000000000000000",
        "0000000000000000000000000000000000000000000000000000000000000080",
        "0100000000000000000000000000000000000000000000000000000000000000",
        "0100000000000000000000000000000000000000000000000000000000000080",
        "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05",
        "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc85",
        "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a",
        "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa",
        "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
        "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
        "edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
        "edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
        "eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
        "eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
    ].compactMap { Hex.decode(Array($0.utf8)) })
}

extension DevicePublicKeys {
    /// Why these keys cannot be a device's (one is of small order, or malformed), or nil when they can.
    var problem: String? { PublicKeyCheck.agreementProblem(agreement) ?? PublicKeyCheck.signingProblem(signing) }
}
