/// A notification type is a single JSON string, its ``NotificationType/rawValue``:
/// `"check_in"`, or an unknown type's raw string unchanged.
extension NotificationType: Codable {
  /// Decodes the wire form; any string succeeds (unknown ones as ``unknown(_:)``).
  ///
  /// ```swift
  /// let json = Data(#""poll""#.utf8)
  /// try JSONDecoder().decode(NotificationType.self, from: json)   // .unknown("poll")
  /// ```
  public init(from decoder: any Decoder) throws {
    self.init(rawValue: try decoder.singleValueContainer().decode(String.self))
  }

  /// Encodes the wire form.
  ///
  /// ```swift
  /// try JSONEncoder().encode(NotificationType.checkIn)   // "check_in"
  /// ```
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(rawValue)
  }
}
