import AppShell
import Foundation
import Loom
import NotificationClients
import Notifications

/// A scripted session on a fresh temporary inbox, told section by section on standard output:
/// the list, a push arriving (its banner), a tap navigating, mark-all-read, a change the backend
/// refuses leaving the change log (what is shown is the backend's again), a change waiting in
/// the log after a network error, and a relaunch that sends it and still lists the push. Every line says what the app's state
/// says, read after the step, never what the step is expected to do. With `trace`, every
/// action and the state change it caused go to standard error as well.
@MainActor
func runDemo(renderer: Renderer, trace: Bool) async throws(CLIError) {
  let folder = FileManager.default.temporaryDirectory
    .appendingPathComponent("loom-demo-\(UUID().uuidString)")
  defer { try? FileManager.default.removeItem(at: folder) }
  let inbox = LocalInbox(url: folder.appendingPathComponent("inbox.json"))
  do {
    try inbox.insert(SampleData.notifications(count: 5, now: renderer.now))
  } catch {
    throw .failed("\(error)")
  }

  // The backend fails on demand, to show a refused change and a queued one.
  let faults = LockedState<[UserFacingError]>([])
  var client = inbox.notificationClient
  let base = client
  @Sendable nonisolated func nextFault() -> UserFacingError? {
    faults.withLock { $0.isEmpty ? nil : $0.removeFirst() }
  }
  client.markAsUnread = { id in
    if let fault = nextFault() { throw fault }
    try await base.markAsUnread(id)
  }
  client.delete = { id in
    if let fault = nextFault() { throw fault }
    try await base.delete(id)
  }

  // Standard output is flushed before each trace entry, so that the two streams interleave in
  // order on a terminal or in one file. No backoff is waited out: a change that fails for now
  // stays in the change log, and the relaunch sends it, as with the other commands.
  func session() -> Session {
    Session(
      inbox: inbox, client: client, trace: trace, waitsOutBackoffs: false,
      output: {
        fflush(nil)
        FileHandle.standardError.write(Data("\($0)\n".utf8))
      })
  }
  var story = DemoStory(renderer: renderer)

  story.section("Launch: the app loads the inbox")
  let app = session()
  try await app.load()
  story.table(app)
  story.say("\(story.counts(app)); \(story.badge(app)).")

  story.section("A push arrives while the app is open")
  await app.send(.foregroundChanged(true))
  let push =
    #"{"aps":{"alert":{"title":"Ping from Grace","body":"Are you there?"},"interruption-level":"time-sensitive"},"id":"push-1","type":"ping","pingId":"p9","contactId":"c1"}"#
  await app.send(.pushReceived(Data(push.utf8)))
  story.say("Banner: \(app.store.state.currentBanner.map(renderer.banner) ?? "none")")
  let position = app.feature.filteredNotifications.firstIndex { $0.id == "push-1" }
  story.say(
    (position.map { "push-1 is listed \($0 == 0 ? "first" : "at position \($0 + 1)")" }
      ?? "push-1 is not listed") + ": \(story.counts(app)); \(story.badge(app)).")
  story.error(app)
  await app.store.send(.bannerDismissed).finish()
  await app.send(.foregroundChanged(false))

  story.section("The person taps the push")
  await app.send(.notificationTapped("push-1"))
  story.say("The app shows \(app.store.state.path.last.map(Renderer.screen) ?? "no screen").")
  story.say("push-1 is \(story.readState("push-1", in: app)): \(story.counts(app)).")
  story.error(app)

  story.section("Mark all as read")
  await app.send(.markAllAsRead)
  story.say("\(story.counts(app)); \(story.badge(app)).")
  story.error(app)

  guard
    let first = app.feature.filteredNotifications.first(where: { !$0.isLocal && $0.id != "push-1" })
  else { throw .failed("The demo inbox is empty.") }
  let id = first.id

  story.section("The server refuses a change")
  faults.withLock { $0 = [.server(status: 400)] }
  let unread = app.store.send(.notifications(.markAsUnread(id)))
  story.say(
    "Mark \(id) unread: at once it is \(story.readState(id, in: app)) (\(story.counts(app))).")
  await unread.finish()
  story.say("The server answers. \(story.shownError(app))")
  story.say("Now \(id) is \(story.readState(id, in: app)): \(story.counts(app)).")
  await app.send(.dismissError)

  story.section("The network is down")
  faults.withLock { $0 = [.network] }
  let delete = app.store.send(.notifications(.delete(id)))
  story.say("Delete \(id): at once it is \(story.listedState(id, in: app)) (\(story.counts(app))).")
  await delete.finish()
  let waiting = app.feature.log.unsent.count
  let changes = waiting == 1 ? "1 change waits" : "\(waiting) changes wait"
  story.say("The server cannot be reached: \(changes) in the outbox. \(story.shownError(app))")
  story.say("\(id) is \(story.listedState(id, in: app)).")

  story.section("Relaunch: a new session on the same inbox")
  let relaunched = session()
  try await relaunched.load()
  story.table(relaunched)
  story.say("\(story.counts(relaunched)); \(story.badge(relaunched)).")
  let left = relaunched.feature.log.unsent.count
  let outbox = left == 0 ? "empty, every change sent" : "\(left) waiting"
  story.say("Outbox: \(outbox); \(id) is \(story.listedState(id, in: relaunched)).")
  let listed = story.listedState("push-1", in: relaunched)
  let read = story.readState("push-1", in: relaunched)
  story.say("push-1 is \(listed) and \(read) (the inbox never had it; the app kept it).")
  story.error(relaunched)
}

/// The demo's standard output: sections, each a header with a rule, and plain lines.
struct DemoStory {
  let renderer: Renderer
  private var hasSection = false

  init(renderer: Renderer) {
    self.renderer = renderer
  }

  /// A header and its rule; a blank line before every header but the first.
  mutating func section(_ title: String) {
    let rule = String(repeating: "─", count: max(3, 60 - title.count))
    print((hasSection ? "\n" : "") + "── \(title) \(rule)")
    hasSection = true
  }

  func say(_ line: String) { print(line) }

  /// The list the person sees.
  @MainActor func table(_ session: Session) {
    print(renderer.table(session.feature.filteredNotifications))
  }

  /// The error the app shows, if any: said only when there is one.
  @MainActor func error(_ session: Session) {
    if let error = session.store.state.error { print("Error shown: \(error.message)") }
  }

  @MainActor func shownError(_ session: Session) -> String {
    session.store.state.error.map { "Error shown: \($0.message)" } ?? "No error is shown."
  }

  @MainActor func counts(_ session: Session) -> String {
    let count = session.feature.filteredNotifications.count
    return "\(count) notification\(count == 1 ? "" : "s"), \(session.feature.unreadCount) unread"
  }

  @MainActor func badge(_ session: Session) -> String {
    let text = session.store.state.badgeText
    return text.isEmpty ? "no badge" : "the badge shows \(text)"
  }

  @MainActor func readState(_ id: String, in session: Session) -> String {
    guard let notification = session.feature.shown[id: id] else { return "not listed" }
    return notification.isRead ? "read" : "unread"
  }

  @MainActor func listedState(_ id: String, in session: Session) -> String {
    session.feature.shown[id: id] == nil ? "gone from the list" : "listed"
  }
}
