/// A word as a shell (sh, bash, zsh) reads it back unchanged: for commands the program prints for a
/// person to paste, such as the `sync init` another machine needs, or the `rm` of a link someone put
/// in a hub, whose name they chose.
public enum ShellWord {
    /// `text` as is when the shell would not split or expand it, else in single quotes (a quote
    /// inside written '\'').
    public static func quoted(_ text: String) -> String {
        let plain = !text.isEmpty && text.unicodeScalars.allSatisfy { scalar in
            ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar) || "/._-+:@%,".unicodeScalars.contains(scalar)
        }
        return plain ? text : "'" + text.split(separator: "'", omittingEmptySubsequences: false).joined(separator: #"'\''"#) + "'"
    }
}
