import Foundation
import Loom
import Notifications
import Testing

/// Seeded random, truncated and mutated payloads: the parser never traps, every payload either
/// parses or throws a `PushParseError`, and whatever parses obeys the rules and survives a
/// round trip through the notification's JSON.
struct PushPayloadFuzzTests {
  static let corpus: [String] = [
    #"{"aps":{"alert":{"title":"T","body":"B"},"thread-id":"t","interruption-level":"passive"},"#
      + #""id":"n1","type":"ping","pingId":"p1","contactId":"c1","#
      + #""timestamp":"2023-11-14T22:00:00.5+02:00","isRead":"1"}"#,
    #"{"data":{"id":"42","type":"alert","title":"T","body":"B","alertId":"a1","#
      + #""timestamp":"1700000000","isRead":"true","priority":"high"}}"#,
    #"{"id":"n1","type":"check_in","title":"Checked in","message":"Ada","#
      + #""timestamp":"2023-11-14T22:13:20.250Z","isRead":false,"#
      + #""target":{"kind":"contact","contactId":"c1"},"#
      + #""details":{"kind":"contact","value":{"name":"Ada"}},"#
      + #""threadId":null,"priority":"regular","isLocal":false}"#,
    #"{"id":9007199254740993,"aps":{"alert":"Line\nbreak 👩‍👩‍👧 e\u0301"},"#
      + #""timestamp":1699999000123}"#,
  ]

  /// Fragments a mutation may splice in: JSON punctuation, edge-case values, odd text.
  static let fragments: [String] = [
    "{", "}", "[", "]", ",", ":", "\"", "null", "true", "false", "0", "-1", "1e999", "42.5",
    #""id""#, #""type""#, #""timestamp""#, #""\u0000""#, #""\ud800""#, "👩‍👩‍👧", "\u{202E}",
    #"{"kind":"ping"}"#, String(repeating: "[", count: 80),
  ]

  static func mutate(_ text: String, using random: inout SeededRandomNumberGenerator) -> Data {
    var bytes = Array(text.utf8)
    for _ in 0..<Int.random(in: 1...3, using: &random) {
      let position = Int.random(in: 0...bytes.count, using: &random)
      switch Int.random(in: 0..<5, using: &random) {
      case 0:  // truncate
        bytes.removeSubrange(position...)
      case 1:  // overwrite a byte with anything
        if position < bytes.count { bytes[position] = UInt8.random(in: 0...255, using: &random) }
      case 2:  // delete a run
        let end = min(bytes.count, position + Int.random(in: 1...8, using: &random))
        bytes.removeSubrange(position..<end)
      case 3:  // splice in a fragment
        let fragment = fragments[Int.random(in: 0..<fragments.count, using: &random)]
        bytes.insert(contentsOf: Array(fragment.utf8), at: position)
      default:  // duplicate a run
        let end = min(bytes.count, position + Int.random(in: 1...16, using: &random))
        bytes.insert(contentsOf: bytes[position..<end], at: position)
      }
    }
    return Data(bytes)
  }

  /// A random object over the keys the parser reads, with values of every JSON kind.
  static func randomObject(depth: Int = 0, using random: inout SeededRandomNumberGenerator) -> [String: Any] {
    let keys = [
      "id", "notificationId", "type", "title", "body", "message", "timestamp", "isRead",
      "priority", "threadId", "contactId", "alertId", "pingId", "target", "details", "aps",
      "data", "alert", "thread-id", "interruption-level", "kind", "name", "x",
    ]
    var object: [String: Any] = [:]
    for _ in 0..<Int.random(in: 0...8, using: &random) {
      object[keys[Int.random(in: 0..<keys.count, using: &random)]] = randomValue(
        depth: depth, using: &random)
    }
    return object
  }

  static func randomValue(depth: Int, using random: inout SeededRandomNumberGenerator) -> Any {
    let strings = [
      "", " ", "n1", "ping", "alert", "check_in", "high", "passive", "true", "0", "1700000000",
      "2023-11-14T22:00:00Z", "👩‍👩‍👧", "a\nb\u{7}", "{\"kind\":\"alert\",\"alertId\":\"a\"}",
    ]
    switch Int.random(in: 0..<(depth < 3 ? 8 : 6), using: &random) {
    case 0: return NSNull()
    case 1: return Bool.random(using: &random)
    // Within ±2^53, where JSONSerialization writes every digit of the test's bytes exactly.
    case 2: return Int.random(in: -5...4_000_000_000_000_000, using: &random)
    case 3: return Double.random(in: -1e15...1e15, using: &random)
    case 4, 5: return strings[Int.random(in: 0..<strings.count, using: &random)]
    case 6: return randomObject(depth: depth + 1, using: &random)
    default:
      return (0..<Int.random(in: 0...3, using: &random)).map { _ in
        randomValue(depth: depth + 1, using: &random)
      }
    }
  }

  /// What every parsed notification must satisfy.
  static func checkInvariants(_ notification: NotificationData, sourceLocation: Testing.SourceLocation) {
    #expect(
      !notification.id.isEmpty && notification.id.count <= 128, sourceLocation: sourceLocation)
    #expect(!notification.title.isEmpty, sourceLocation: sourceLocation)
    #expect(notification.title.count <= 120, sourceLocation: sourceLocation)
    #expect(notification.message.count <= 1_000, sourceLocation: sourceLocation)
    #expect(!notification.message.contains("\n"), sourceLocation: sourceLocation)
    #expect(
      notification.timestamp <= PushSample.receivedAt.addingTimeInterval(86_400),
      sourceLocation: sourceLocation)
    #expect(
      notification.timestamp >= Date(timeIntervalSince1970: 0), sourceLocation: sourceLocation)
    #expect(!notification.isLocal, sourceLocation: sourceLocation)
    // Whatever parses can be stored and read back.
    do {
      let encoder = JSONEncoder()
      encoder.outputFormatting = .sortedKeys
      let encoded = try encoder.encode(notification)
      let decoded = try JSONDecoder().decode(NotificationData.self, from: encoded)
      #expect(try encoder.encode(decoded) == encoded, sourceLocation: sourceLocation)
    } catch {
      Issue.record(
        "A parsed notification did not round-trip: \(error)", sourceLocation: sourceLocation)
    }
  }

  @Test func twoThousandMutatedPayloadsParseOrThrowATypedError() {
    var random = SeededRandomNumberGenerator(seed: 20_231_114)
    var parsed = 0
    var rejected: [String: Int] = [:]
    for index in 0..<2_000 {
      let data = Self.mutate(Self.corpus[index % Self.corpus.count], using: &random)
      do {
        let notification = try PushPayloadParser.parse(data, receivedAt: PushSample.receivedAt)
        Self.checkInvariants(notification, sourceLocation: #_sourceLocation)
        parsed += 1
      } catch {
        // `error` is a PushParseError: the function's typed throws guarantee it.
        rejected[String(describing: error).prefix(30).description, default: 0] += 1
      }
    }
    #expect(parsed + rejected.values.reduce(0, +) == 2_000)
    #expect(parsed > 50, "Mutations should leave some payloads valid")
    #expect(rejected.count > 3, "Mutations should hit several kinds of error: \(rejected)")
  }

  @Test func twoThousandRandomObjectsParseOrThrowBothAsBytesAndAsUserInfo() throws {
    var random = SeededRandomNumberGenerator(seed: 42)
    var parsed = 0
    for _ in 0..<2_000 {
      var object = Self.randomObject(using: &random)
      if Bool.random(using: &random) { object["id"] = "n\(parsed)" }
      let data = try JSONSerialization.data(withJSONObject: object)
      let fromBytes = Result { () throws(PushParseError) in
        try PushPayloadParser.parse(data, receivedAt: PushSample.receivedAt)
      }
      let fromUserInfo = Result { () throws(PushParseError) in
        try PushPayloadParser.parse(userInfo: object, receivedAt: PushSample.receivedAt)
      }
      if case .success(let notification) = fromBytes {
        Self.checkInvariants(notification, sourceLocation: #_sourceLocation)
        parsed += 1
      }
      // The two entry points read the same payload the same way.
      #expect(
        fromBytes == fromUserInfo, "bytes: \(fromBytes), userInfo: \(fromUserInfo), \(object)")
    }
    #expect(parsed > 100)
  }

  @Test func everyPrefixOfAValidPayloadParsesOrThrows() {
    for text in Self.corpus {
      let bytes = Array(text.utf8)
      var parsed = 0
      for length in 0...bytes.count {
        if PushSample.error(Data(bytes[..<length])) == nil { parsed += 1 }
      }
      #expect(parsed == 1, "Only the whole payload is valid JSON: \(text)")
    }
  }
}
