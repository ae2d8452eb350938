import AppShell
import Foundation
import Loom
import NotificationClients
import Notifications

/// Runs one command against a session and returns what to print.
@MainActor
func run(_ arguments: Arguments, session: Session, renderer: Renderer) async throws(CLIError)
  -> String
{
  func id() throws(CLIError) -> String {
    guard let id = arguments.positional.first else {
      throw .usage(
        "'\(arguments.command ?? "")' needs a notification id", command: arguments.command)
    }
    return id
  }

  switch arguments.command {
  case "list":
    let type = try arguments.type()
    let unreadOnly = arguments.flags.contains("--unread")
    let all = arguments.flags.contains("--all")
    var shown: [NotificationData]
    var hasMore: Bool
    if type != nil || unreadOnly {
      // A filtered list is the backend's filtered pages: the first, or every one with --all.
      try await session.load(.firstPage)
      let request = PageRequest(
        limit: NotificationFeature.pageSize, filter: type.map { .type($0) } ?? .all,
        unreadOnly: unreadOnly)
      (shown, hasMore) = try await session.filtered(request, all: all)
    } else {
      try await session.load(all ? .all : .firstPage)
      await session.send(.filterChanged(.all))
      await session.send(.unreadOnlyChanged(false))
      shown = Array(session.feature.filteredNotifications)
      hasMore = session.feature.paging.hasMore
    }
    if arguments.flags.contains("--json") { return Renderer.json(shown) }
    var output = renderer.table(shown)
    if hasMore {
      let flags = (unreadOnly ? " --unread" : "") + (type.map { " --type \($0.rawValue)" } ?? "")
      let which = flags.isEmpty ? "every notification" : "every one"
      output += "\nThe newest \(shown.count) are shown; 'list --all\(flags)' lists \(which)."
    }
    output += "\n\(session.feature.unreadCount) unread"
    let highlighted = session.feature.highlightedEntities.map(renderer.describe).sorted()
    if !highlighted.isEmpty { output += "\nhighlighted: " + Renderer.list(highlighted, limit: 8) }
    return output

  case "show":
    let id = try id()
    try await session.load(.firstPage)
    // The feature fetches one the first page does not list.
    await session.send(.loadNotification(id))
    try session.failIfError(id: id)
    guard let notification = session.feature.shown[id: id] else {
      throw .failed("No notification with id \(Renderer.id(id)).")
    }
    return arguments.flags.contains("--json")
      ? Renderer.json(notification) : renderer.detail(notification)

  case "read":
    if arguments.flags.contains("--all") {
      try await session.load()
      await session.send(.markAllAsRead)
      try session.failIfError()
      return "Marked every notification read."
    }
    let id = try id()
    // The feature changes a notification by id whether or not a page listed it.
    try await session.load(.firstPage)
    await session.send(.markAsRead(id))
    try session.failIfError(id: id)
    return "Marked \(id) read."

  case "unread":
    let id = try id()
    try await session.load(.firstPage)
    await session.send(.markAsUnread(id))
    try session.failIfError(id: id)
    return "Marked \(id) unread."

  case "delete":
    let id = try id()
    try await session.load(.firstPage)
    await session.send(.delete(id))
    try session.failIfError(id: id)
    return "Deleted \(id)."

  case "clear":
    // Clearing covers the pages not loaded too (the backend deletes up to the oldest listed).
    try await session.load(.firstPage)
    await session.send(.clearAll)
    try session.failIfError()
    return "Deleted every notification."

  case "push":
    let payload: Data
    if let path = arguments.options["--file"] {
      guard let data = FileManager.default.contents(atPath: path) else {
        throw .failed("Cannot read \(path).")
      }
      payload = data
    } else if let json = arguments.positional.first {
      payload = Data(json.utf8)
    } else {
      throw .usage("'push' needs a JSON payload or --file FILE", command: "push")
    }
    // The launch (what earlier runs saved, and the first page) is all a push needs: it cost
    // every page of the inbox when it loaded them all (46 s at 100,000).
    try await session.load(.firstPage)
    await session.send(.pushReceived(payload))
    if let error = session.feature.lastPushParseError {
      throw .failed("Invalid push payload: \(error)")
    }
    // The feature keeps the push (it saves the pushes its feed has not listed): the CLI, like
    // any shell, only sends the action.
    let received = try? PushPayloadParser.parse(payload, receivedAt: Date())
    guard let notification = received.flatMap({ session.feature.shown[id: $0.id] }) else {
      throw .failed("The push was not delivered.")
    }
    return "Delivered \(notification.id): \(notification.title)"

  case "tap":
    let id = try id()
    try await session.load(.firstPage)
    // The feature fetches one the first page does not list, then opens it.
    await session.send(.notificationTapped(id))
    try session.failIfError()
    let app = session.store.state
    switch session.feature.lastTap {
    case .navigated?:
      return "Opened \(app.path.last.map(Renderer.screen) ?? "nothing")"
    case .nothingToOpen?:
      return "Marked \(id) read; it has nothing to open."
    case .notFound?, nil:
      throw .failed("No notification with id \(Renderer.id(id)).")
    }

  case "open":
    guard arguments.positional.count == 2 else {
      throw .usage("'open' needs a kind (contact, alert or ping) and an id", command: "open")
    }
    let id = arguments.positional[1]
    let entity: NotificationFeature.Entity
    switch arguments.positional[0] {
    case "contact": entity = .contact(id)
    case "alert": entity = .alert(id)
    case "ping": entity = .ping(id)
    case let kind:
      let suggestion =
        Arguments.closest(to: kind, in: ["contact", "alert", "ping"]).map {
          "; did you mean '\($0)'?"
        }
        ?? "."
      throw .usage(
        "Unknown kind '\(kind)'\(suggestion) The kinds are contact, alert and ping.",
        command: "open")
    }
    // The feature marks the first page's at once and fetches the others about the entity.
    try await session.load(.firstPage)
    let before = session.feature.unreadCount
    await session.send(.markTargetRead(entity))
    try session.failIfError()
    let marked = before - session.feature.unreadCount
    return
      "Opened \(renderer.describe(entity)): marked \(marked) notification\(marked == 1 ? "" : "s") read."

  case "notice":
    guard let title = arguments.positional.first else {
      throw .usage("'notice' needs a TITLE (and may take a MESSAGE)", command: "notice")
    }
    guard !title.allSatisfy(\.isWhitespace) else {
      throw .usage("'notice' needs a title that is not blank", command: "notice")
    }
    let message = arguments.positional.dropFirst().joined(separator: " ")
    try await session.load(.firstPage)
    // The shell only sends the action: the feature keeps the notice (on the device, saved in
    // its change log), and the next run lists it.
    let before = Set(session.feature.shown.ids)
    await session.send(.recordLocalNotice(title: title, message: message))
    guard
      let notice = session.feature.shown.first(where: {
        $0.isLocal && !before.contains($0.id)
      })
    else { throw .failed("The notice was not recorded.") }
    return "Recorded \(notice.id): \(notice.title)"

  case "seed":
    let count = try arguments.number("--count", in: 1...10_000, default: 10) ?? 10
    do {
      try session.inbox.insert(SampleData.notifications(count: count, now: Date()))
    } catch {
      throw .failed("\(error)")
    }
    return "Added \(count) notification\(count == 1 ? "" : "s")."

  case let command?:
    throw .usage("'\(command)' cannot run here.")

  case nil:
    throw .usage("No command given.")
  }
}

/// Sample notifications for `seed` and `demo`.
enum SampleData {
  /// Each call's ids are new (`s`, a random batch, `-` and the index), so seeding twice adds to
  /// the inbox instead of replacing what the first seed added.
  static func notifications(count: Int, now: Date) -> [NotificationData] {
    let batch = UUID().uuidString.prefix(8).lowercased()
    let names = ["Ada", "Grace", "Alan", "Edsger", "Barbara", "Donald"]
    return (0..<count).map { index in
      let name = names[index % names.count]
      let type = NotificationType.knownCases[index % NotificationType.knownCases.count]
      let target: NotificationTarget
      switch type {
      case .ping: target = .ping(pingID: "p\(index)", contactID: "c\(index % names.count)")
      case .alert: target = .alert(alertID: "a\(index)")
      case .system: target = .none
      default: target = .contact(contactID: "c\(index % names.count)")
      }
      return NotificationData(
        id: "s\(batch)-\(index)", type: type,
        title: "\(type.displayName): \(name)",
        message: "\(name) — sample notification \(index + 1)",
        timestamp: now.addingTimeInterval(-Double(index) * 600), target: target,
        priority: type == .alert ? .high : .regular)
    }
  }
}
