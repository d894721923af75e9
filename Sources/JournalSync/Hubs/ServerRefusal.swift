/// A failure that a hub's server reports or causes and that is put right there, by its administrator
/// (a right the role lacks, a schema only its owner may migrate, a password changed, TLS turned off):
/// the daemon cannot be told when that is done, so it keeps trying with backoff where a setup to put
/// right on this machine (a key others can read, a read-only journal) ends it.
public protocol ServerRefusal: Error {}
