/// The volume caffeine spreads through, per kilogram of body weight: what turns milligrams in the body
/// into milligrams per litre of plasma.
public enum DistributionVolume {
    /// 0.56 L/kg: the total clearance of 0.078 L/h/kg at the mean half-life of about 5 hours that the
    /// Institute of Medicine gives (2001, from Brachtel & Richter 1992 and Busto et al. 1989), as
    /// clearance · half-life / ln 2 = 0.5627. Caffeine spreads through body water; the conditions that
    /// change its half-life change its clearance, not this volume.
    public static let litresPerKilogram = 0.56
    public static let source = "Institute of Medicine 2001: clearance 0.078 L/h/kg at a 5 h half-life"
}
