import Foundation

/// How a list of notifications is grouped for a shell: by day, by thread, and the entities with
/// unread notifications. The notification center's state answers with these.
extension FilteredNotifications {
  /// The notifications grouped into Today, Yesterday and Earlier relative to `now`, empty groups
  /// left out.
  public func daySections(
    now: Date, calendar: Calendar = .current
  ) -> [NotificationFeature.DaySection] {
    var today: [NotificationData] = []
    var yesterday: [NotificationData] = []
    var earlier: [NotificationData] = []
    let previous = calendar.date(byAdding: .day, value: -1, to: now)
    for notification in self {
      if calendar.isDate(notification.timestamp, inSameDayAs: now) {
        today.append(notification)
      } else if let previous, calendar.isDate(notification.timestamp, inSameDayAs: previous) {
        yesterday.append(notification)
      } else {
        earlier.append(notification)
      }
    }
    return [
      .init(day: .today, notifications: today),
      .init(day: .yesterday, notifications: yesterday),
      .init(day: .earlier, notifications: earlier),
    ].filter { !$0.notifications.isEmpty }
  }

  /// The notifications grouped by thread, in the order of each thread's newest one.
  /// Notifications without a thread are groups of one.
  public var threadGroups: [[NotificationData]] {
    var order: [String] = []
    var groups: [String: [NotificationData]] = [:]
    for notification in self {
      let key = notification.threadID.map { "thread:\($0)" } ?? "id:\(notification.id)"
      if groups[key] == nil { order.append(key) }
      groups[key, default: []].append(notification)
    }
    return order.compactMap { groups[$0] }
  }
}

extension NotificationFeed {
  /// The entities (contacts, alerts, pings) that have unread notifications, for a shell to
  /// highlight their rows (a ping is about its contact too).
  public var highlightedEntities: Set<NotificationFeature.Entity> {
    var entities: Set<NotificationFeature.Entity> = []
    for notification in self where !notification.isRead {
      switch notification.target {
      case .none: break
      case .contact(let contactID): entities.insert(.contact(contactID))
      case .alert(let alertID): entities.insert(.alert(alertID))
      case .ping(let pingID, let contactID):
        entities.insert(.ping(pingID))
        entities.insert(.contact(contactID))
      }
    }
    return entities
  }
}
