import Foundation
import Loom
import NotificationClients
import Notifications

/// Where the app shell's notifications come from, and the live dependencies that follow: the
/// local inbox alone, or a notifications server whose feed a local inbox caches. A shell sets
/// them with ``Loom/DependencyValues/use(_:)`` when it creates its store; here a server's,
/// cached beside the local inbox's database `inboxURL` (such as `LocalInbox.defaultURL()`):
///
/// ```swift
/// let cache = LocalInbox(
///   url: AppBackend.cacheURL(for: serverURL, account: token, beside: inboxURL))
/// let scope = AppBackend.scope(for: serverURL, account: token)
/// let store = Store(initialState: AppFeature.State()) {
///   AppFeature()
/// } withDependencies: {
///   $0.use(.server(.live(baseURL: serverURL, token: token), cachedIn: cache, scope: scope))
/// }
/// store.send(.launched)
/// store.send(.notifications(.onAppear))
/// ```
///
/// With a server, the list shows what the cache holds at once, then the server's feed, which
/// replaces it; when the server cannot be reached, it shows the cache. The settings (the
/// filter, muted types) and the change log (the changes queued for the server, the pushes the
/// feed has not listed, the local notices) are kept in the same inbox, so a push received
/// offline is still listed after a relaunch.
///
/// > Important: Give each server and account its own cache
/// > (``cacheURL(for:account:beside:)``) and its own change log scope
/// > (``scope(for:account:)``): a cache holds one feed and the changes queued for it, and
/// > another account's would be replaced by it, or sent with the wrong credentials.
public struct AppBackend: Sendable {
  /// The database on the device: the feed itself, or the cache of the server's. The settings
  /// are kept in it.
  public let inbox: LocalInbox
  /// The client the feature reads and changes the feed with.
  public var notificationClient: NotificationClient
  /// The client the feature keeps its settings with (the filter, the muted types): the
  /// inbox's.
  public var settingsClient: SettingsClient
  /// Where the feature keeps its change log (the changes on their way to the server, the
  /// pushes the feed has not listed, the local notices): the inbox's database, in the scope of
  /// the feed's server and account.
  public var changeLogStore: ChangeLogStore

  /// The change log scope of the local inbox's own feed.
  public static let localScope = "local"

  /// The local inbox alone: its feed, its settings and its change log.
  public static func localInbox(_ inbox: LocalInbox) -> Self {
    Self(
      inbox: inbox, notificationClient: inbox.notificationClient,
      settingsClient: inbox.settingsClient,
      changeLogStore: inbox.changeLogStore(scope: localScope))
  }

  /// The server `remote` reaches (usually `.live(baseURL:token:)`), its feed cached in `cache`
  /// (see `LocalInbox.caching(_:)`), the settings and the change log kept in `cache`, the log
  /// in `scope`: the one ``scope(for:account:)`` names for the server and the account.
  public static func server(
    _ remote: NotificationClient, cachedIn cache: LocalInbox, scope: String
  ) -> Self {
    Self(
      inbox: cache, notificationClient: cache.caching(remote),
      settingsClient: cache.settingsClient, changeLogStore: cache.changeLogStore(scope: scope))
  }

  /// The change log scope of the feed of `account` (its token; `nil` for a server without
  /// accounts) on the server at `server`: `server ADDRESS KEY`, where `KEY` is the hash
  /// ``cacheURL(for:account:beside:)`` names the cache with, so that the scope does not show
  /// the account. The same on every run: the changes one account queued are never read, or
  /// sent, for another.
  public static func scope(for server: URL, account: String?) -> String {
    let address = Self.address(of: server)
    let key = account.map { stableKey(address + "\u{0}" + $0) } ?? stableKey(address)
    return "server \(address) \(key)"
  }

  /// The server's address without a trailing slash: `http://h:1/` and `http://h:1` are one.
  private static func address(of server: URL) -> String {
    server.absoluteString.hasSuffix("/")
      ? String(server.absoluteString.dropLast()) : server.absoluteString
  }

  /// The cache of the feed of `account` (what identifies the person to the server: here its
  /// token; `nil` for a server without accounts) on the server at `server`:
  /// `server-HOST-PORT-KEY.sqlite` in the folder of `inbox` (the local inbox's database, such
  /// as `LocalInbox.defaultURL()`).
  ///
  /// Everything kept for a server is kept per account: its feed, the settings, and the change
  /// log with the changes queued offline (in the scope ``scope(for:account:)`` names). One cache for both, account B's first page replaced A's feed,
  /// and a clear-all A queued offline was sent with B's credentials, deleting B's
  /// notifications.
  ///
  /// The host and port make the name readable (`-PORT` only when the address has one); `KEY`
  /// tells apart what they do not: other servers (`a.b` and `a-b`, `http` and `https` on one
  /// port, two paths on one host) and other accounts. It is a hash of the server's address and
  /// the account, the same on every run and every device, which does not show the account.
  ///
  /// Without an account, a cache an earlier version made (named `server-HOST-PORT.sqlite`) is
  /// used while there is none by the new name: it holds the changes queued offline and the
  /// settings. With one, it is not: nothing tells whose changes it queued. It stays on disk.
  public static func cacheURL(for server: URL, account: String?, beside inbox: URL) -> URL {
    let host = (server.host ?? "server").map { $0.isLetter || $0.isNumber ? $0 : "-" }
    let port = server.port.map { "-\($0)" } ?? ""
    let address = Self.address(of: server)
    let key = account.map { stableKey(address + "\u{0}" + $0) } ?? stableKey(address)
    let folder = inbox.deletingLastPathComponent()
    let named = folder.appendingPathComponent("server-\(String(host))\(port)-\(key).sqlite")
    let earlier = folder.appendingPathComponent("server-\(String(host))\(port).sqlite")
    let files = FileManager.default
    if account == nil, !files.fileExists(atPath: named.path), files.fileExists(atPath: earlier.path)
    {
      return earlier
    }
    return named
  }

  /// 16 hex digits of the 64-bit FNV-1a hash of `text`'s UTF-8: unlike `Hasher`, the same in
  /// every process.
  static func stableKey(_ text: String) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in text.utf8 {
      hash ^= UInt64(byte)
      hash &*= 0x0000_0100_0000_01b3
    }
    let digits = String(hash, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
  }
}

extension DependencyValues {
  /// Sets the feature's live clients to `backend`'s: the notification client, the settings
  /// client and the change log store, which must come from the same inbox (see
  /// ``AppShell/AppBackend``).
  ///
  /// ```swift
  /// let store = Store(initialState: AppFeature.State()) {
  ///   AppFeature()
  /// } withDependencies: {
  ///   $0.use(.localInbox(inbox))
  /// }
  /// ```
  public mutating func use(_ backend: AppBackend) {
    notificationClient = backend.notificationClient
    settingsClient = backend.settingsClient
    changeLogStore = backend.changeLogStore
  }
}
