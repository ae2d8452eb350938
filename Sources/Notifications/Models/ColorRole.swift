/// The colour roles a shell maps to its palette, so the models never name concrete colours.
///
/// ```swift
/// let tint: Color = switch notification.type.colorRole {
///   case .critical: .red
///   case .accent: .accentColor
///   default: .secondary
/// }
/// ```
public enum ColorRole: String, Sendable, Hashable, Codable, CaseIterable {
  /// Needs attention now (alerts).
  case critical
  /// The app's accent (pings).
  case accent
  /// Informational (role changes).
  case info
  /// Something good happened (added, check-in).
  case positive
  /// Something to notice (removed).
  case warning
  /// No particular emphasis (system, unknown).
  case neutral
}
