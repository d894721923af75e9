/// Why the export's XML cannot be read. The reader turns it into a `HealthImportError` naming the file.
enum HealthXMLError: Error, Equatable {
    /// It does not begin as an XML document in UTF-8 would: why, in words ("it begins with the bytes
    /// 00 00 00 00"). Said from its first kilobyte, before anything else is read.
    case notXML(String)
    /// It is in, or declares, another encoding than UTF-8: its name ("UTF-16", "IBM037").
    case encoding(String)
    /// It is not well-formed XML, first at `line`.
    case malformed(line: Int, String)
}
