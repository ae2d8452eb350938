/// The answer of a backend asked for a notification it deleted, with the cursor of the
/// deletion: ordered against everything else the backend says, it tells a push of a deleted
/// notification (delivered late, or again after a relaunch) from a push the backend has not
/// listed yet, which it answers with `UserFacingError.notFound`.
///
/// ```swift
/// do {
///   let copy = try await client.fetchNotification(id)
///   feed.fetched(copy)
/// } catch let deleted as DeletedNotificationError {
///   feed.remove(deleted.id, at: deleted.cursor)
/// }
/// ```
///
/// Shown to a person it is `UserFacingError.notFound` (``UserFacingError/init(_:)``). Over HTTP
/// it is a `410 Gone` whose body is `{"id": "n1", "deletedAt": "42"}`. A backend that forgets
/// deletions answers `notFound` for them, as it always did.
public struct DeletedNotificationError: Error, Sendable, Hashable, Codable {
  /// The notification's id.
  public var id: String
  /// The cursor of the change that deleted it.
  public var cursor: ChangeCursor

  public init(id: String, cursor: ChangeCursor) {
    self.id = id
    self.cursor = cursor
  }

  enum CodingKeys: String, CodingKey {
    case id
    case cursor = "deletedAt"
  }
}
