import SwiftASN1

/// The names a server's certificate is for, as libpq reads them: the DNS names and IP addresses of
/// its subjectAltName extension, and the first common name of its subject. Read from the
/// certificate's DER ourselves: NIOSSL keeps the common name to itself, and its own check matches an
/// IP address entry against the address connected to, whatever name was asked.
struct CertificateNames: Equatable {
    var dnsNames: [String] = []
    /// 4 bytes for IPv4, 16 for IPv6, as the certificate holds them.
    var ipAddresses: [[UInt8]] = []
    var commonName: String?

    /// Reads an X.509 certificate (RFC 5280): its subject's common names and its subjectAltName.
    init(der: [UInt8]) throws {
        let certificate = try DER.parse(der)
        guard case .constructed(let parts) = certificate.content, let tbs = parts.first(where: { _ in true }),
            case .constructed(let fields) = tbs.content
        else { throw ASN1Error.invalidASN1Object(reason: "not a certificate") }
        // TBSCertificate: [0] version, serialNumber, signature, issuer, validity, subject, subjectPublicKeyInfo,
        // then optional [1] [2] unique ids and [3] extensions; the version is optional too.
        var universal = fields.filter { $0.identifier.tagClass == .universal }.makeIterator()
        for _ in 0..<4 { _ = universal.next() }
        if let subject = universal.next() { commonName = try Self.firstCommonName(subject) }
        if let extensions = fields.first(where: { $0.identifier == ASN1Identifier(tagWithNumber: 3, tagClass: .contextSpecific) }) {
            try readAlternativeNames(extensions)
        }
    }

    init(dnsNames: [String] = [], ipAddresses: [[UInt8]] = [], commonName: String? = nil) {
        self.dnsNames = dnsNames
        self.ipAddresses = ipAddresses
        self.commonName = commonName
    }

    /// The names as a person reads them: "DNS:localhost, IP:127.0.0.1, CN=db".
    var description: String {
        let ips = ipAddresses.map { "IP:" + Self.addressText($0) }
        let all = dnsNames.map { "DNS:" + $0 } + ips + (commonName.map { ["CN=" + $0] } ?? [])
        return all.isEmpty ? "no name" : all.joined(separator: ", ")
    }

    private static let commonNameID: ASN1ObjectIdentifier = [2, 5, 4, 3]
    private static let subjectAltNameID: ASN1ObjectIdentifier = [2, 5, 29, 17]

    /// Name ::= SEQUENCE OF SET OF { type, value }: the first value of type commonName, as text.
    private static func firstCommonName(_ subject: ASN1Node) throws -> String? {
        guard case .constructed(let relativeNames) = subject.content else { return nil }
        for relativeName in relativeNames {
            guard case .constructed(let attributes) = relativeName.content else { continue }
            for attribute in attributes {
                guard case .constructed(let pair) = attribute.content else { continue }
                var items = pair.makeIterator()
                guard let type = items.next(), let value = items.next(),
                    try ASN1ObjectIdentifier(derEncoded: type) == commonNameID
                else { continue }
                guard case .primitive(let bytes) = value.content else { return nil }
                return String(validating: bytes, as: UTF8.self)
            }
        }
        return nil
    }

    /// [3] { SEQUENCE OF Extension { extnID, critical?, extnValue OCTET STRING } }; subjectAltName's
    /// value is GeneralNames, where [2] is a dNSName and [7] an iPAddress.
    private mutating func readAlternativeNames(_ wrapper: ASN1Node) throws {
        guard case .constructed(let outer) = wrapper.content, let list = outer.first(where: { _ in true }),
            case .constructed(let extensions) = list.content
        else { return }
        for item in extensions {
            guard case .constructed(let pieces) = item.content else { continue }
            let pieceList = Array(pieces)
            guard let id = pieceList.first, try ASN1ObjectIdentifier(derEncoded: id) == Self.subjectAltNameID,
                let wrapped = pieceList.last, case .primitive(let value) = wrapped.content
            else { continue }
            guard case .constructed(let names) = try DER.parse(value).content else { continue }
            for name in names where name.identifier.tagClass == .contextSpecific {
                guard case .primitive(let bytes) = name.content else { continue }
                switch name.identifier.tagNumber {
                case 2:
                    // A name with a NUL in it is a known trick to pass one name off as another; libpq refuses it.
                    if let text = String(validating: bytes, as: UTF8.self), !text.contains("\0") { dnsNames.append(text) }
                case 7:
                    if bytes.count == 4 || bytes.count == 16 { ipAddresses.append(Array(bytes)) }
                default:
                    continue
                }
            }
        }
    }

    static func addressText(_ bytes: [UInt8]) -> String {
        if bytes.count == 4 { return bytes.map(String.init).joined(separator: ".") }
        return stride(from: 0, to: bytes.count, by: 2).map { String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16) }
            .joined(separator: ":")
    }
}
