import Foundation
import Loom
import Notifications
import Testing

/// A ``ChangeLog`` against a simulated server, at random: the person changes notifications, the
/// log sends what is ready, answers come in any order (some lost after the server applied the
/// change, some refused, some failing for now), another device changes the server, pushes
/// arrive before the server lists them, and the device refreshes.
///
/// After every step: no two records in flight change one notification (rule 2), and what the
/// person just did is shown. At the end everything is answered and the device refreshes: the
/// log holds nothing but notices, what is shown is the server's feed, the server applied each
/// change once (a retry of a lost answer changed nothing), and each notification the person
/// changed last is as they left it.
///
/// More seeds: `LOOM_CHANGE_LOG_SEEDS=5000 swift test --filter ChangeLogModelTests`; one seed
/// with its whole trace: `LOOM_CHANGE_LOG_TRACE=<seed> swift test --filter ChangeLogModelTests`.
struct ChangeLogModelTests {
  static var seeds: [UInt64] {
    let environment = ProcessInfo.processInfo.environment
    if let seed = environment["LOOM_CHANGE_LOG_TRACE"].flatMap(UInt64.init) { return [seed] }
    if let count = environment["LOOM_CHANGE_LOG_SEEDS"].flatMap(Int.init) {
      var system = SystemRandomNumberGenerator()
      return (0..<count).map { _ in system.next() }
    }
    return Array(1...100)
  }

  @Test(arguments: seeds)
  func aLogAgainstAServerKeepsItsRulesAndEndsAsTheServer(seed: UInt64) {
    var world = World(seed: seed)
    let shown =
      ProcessInfo.processInfo.environment["LOOM_CHANGE_LOG_TRACE"] == "\(seed)" ? 10_000 : 30
    for _ in 0..<120 {
      world.step()
      if let problem = world.problem {
        Issue.record(
          "seed \(seed), step \(world.steps): \(problem)\n\(world.trace.suffix(shown).joined(separator: "\n"))"
        )
        return
      }
    }
    world.converge()
    if let problem = world.problem {
      Issue.record(
        "seed \(seed), converged: \(problem)\n\(world.trace.suffix(shown).joined(separator: "\n"))")
    }
  }
}

/// The server: a feed with a cursor, applying each change id once.
private struct Server {
  var feed: [String: NotificationData] = [:]
  var cursor: UInt64 = 0
  var applied: [UUID: UInt64] = [:]
  /// How many times each change id changed the feed.
  var applications: [UUID: Int] = [:]

  mutating func stamp(_ id: String) {
    cursor += 1
    feed[id]?.version = ChangeCursor(cursor)
  }

  mutating func apply(_ request: ChangeRequest) -> Result<ChangeCursor, UserFacingError> {
    if let cursor = applied[request.id] { return .success(ChangeCursor(cursor)) }
    switch request.intent {
    case .markAsRead(let id), .markAsUnread(let id):
      guard feed[id] != nil else { return .failure(.notFound) }
      cursor += 1
      feed[id]?.isRead = request.intent == .markAsRead(id)
      feed[id]?.version = ChangeCursor(cursor)
    case .delete(let id):
      guard feed.removeValue(forKey: id) != nil else { return .failure(.notFound) }
      cursor += 1
    case .markAllAsRead(let ids):
      cursor += 1
      for id in ids ?? Array(feed.keys) where feed[id].map({ !$0.isRead }) ?? false {
        feed[id]?.isRead = true
        feed[id]?.version = ChangeCursor(cursor)
      }
    case .deleteAll(let bound):
      cursor += 1
      feed = feed.filter { !(bound?.covers($0.value) ?? true) }
    }
    applied[request.id] = cursor
    applications[request.id, default: 0] += 1
    return .success(ChangeCursor(cursor))
  }

  var sortedFeed: [NotificationData] {
    feed.values.sorted(by: NotificationData.isOrderedBefore)
  }
}

private struct World {
  var random: SeededRandomNumberGenerator
  var server = Server()
  var log = ChangeLog()
  /// The device's newest copies from the server, and the cursor they reflect.
  var truth: [NotificationData] = []
  var seen = ChangeCursor.zero
  var inFlight: [ChangeRequest] = []
  /// Pushes the device has, which the server lists later.
  var pushesToList: [NotificationData] = []
  /// The read state the person last chose, by id, while no other device changed it since.
  var choices: [String: Bool] = [:]
  /// The notifications the person deleted (or cleared) while they were shown.
  var deleted: Set<String> = []
  var nextID: UInt64 = 0
  var nextNotification = 0
  var steps = 0
  var trace: [String] = []
  var problem: String?
  static let start = Date(timeIntervalSince1970: 1_700_000_000)

  init(seed: UInt64) {
    random = SeededRandomNumberGenerator(seed: seed)
    for index in 0..<12 {
      let notification = NotificationData(
        id: "n\(index)", type: .ping, title: "n\(index)", message: "",
        timestamp: Self.start.addingTimeInterval(-Double(index) * 60), isRead: index % 3 == 0)
      server.feed[notification.id] = notification
      server.stamp(notification.id)
    }
    refresh()
  }

  var shown: NotificationFeed { log.shown(over: truth) }

  mutating func newID() -> UUID {
    nextID += 1
    return UUID(nextID)
  }

  mutating func note(_ line: String) { trace.append("\(steps): \(line)") }

  mutating func step() {
    steps += 1
    switch Int.random(in: 0..<100, using: &random) {
    case 0..<30: personChanges()
    case 30..<45: sendReady()
    case 45..<70: answerOne()
    case 70..<78: otherDeviceChanges()
    case 78..<86: pushArrives()
    case 86..<90: serverListsPushes()
    case 90..<96: refresh()
    default: recordNotice()
    }
    checkRules()
  }

  mutating func personChanges() {
    let ids = shown.ids
    guard let id = ids.randomElement(using: &random) else { return }
    let roll = Int.random(in: 0..<20, using: &random)
    let intent: ChangeIntent =
      switch roll {
      case 0..<8: .markAsRead(id)
      case 8..<14: .markAsUnread(id)
      case 14..<17: .delete(id)
      case 17: .markAllAsRead(Array(ids.prefix(4)))
      case 18: .markAllAsRead(nil)
      default:
        .deleteAll(upTo: shown.filter { !$0.isLocal }.first.map(FeedPosition.init))
      }
    note("person \(intent)")
    let before = shown
    log.record(intent, id: newID())
    let after = shown
    switch intent {
    case .markAsRead(let id):
      if after[id: id]?.isRead != true { problem = "\(id) not read at once" }
      choices[id] = true
    case .markAsUnread(let id):
      if before[id: id]?.isLocal == true {
        if after[id: id]?.isRead != true { problem = "notice \(id) shown unread" }
      } else {
        if after[id: id]?.isRead != false { problem = "\(id) not unread at once" }
        choices[id] = false
      }
    case .delete(let id):
      if after.contains(id: id) { problem = "\(id) listed after delete" }
      choices[id] = nil
      if before[id: id]?.isLocal == false { deleted.insert(id) }
    case .markAllAsRead(let named):
      for id in named ?? before.ids {
        if after[id: id].map({ !$0.isRead }) ?? false { problem = "\(id) unread after mark-all" }
        if before[id: id]?.isLocal == false { choices[id] = true }
      }
    case .deleteAll(let bound):
      for notification in before where bound?.covers(notification) ?? true {
        if after.contains(id: notification.id) { problem = "\(notification.id) left by clear-all" }
        choices[notification.id] = nil
        if !notification.isLocal { deleted.insert(notification.id) }
      }
      if after.contains(where: \.isLocal) { problem = "a notice left by clear-all" }
    }
  }

  mutating func sendReady() {
    // The backoff of some changes that failed for now is over.
    for record in log.records where record.status.isWaiting && Bool.random(using: &random) {
      log.retry(record.id)
      note("backoff over for \(record.intent)")
    }
    for id in log.recordsReadyToSend {
      guard let record = log[id] else { continue }
      log.markSending(id)
      inFlight.append(record.request)
      note("send \(record.intent)")
    }
  }

  mutating func answerOne() {
    guard !inFlight.isEmpty else { return }
    let request = inFlight.remove(at: Int.random(in: 0..<inFlight.count, using: &random))
    switch Int.random(in: 0..<10, using: &random) {
    case 0:
      note("503 for \(request.intent)")
      _ = log.fail(request.id, with: .server(status: 503), at: Self.start)
    case 1:
      // Applied, but the answer is lost.
      note("answer lost for \(request.intent): \(server.apply(request))")
      _ = log.fail(request.id, with: .network, at: Self.start)
    default:
      let result = server.apply(request)
      note("answer \(result) for \(request.intent)")
      receive(result, for: request)
    }
  }

  mutating func receive(_ result: Result<ChangeCursor, UserFacingError>, for request: ChangeRequest)
  {
    switch result {
    case .success(let cursor):
      log.acknowledge(request.id, at: cursor)
      log.forget(upTo: seen)
    case .failure(let error):
      if case .removed = log.fail(request.id, with: error, at: Self.start) {
        for id in request.intent.ids { choices[id] = nil }
      }
    }
  }

  mutating func otherDeviceChanges() {
    guard let id = server.feed.keys.sorted().randomElement(using: &random) else { return }
    if Bool.random(using: &random) {
      server.feed[id]?.isRead.toggle()
      server.stamp(id)
      note("other device toggles \(id)")
    } else {
      server.feed[id] = nil
      server.cursor += 1
      note("other device deletes \(id)")
      // The live stream tells the device.
      log.serverRemoved([id])
    }
    choices[id] = nil
  }

  mutating func pushArrives() {
    nextNotification += 1
    let push = NotificationData(
      id: "p\(nextNotification)", type: .ping, title: "push", message: "",
      timestamp: Self.start.addingTimeInterval(Double(nextNotification)))
    note("push \(push.id)")
    log.receive(push, at: Self.start)
    pushesToList.append(push)
  }

  mutating func serverListsPushes() {
    for push in pushesToList {
      server.feed[push.id] = push
      server.stamp(push.id)
    }
    if !pushesToList.isEmpty { note("server lists \(pushesToList.map(\.id))") }
    pushesToList = []
  }

  mutating func recordNotice() {
    nextNotification += 1
    let notice = NotificationData(
      id: "local-\(nextNotification)", type: .system, title: "notice", message: "",
      timestamp: Self.start.addingTimeInterval(Double(nextNotification)), isLocal: true)
    note("notice \(notice.id)")
    log.recordNotice(notice)
  }

  /// A page of the whole feed, answered at once.
  mutating func refresh() {
    truth = server.sortedFeed
    seen = ChangeCursor(server.cursor)
    log.serverListed(truth.map(\.id))
    log.forget(upTo: seen)
    note("refresh at \(seen)")
  }

  /// Rule 2, checked on its own terms: no two records in flight change one notification (a
  /// change to every notification changes each), and the records ready to send are the ones a
  /// scan of every record finds. The log's index is the one its records make.
  mutating func checkRules() {
    guard problem == nil else { return }
    if !log.indexIsConsistent {
      problem = "the log's index is not the one its records make"
      return
    }
    let ready = log.recordsReadyToSend
    let scanned = Self.readyToSend(scanning: log.records)
    if ready != scanned {
      problem = "ready to send \(ready), a scan of every record finds \(scanned)"
      return
    }
    var flying: Set<String> = []
    var inFlight = 0
    var everything = false
    for record in log.records {
      guard case .sending = record.status else { continue }
      inFlight += 1
      let names = record.intent.ids
      let touchesEverything: Bool =
        switch record.intent {
        case .markAllAsRead(nil), .deleteAll: true
        default: false
        }
      if everything || (touchesEverything && inFlight > 1) || !flying.isDisjoint(with: names) {
        problem = "\(record.intent) in flight beside another change to its notifications"
        return
      }
      flying.formUnion(names)
      if touchesEverything { everything = true }
    }
  }

  /// Rule 2 as a scan of every record, oldest first: a pending record is ready unless an older
  /// unacknowledged record or one in flight touches one of its notifications. A record that
  /// awaits a listing holds back no change to every notification.
  static func readyToSend(scanning records: IdentifiedArrayOf<ChangeRecord>) -> [UUID] {
    func touchesEverything(_ record: ChangeRecord) -> Bool {
      switch record.intent {
      case .markAllAsRead(nil), .deleteAll: true
      default: false
      }
    }
    let inFlight = records.filter { if case .sending = $0.status { true } else { false } }
    if inFlight.contains(where: touchesEverything) { return [] }
    var held = Set(inFlight.flatMap(\.intent.ids))
    var anyHeld = !held.isEmpty
    var ready: [UUID] = []
    for record in records where !record.isAcknowledged {
      if case .pending = record.status {
        let isFree =
          touchesEverything(record) ? !anyHeld : held.isDisjoint(with: record.intent.ids)
        if isFree { ready.append(record.id) }
      }
      if touchesEverything(record) { break }
      held.formUnion(record.intent.ids)
      if record.status != .awaitingListing { anyHeld = true }
    }
    return ready
  }

  mutating func converge() {
    serverListsPushes()
    refresh()
    // Pushes the server deleted before the device saw them listed never will be: long after,
    // they leave with the changes waiting for them.
    log.expireUnlisted(receivedBefore: .distantFuture)
    var rounds = 0
    while !log.unacknowledged.isEmpty || !inFlight.isEmpty {
      rounds += 1
      if rounds > 1_000 {
        problem = "does not converge: \(log.records.elements)"
        return
      }
      sendReady()
      while !inFlight.isEmpty {
        let request = inFlight.removeFirst()
        receive(server.apply(request), for: request)
      }
    }
    refresh()
    guard problem == nil else { return }
    if !log.records.isEmpty { problem = "records left: \(log.records.elements)" }
    if log.unlisted.contains(where: { !$0.isLocal }) { problem = "pushes left unlisted" }
    let expected = server.sortedFeed + log.unlisted.filter(\.isLocal)
    let shownIDs = shown.ids
    if Set(shownIDs) != Set(expected.map(\.id)) {
      problem = "shown \(shownIDs), server \(server.sortedFeed.map(\.id))"
    }
    for notification in server.sortedFeed where shown[id: notification.id] != notification {
      problem = "\(notification.id) shown as \(String(describing: shown[id: notification.id]))"
    }
    if let twice = server.applications.first(where: { $0.value > 1 }) {
      problem = "change \(twice.key) applied \(twice.value) times"
    }
    for id in deleted where server.feed[id] != nil {
      problem = "\(id) is on the server; the person deleted it"
    }
    for (id, isRead) in choices where server.feed[id].map({ $0.isRead != isRead }) ?? false {
      problem =
        "\(id) is \(isRead ? "unread" : "read") on the server; the person left it the other way"
    }
  }
}

extension ChangeRecord.Status {
  var isWaiting: Bool { if case .waiting = self { true } else { false } }
}
