import Foundation
import Notifications
import Testing

/// Timestamps: ISO-8601 or numbers told apart by magnitude; missing is the receive time, too
/// far ahead is clamped.
struct PushPayloadTimestampTests {
  func timestamp(_ json: String) throws -> Date {
    try PushSample.parse(#"{"id":"a","timestamp":\#(json)}"#).timestamp
  }

  func date(_ secondsSince1970: TimeInterval) -> Date {
    Date(timeIntervalSince1970: secondsSince1970)
  }

  @Test func isoTimestampsWithAndWithoutFractionalSeconds() throws {
    #expect(try timestamp(#""2023-11-14T22:00:00Z""#) == date(1_699_999_200))
    #expect(try timestamp(#""2023-11-14T22:00:00.250Z""#) == date(1_699_999_200.25))
  }

  @Test func isoTimestampsWithAnyOffset() throws {
    #expect(try timestamp(#""2023-11-15T00:00:00+02:00""#) == date(1_699_999_200))
    #expect(try timestamp(#""2023-11-14T17:00:00.5-05:00""#) == date(1_699_999_200.5))
  }

  @Test func numbersBelow1e11AreSeconds() throws {
    #expect(try timestamp("1699999000") == date(1_699_999_000))
    #expect(try timestamp("1699999000.5") == date(1_699_999_000.5))
  }

  @Test func numbersFrom1e11AreMilliseconds() throws {
    #expect(try timestamp("1699999000123") == date(1_699_999_000.123))
    #expect(try timestamp("100000000000") == date(100_000_000))  // 1e11 ms: 1973
  }

  @Test func numbersFrom1e14AreMicroseconds() throws {
    #expect(try timestamp("1699999000000000") == date(1_699_999_000))
    #expect(try timestamp("100000000000000") == date(100_000_000))  // 1e14 µs: 1973
  }

  @Test func numericStringsAreNumbers() throws {
    #expect(try timestamp(#""1699999000""#) == date(1_699_999_000))
    #expect(try timestamp(#"" 1699999000000 ""#) == date(1_699_999_000))
    #expect(try timestamp(#""1.699999e9""#) == date(1_699_999_000))
  }

  /// Zero is what a sender with an unset timestamp field sends (a protobuf or database default),
  /// never a real 1970 notification: it is treated as missing.
  @Test func zeroIsMissingSoItIsTheReceiveTime() throws {
    #expect(try timestamp("0") == PushSample.receivedAt)
    #expect(try timestamp("0.0") == PushSample.receivedAt)
    #expect(try timestamp("-0") == PushSample.receivedAt)
    #expect(try timestamp(#""0""#) == PushSample.receivedAt)
    #expect(try timestamp(#"" 0.0 ""#) == PushSample.receivedAt)
    #expect(try PushSample.parse(#"{"data":{"id":"a","timestamp":"0"}}"#).timestamp
      == PushSample.receivedAt)
  }

  @Test func theSmallestNonZeroNumberIsStillADate() throws {
    #expect(try timestamp("1") == date(1))
    #expect(try timestamp(#""1970-01-01T00:00:00Z""#) == date(0))  // spelled out: a real date
  }

  @Test func aMissingNullOrBlankTimestampIsTheReceiveTime() throws {
    #expect(try PushSample.parse(#"{"id":"a"}"#).timestamp == PushSample.receivedAt)
    #expect(try timestamp("null") == PushSample.receivedAt)
    #expect(try timestamp(#""  ""#) == PushSample.receivedAt)
  }

  @Test func aTimestampMoreThanADayAheadIsClampedToTheReceiveTime() throws {
    #expect(try timestamp("1700086401") == PushSample.receivedAt)  // a day and a second ahead
    #expect(try timestamp(#""2100-01-01T00:00:00Z""#) == PushSample.receivedAt)
    #expect(try timestamp("99999999999") == PushSample.receivedAt)  // seconds: the year 5138
    #expect(try timestamp("1e300") == PushSample.receivedAt)
  }

  @Test func aTimestampUpToADayAheadIsKept() throws {
    #expect(try timestamp("1700086400") == date(1_700_086_400))  // exactly a day ahead
  }
}
