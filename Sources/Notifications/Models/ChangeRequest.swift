import Foundation

/// A change the person asks a backend to make: mark read or unread, mark several read, delete,
/// or clear all up to a bound.
///
/// ```swift
/// let intent = ChangeIntent.markAsRead("n1")
/// intent.ids   // ["n1"]
/// ```
public enum ChangeIntent: Sendable, Hashable, Codable {
  case markAsRead(String)
  case markAsUnread(String)
  /// Marks read the notifications with these ids; every notification when `nil`.
  case markAllAsRead([String]?)
  case delete(String)
  /// A clear-all: deletes the notification at `upTo` and every one after it in the feed's
  /// order (see ``FeedPosition``), sparing those that arrived after the person cleared; every
  /// notification when `upTo` is `nil`.
  case deleteAll(upTo: FeedPosition?)

  /// The ids of the notifications the intent names: none for a clear-all or a mark-all of
  /// everything, which touch every notification.
  public var ids: [String] {
    switch self {
    case .markAsRead(let id), .markAsUnread(let id), .delete(let id): [id]
    case .markAllAsRead(let ids): ids ?? []
    case .deleteAll: []
    }
  }

  /// ``ids`` without an array for the one id most intents name: the feature reads an intent's
  /// ids several times an action, and each array was an allocation.
  package var namedIDs: NamedIDs {
    switch self {
    case .markAsRead(let id), .markAsUnread(let id), .delete(let id): NamedIDs(one: id)
    case .markAllAsRead(let ids): NamedIDs(many: ids ?? [])
    case .deleteAll: NamedIDs(many: [])
    }
  }

  /// The ids an intent names (``ChangeIntent/namedIDs``): one held inline, or several.
  package struct NamedIDs: RandomAccessCollection {
    private let one: String?
    private let many: [String]

    package init(one: String) {
      self.one = one
      self.many = []
    }

    package init(many: [String]) {
      self.one = nil
      self.many = many
    }

    package var startIndex: Int { 0 }
    package var endIndex: Int { one == nil ? many.count : 1 }
    package subscript(position: Int) -> String { one ?? many[position] }
  }
}

/// A change sent to a backend, with the id that makes it happen once: a backend that is asked
/// again for a change id it has applied (a retry after a lost answer) answers as it did the
/// first time and changes nothing.
///
/// ```swift
/// let request = ChangeRequest(id: UUID(), .markAsUnread("n1"))
/// let cursor = try await client.apply(request)   // the change's place in the backend's log
/// let again = try await client.apply(request)    // the same cursor; changed once
/// ```
public struct ChangeRequest: Sendable, Hashable, Codable, Identifiable {
  /// The client's id for the change, the same for every retry of it.
  public var id: UUID
  /// What to change.
  public var intent: ChangeIntent

  public init(id: UUID, _ intent: ChangeIntent) {
    self.id = id
    self.intent = intent
  }
}
