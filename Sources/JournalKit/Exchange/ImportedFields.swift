import FoundationEssentials

/// One element of a JSON export, as the names and texts of its fields: numbers become their text, as
/// a CSV export has them, so both formats are checked by one rule.
struct ImportedFields: Decodable {
    let fields: [String: String?]

    init(from decoder: any Decoder) throws {
        let container: KeyedDecodingContainer<FieldName>
        do { container = try decoder.container(keyedBy: FieldName.self) } catch {
            throw DecodingError.typeMismatch(
                ImportedFields.self,
                .init(codingPath: decoder.codingPath, debugDescription: "expected an object such as {\"drink\": \"espresso\", ...}"))
        }
        var fields: [String: String?] = [:]
        for key in container.allKeys {
            if try container.decodeNil(forKey: key) {
                fields[key.stringValue] = .some(nil)
            } else if let text = try? container.decode(String.self, forKey: key) {
                fields[key.stringValue] = text
            } else if let number = try? container.decode(Double.self, forKey: key) {
                // -0 keeps its sign, to be refused as the negative number it was written as.
                fields[key.stringValue] = number == 0 && number.sign == .minus ? "-0" : JSONValue.format(number)
            } else {
                throw DecodingError.typeMismatch(
                    String.self, .init(codingPath: container.codingPath + [key], debugDescription: "\(key.stringValue) must be a string or a number"))
            }
        }
        self.fields = fields
    }

    struct FieldName: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}

extension ImportFormatError {
    /// Where in the file a decoding error is, as a person counts: "element 3".
    init(decoding error: DecodingError) {
        let context: DecodingError.Context
        switch error {
        case .typeMismatch(_, let found), .valueNotFound(_, let found), .keyNotFound(_, let found), .dataCorrupted(let found):
            context = found
        @unknown default:
            self.init(location: "the file", problem: "\(error)")
            return
        }
        let index = context.codingPath.first?.intValue
        if context.codingPath.isEmpty, case .typeMismatch = error {
            self.init(location: "the file", problem: "expected a JSON array of drinks")
        } else if context.codingPath.isEmpty {
            self.init(location: "the file", problem: "it is not valid JSON")
        } else {
            self.init(location: index.map { "element \($0 + 1)" } ?? "the file", problem: context.debugDescription)
        }
    }
}
