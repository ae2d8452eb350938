import Foundation
import Loom
import LoomTesting
import Notifications
import Testing

/// What the tests ported from `NotificationsFeature` share: a backend whose every answer the
/// test scripts (or holds until it resumes it), and a launch up to the live stream.
enum Ported {
  typealias Feature = NotificationFeature
  typealias Store = TestStore<Feature.State, Feature.Action>

  static let start = ChangeLogTests.start

  /// A notification of the feed, `minutesAgo` before the tests' start, at `version`.
  static func notification(
    _ id: String, isRead: Bool = false, version: ChangeCursor? = 1, minutesAgo: Double,
    type: NotificationType = .ping, target: NotificationTarget = .none
  ) -> NotificationData {
    var notification = ChangeLogTests.notification(
      id, isRead: isRead, version: version, minutesAgo: minutesAgo)
    notification.type = type
    notification.target = target
    return notification
  }

  static func read(_ notification: NotificationData, version: ChangeCursor? = nil)
    -> NotificationData
  {
    var read = notification
    read.isRead = true
    if let version { read.version = version }
    return read
  }

  static func unread(_ notification: NotificationData, version: ChangeCursor? = nil)
    -> NotificationData
  {
    var unread = notification
    unread.isRead = false
    if let version { unread.version = version }
    return unread
  }

  /// The payload of a push of `id`, `minutesAgo` before the tests' start.
  static func pushPayload(
    _ id: String, minutesAgo: Double, type: NotificationType = .ping,
    priority: NotificationPriority = .regular, target: String = ""
  ) -> Data {
    let timestamp = Int(start.timeIntervalSince1970 - minutesAgo * 60)
    let fields: String =
      #""id":"\#(id)","type":"\#(type.rawValue)","title":"\#(id)","body":"","#
      + #""timestamp":\#(timestamp),"priority":"\#(priority.rawValue)""# + target
    return payload("{" + fields + "}")
  }

  /// The notification a push payload becomes.
  static func parsed(_ payload: Data) -> NotificationData {
    do {
      return try PushPayloadParser.parse(payload, receivedAt: start)
    } catch {
      Issue.record("The push does not parse: \(error)")
      return notification("unparsable", minutesAgo: 0)
    }
  }

  /// A backend whose answers the test scripts: each page, each change's answer (a cursor, an
  /// error, or held until the test resumes it), each notification by id. Its live stream stays
  /// open, sending nothing, until the feature leaves the screen.
  final class Backend: Sendable {
    enum Answer: Sendable {
      case at(ChangeCursor?)
      case failure(UserFacingError)
      case held(TestContinuation<ChangeCursor?>)
    }

    enum PageAnswer: Sendable {
      case page(NotificationPage)
      case failure(UserFacingError)
      case held(TestContinuation<NotificationPage>)
    }

    enum UnreadAnswer: Sendable {
      case unread([NotificationData])
      case failure(UserFacingError)
      case held(TestContinuation<[NotificationData]>)
    }

    let pages: LockedState<[PageAnswer]>
    let answers: LockedState<[Answer]>
    /// Every change request, in the order sent.
    let requests = LockedState<[ChangeRequest]>([])
    /// Every page request, in the order sent.
    let pageRequests = LockedState<[PageRequest]>([])
    /// The cursor each opening of the live stream resumed from.
    let opened = LockedState<[ChangeCursor?]>([])
    /// What `changesSince` answers.
    let catchUp: LockedState<[NotificationEvent]>
    /// What `fetchNotification` answers, by id (`notFound` for any other).
    let byID: LockedState<[String: NotificationData]>
    /// What `fetchUnread` answers once `unreadAnswers` are used up.
    let unread: LockedState<[NotificationData]>
    /// What `fetchUnread` answers first, one answer a call, in order.
    let unreadAnswers: LockedState<[UnreadAnswer]>
    /// The entities `fetchUnread` was asked about, in the order asked.
    let unreadAsked = LockedState<[NotificationFeature.Entity]>([])

    init(
      pages: [PageAnswer], answers: [Answer] = [], catchUp: [NotificationEvent] = [],
      byID: [String: NotificationData] = [:], unread: [NotificationData] = [],
      unreadAnswers: [UnreadAnswer] = []
    ) {
      self.pages = LockedState(pages)
      self.answers = LockedState(answers)
      self.catchUp = LockedState(catchUp)
      self.byID = LockedState(byID)
      self.unread = LockedState(unread)
      self.unreadAnswers = LockedState(unreadAnswers)
    }

    convenience init(
      pages: [NotificationPage], answers: [Answer] = [], byID: [String: NotificationData] = [:],
      unread: [NotificationData] = []
    ) {
      self.init(pages: pages.map(PageAnswer.page), answers: answers, byID: byID, unread: unread)
    }

    /// The requests sent so far.
    var sent: [ChangeRequest] { requests.withLock { $0 } }
    /// The intents sent so far.
    var sentIntents: [ChangeIntent] { requests.withLock { $0 }.map(\.intent) }

    var client: NotificationClient {
      NotificationClient(
        fetchPage: { request in
          self.pageRequests.withLock { $0.append(request) }
          let answer = self.pages.withLock { $0.isEmpty ? nil : $0.removeFirst() }
          switch answer {
          case .page(let page): return page
          case .failure(let error): throw error
          case .held(let page): return try await page.value
          case nil:
            Issue.record("A page was asked for that the test did not script")
            throw UserFacingError.network
          }
        },
        updates: { cursor in
          self.opened.withLock { $0.append(cursor) }
          return AsyncThrowingStream { _ in }
        },
        changesSince: { _ in self.catchUp.withLock { $0 } },
        apply: { request in
          self.requests.withLock { $0.append(request) }
          let answer = self.answers.withLock { $0.isEmpty ? nil : $0.removeFirst() }
          switch answer {
          case .at(let cursor): return cursor
          case .failure(let error): throw error
          case .held(let answer): return try await answer.value
          case nil:
            Issue.record("A change was sent that the test did not script: \(request.intent)")
            throw UserFacingError.network
          }
        },
        fetchNotification: { id in
          guard let copy = self.byID.withLock({ $0[id] }) else { throw UserFacingError.notFound }
          return copy
        },
        fetchUnread: { entity in
          self.unreadAsked.withLock { $0.append(entity) }
          let answer = self.unreadAnswers.withLock { $0.isEmpty ? nil : $0.removeFirst() }
          switch answer {
          case .unread(let copies): return copies
          case .failure(let error): throw error
          case .held(let copies): return try await copies.value
          case nil: return self.unread.withLock { $0 }
          }
        })
    }
  }

  /// A store of the feature over `backend`, with fixed time and ids, the log saved in `saved`.
  @MainActor
  static func makeStore(
    _ state: Feature.State = Feature.State(), backend: Backend,
    saved: ChangeLogStore = .inMemory(), settings: SettingsClient = .inMemory(),
    clock: any Clock<Duration> = ImmediateClock(), push: PushClient = .unavailable,
    client: NotificationClient? = nil
  ) -> Store {
    let store = TestStore(initialState: state) {
      NotificationFeature()
    } withDependencies: {
      $0.date = .constant(start)
      $0.uuid = .incrementing
      $0.continuousClock = clock
      $0.notificationClient = client ?? backend.client
      $0.changeLogStore = saved
      $0.settingsClient = settings
      $0.pushClient = push
      $0.randomNumberGenerator = WithRandomNumberGenerator(SeededRandomNumberGenerator(seed: 1))
    }
    store.timeout = featureTestTimeout
    return store
  }

  /// `store` appears, with nothing saved: the launch reads that, and asks for the first page.
  @MainActor
  static func appearWithNothingSaved(_ store: Store) async {
    await store.send(.onAppear) { $0.launch = .restoring() }
    await store.receive(.restored(Feature.Saved(log: ChangeLog(), authorization: .denied))) {
      $0.launch = .ready
      $0.paging.isLoading = true
      $0.preferences.authorization = .denied
    }
  }

  /// Launches `store`, with nothing saved, up to its first page, `page`, and the live stream's
  /// opening.
  @MainActor
  static func launch(_ store: Store, listing page: NotificationPage) async {
    await appearWithNothingSaved(store)
    await receiveFirstPage(page, in: store)
    let unread = store.state.unreadCount
    await store.receive(.updatesConnected) { $0.connection = .live }
    if unread > 0 { await store.receive(.delegate(.unreadCountChanged(unread))) }
  }

  /// Receives the launch's first page, `page`, which opens the live stream.
  @MainActor
  static func receiveFirstPage(_ page: NotificationPage, in store: Store) async {
    await store.receive(.pageLoaded(page, first: true)) {
      $0.paging.isLoading = false
      $0.server.replace(with: page)
      $0.paging.hasMore = page.hasMore
      $0.paging.next = page.nextCursor
      $0.log.serverListed(page.items.map(\.id))
      $0.reshowAll()
      $0.connection = .connecting
    }
  }

  /// A store launched over a backend listing `page`, with `answers` for the changes.
  @MainActor
  static func launched(
    listing page: NotificationPage, answers: [Backend.Answer] = [],
    byID: [String: NotificationData] = [:], clock: any Clock<Duration> = ImmediateClock(),
    saved: ChangeLogStore = .inMemory(), settings: SettingsClient = .inMemory()
  ) async -> (Store, Backend) {
    let backend = Backend(pages: [page], answers: answers, byID: byID)
    let store = makeStore(backend: backend, saved: saved, settings: settings, clock: clock)
    await launch(store, listing: page)
    return (store, backend)
  }

  /// What the feature does when the server's feed changes: the acknowledged records the feed
  /// has seen leave, and those the copies of `ids` held reflect.
  static func forgetSeen(_ state: inout Feature.State, reflectedIn ids: [String] = []) {
    if let current = state.server.current { state.log.forget(upTo: current) }
    let server = state.server
    state.log.forget(reflectedIn: ids) { server.notifications[id: $0] }
  }

  /// The feature leaves the screen: the live stream ends.
  @MainActor
  static func leave(_ store: Store) async {
    await store.send(.onDisappear) { $0.connection = .offline }
  }
}
