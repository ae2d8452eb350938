import Foundation
import NotificationFeature
import Testing

struct PushPayloadParserFailureTests {
  let now = Date(timeIntervalSince1970: 1_700_000_000)

  func error(_ json: String) -> PushParseError? {
    do {
      _ = try PushPayloadParser.parse(Data(json.utf8), receivedAt: now)
      return nil
    } catch {
      return error
    }
  }

  @Test func eachBadPayloadGetsATypedError() {
    #expect(error("not json") == .notJSON)
    #expect(error("[1,2]") == .notAnObject)
    #expect(error(#"{"type":"ping"}"#) == .missingField("id"))
    #expect(error(#"{"id":"   "}"#) == .missingField("id"))
    #expect(error(#"{"id":42.5}"#) == .invalidField("id", reason: "a number id must be a whole number"))
    #expect(error(#"{"id":"a b"}"#) == .invalidField("id", reason: "only letters, digits and _ : . - are allowed"))
    #expect(error(#"{"id":"\#(String(repeating: "a", count: 129))"}"#) == .invalidField("id", reason: "it is longer than 128 characters"))
    #expect(error(#"{"id":"a","timestamp":"yesterday"}"#) == .invalidField("timestamp", reason: "\"yesterday\" is not a date"))
    #expect(error(#"{"id":"a","isRead":"maybe"}"#) == .invalidField("isRead", reason: "\"maybe\" is not a boolean"))
    #expect(error(#"{"id":"a","priority":"urgent"}"#) == .invalidField("priority", reason: "use silent, regular or high"))
  }

  @Test func payloadsOverTheLimitAreRejected() {
    let big = #"{"id":"a","body":"\#(String(repeating: "x", count: 5_000))"}"#
    #expect(error(big) == .tooLarge(byteCount: big.utf8.count, limit: 4_096))
  }

  @Test func errorsReadWell() {
    #expect(PushParseError.missingField("id").description == #"The push payload has no "id"."#)
  }

  @Test func randomAndTruncatedPayloadsNeverTrap() {
    var generator = SystemRandomNumberGenerator()
    var seed: UInt64 = 12345
    func next() -> UInt64 {
      seed &+= 0x9E37_79B9_7F4A_7C15
      var z = seed
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
    _ = generator.next()
    let valid = Data(#"{"aps":{"alert":{"title":"T","body":"B"},"interruption-level":"passive"},"id":"n1","type":"ping","pingId":"p1","contactId":"c1","timestamp":"2023-11-14T22:00:00Z","isRead":"1"}"#.utf8)
    var parsed = 0
    var rejected = 0
    for _ in 0..<2_000 {
      var bytes = [UInt8](valid.prefix(Int(next() % UInt64(valid.count + 1))))
      if !bytes.isEmpty, next() % 2 == 0 {
        bytes[Int(next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: next())
      }
      do {
        _ = try PushPayloadParser.parse(Data(bytes), receivedAt: now)
        parsed += 1
      } catch {
        rejected += 1
      }
    }
    #expect(parsed + rejected == 2_000)
    #expect(rejected > 0)
  }
}
